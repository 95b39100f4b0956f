"""Every MCP tool with each argument broken, counting tool errors that still speak
pydantic, and any call that fails with something other than a tool error.

Task err24 (issue 26, bad input): ``invalid arguments for remember: content: String
should have at least 1 character``. This lists ``engram mcp``'s manifest (the server
object in process, over an in-memory store) and, for every tool, calls it once per
constraint an argument's input schema declares, broken on purpose (err23's cases:
a pattern that does not match, too long, too short, out of range, the wrong type, an
enum value that is not one), once per required argument left out and once with an
unknown argument. Every tool error is searched for pydantic's wording (err23's list).

    PYTHONPATH=src .venv/bin/python scripts/err24_mcp_fuzz.py [--show 8]

``PYTHONPATH=/work/base21c/src`` gives the "before" count.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

from engram import Config, Memory
from engram.mcp.server import create_mcp_server, tool_manifest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' embedder: no model weights
from err23_fuzz import bad_values, report, sample  # noqa: E402

from hashembed import HashEmbedder  # noqa: E402

Case = tuple[str, str, dict[str, Any]]  # what was broken, argument, the call's arguments


def cases(schema: dict[str, Any]) -> Iterator[Case]:
    """Each broken call of one tool, from its input schema (``$defs`` read as err23's
    OpenAPI components, so err23's value makers serve unchanged)."""
    spec = {"components": {"schemas": schema.get("$defs", {})}}
    props = schema.get("properties", {})
    good = {k: sample(spec, props[k]) for k in schema.get("required", [])}
    for name, prop in props.items():
        for what, value in bad_values(spec, prop):
            yield what, name, {**good, name: value}
    for name in schema.get("required", []):
        yield "missing", name, {k: v for k, v in good.items() if k != name}
    yield "unknown argument", "bogus", {**good, "bogus": 1}


def walk(server: Any, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for tool in tools:
        for what, argument, arguments in cases(tool["inputSchema"]):
            row = {"tool": tool["name"], "case": what, "argument": argument, "outcome": "ok"}

            async def one(name: str = tool["name"], args: dict[str, Any] = arguments) -> None:
                await server.call_tool(name, args)

            try:
                anyio.run(one)
            except UnexpectedToolError as exc:
                row.update(outcome="crash", text=f"{exc}: {exc.__cause__!r}")
            except ToolError as exc:
                row.update(outcome="tool error", text=str(exc))
            except Exception as exc:  # the measure: none may get here
                row.update(outcome="raised", text=repr(exc))
            rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", type=int, default=8, help="print this many offenders")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="err24-") as home:
        config = Config.load(env={}, home=home)
        with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
            server = create_mcp_server(memory, namespace="fuzz")
            tools = tool_manifest(server)
            rows = walk(server, tools)
    report(
        f"{len(tools)} tools, {len(rows)} broken calls; ",
        Counter(r["outcome"] for r in rows),
        [r for r in rows if r["outcome"] == "tool error"],
        "text",
        "tool errors",
        lambda r: f"{r['tool']} [{r['case']} {r['argument']}]",
        args.show,
    )
    for r in [r for r in rows if r["outcome"] in {"crash", "raised"}][: args.show]:
        print(f"  {r['outcome']}: {r['tool']} [{r['case']} {r['argument']}]: {r['text'][:300]}")
    for r in [r for r in rows if r["outcome"] == "ok"][: args.show]:
        print(f"  accepted: {r['tool']} [{r['case']} {r['argument']}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

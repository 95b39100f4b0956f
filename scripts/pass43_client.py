"""mem0's real async hosted client (``mem0.AsyncMemoryClient``, mem0 2.2.1) against
engram's server (new-user pass, round thirty-one, pass43): a coding crew's service
awaiting each call, and what it got.

Run from the worktree root; the engram side serves a fresh store on 127.0.0.1 and runs
the client from mem0's own venv (see scripts/mem0_script_real.py for that venv)::

    PYTHONPATH=src .venv/bin/python scripts/pass43_client.py serve \
        --mem0-python /tmp/mem0-venv/bin/python

``client URL KEY`` is the half that runs in mem0's venv; it prints one line per call,
``ok`` or the exception class the client raised, and exits 1 when a call that engram
supports failed (the calls named ``expect-error ...`` must raise; ``get_project`` has
no object in engram).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from pass42_client import serve_client  # noqa: E402  (a script beside this one)

UNSUPPORTED = ("get_project",)
CONVENTION = "The project uses Python 3.12 and ruff for linting."


async def crew(url: str, key: str) -> int:
    os.environ["MEM0_TELEMETRY"] = "False"
    from mem0 import AsyncMemoryClient

    failed = 0

    async def call(step: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal failed
        try:
            out = await fn(*args, **kwargs)
        except Exception as exc:
            expected = step in UNSUPPORTED or step.startswith("expect-error")
            failed += 0 if expected else 1
            print(f"{step:<28} {type(exc).__name__}: {str(exc)[:100]}")
            return None
        if step.startswith("expect-error"):
            failed += 1
        print(f"{step:<28} ok {str(out)[:110]}")
        return out

    client = AsyncMemoryClient(api_key=key, host=f"{url}/mem0")
    said = [{"role": "user", "content": CONVENTION}]
    first = await call(
        "add pr-101",
        client.add,
        said,
        user_id="dana",
        agent_id="architect",
        run_id="pr-101",
        metadata={"area": "design"},
        infer=False,
    )
    await call(
        "add pr-103",
        client.add,
        [*said, {"role": "user", "content": "Every migration needs a rollback script."}],
        user_id="dana",
        agent_id="reviewer",
        run_id="pr-103",
        metadata={"area": "review"},
        infer=False,
    )
    found = await asyncio.gather(
        call("search gather 1", client.search, "python version", filters={"user_id": "dana"}),
        call("search gather 2", client.search, "rollback", filters={"user_id": "dana"}, top_k=1),
    )
    print(f"{'gathered':<28} {sum(1 for f in found if f is not None)} of 2")
    await call("get_all", client.get_all, filters={"user_id": "dana"})
    await call(
        "get_all run", client.get_all, filters={"AND": [{"user_id": "dana"}, {"run_id": "pr-103"}]}
    )
    await call("get_all page", client.get_all, filters={"user_id": "dana"}, page=1, page_size=1)
    if first:
        memory_id = first["results"][0]["id"]
        await call("get", client.get, memory_id)
        await call("update", client.update, memory_id, text=CONVENTION.replace("3.12", "3.13"))
        await call("history", client.history, memory_id)
        await call("delete", client.delete, memory_id)
        await call("expect-error get deleted", client.get, memory_id)
    await call("delete_all run", client.delete_all, user_id="dana", run_id="pr-103")
    await call("get_all after", client.get_all, filters={"user_id": "dana"})
    await call("expect-error other user", client.get_all, filters={"user_id": "eli"})
    await call(
        "add agent",
        client.add,
        "Reject pull requests over 400 lines.",
        agent_id="reviewer",
        infer=False,
    )
    await call("users", client.users)
    await call("delete_users agent", client.delete_users, agent_id="reviewer")
    # The store is empty now: mem0's client raises ValueError("No entities to delete")
    # before any request (its reset lists the entities first), as on mem0's platform.
    await call("expect-error reset empty", client.reset)
    await call("add again", client.add, CONVENTION, user_id="dana", infer=False)
    await call("reset", client.reset)
    await call("get_all after reset", client.get_all, filters={"user_id": "dana"})
    await call("get_project", client.get_project)
    print(f"{failed} supported call(s) failed")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("side", choices=["serve", "client"])
    parser.add_argument("args", nargs="*")
    parser.add_argument("--mem0-python", default="/tmp/mem0-venv/bin/python")
    ns = parser.parse_args()
    if ns.side == "client":
        return asyncio.run(crew(*ns.args))
    return serve_client(ns.mem0_python, __file__, "dana")


if __name__ == "__main__":
    raise SystemExit(main())

"""A repeated ask through the chat path: what the second ask's context lines hold.

    PYTHONPATH=src python scripts/mend29_echoes.py OUT.json [--cases FILE] [--home DIR]

From a fresh store (the defaults, MiniLM), each fact of ``--cases``
(``scripts/mend29_echo_cases.json``) is told as a chat turn ("Noted." the reply), then
each question is asked (``mem.chat.before``, what ``/v1/proxy/chat/completions``
calls), its scripted reply recorded and mined (``mem.chat.after``, the worker's jobs),
and asked again in other words in a new conversation. Per second ask: the context's
lines, how many are the first ask or its reply (echoes), whether the gold is there
(answerable) and in the first line. Folds: A the first half of each list, B the second.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from engram import Memory

CASES = Path(__file__).with_name("mend29_echo_cases.json")
SYSTEM = "You are a helpful assistant."


def _turn(mem: Memory, text: str, reply: str, conversation: str) -> str:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
    turn = mem.chat.before(messages, user_id="ines", conversation_id=conversation)
    mem.chat.after(messages, reply, user_id="ines", conversation_id=conversation)
    mem.jobs.process_pending()
    return turn.context


def _lines(context: str) -> list[str]:
    return [line.strip()[2:] for line in context.splitlines() if line.lstrip().startswith("- ")]


def _echo(line: str, case: dict[str, str]) -> bool:
    """Whether the line is the first ask or its reply (the text between the date and
    the id), not a memory that merely contains the reply's words."""
    text = line.split("] ", 1)[-1].rsplit(" (id: ", 1)[0]
    return text in (case["ask"], case["reply"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--home", type=Path)
    args = parser.parse_args()
    cases = json.loads(args.cases.read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="mend29-echoes-") as tmp,
        Memory(Path(args.home or tmp) / "echoes.db") as mem,
    ):
        for n, fact in enumerate(cases["told"]):
            _turn(mem, fact, "Noted.", f"told-{n}")
        for kind in ("answerable", "unanswerable"):
            group = cases[kind]
            for n, case in enumerate(group):
                first = _lines(_turn(mem, case["ask"], case["reply"], f"{kind}-{n}-1"))
                again = _lines(_turn(mem, case["again"], "Ok.", f"{kind}-{n}-2"))
                gold = case.get("gold")
                rows.append(
                    {
                        "kind": kind,
                        "fold": "A" if n < len(group) / 2 else "B",
                        "again": case["again"],
                        "first_lines": first,
                        "lines": again,
                        "echo_lines": sum(_echo(line, case) for line in again),
                        "gold_in_block": None if gold is None else any(gold in x for x in again),
                        "gold_first": None if gold is None else bool(again and gold in again[0]),
                    }
                )
    summary: dict[str, Any] = {}
    for kind in ("answerable", "unanswerable"):
        for fold in ("A", "B"):
            part = [r for r in rows if r["kind"] == kind and r["fold"] == fold]
            summary[f"{kind} {fold}"] = {
                "asks": len(part),
                "echo_lines": sum(r["echo_lines"] for r in part),
                "lines": sum(len(r["lines"]) for r in part),
                "empty_blocks": sum(not r["lines"] for r in part),
                "gold_in_block": sum(bool(r["gold_in_block"]) for r in part),
                "gold_first": sum(bool(r["gold_first"]) for r in part),
            }
    result = {"summary": summary, "rows": rows}
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()

"""Round fifteen's check (changes36): tell each case of one fold of
``scripts/changes36_cases.json`` to a fresh namespace of one in-memory ``Memory``
(library defaults, no embedder: recall by keywords) on its path, then read back:

- ``new first``: recall of the case's question (limit 4) has a hit naming the new
  value above every hit naming the old value alone;
- ``closed``: a relation to the old value was recorded and none to it is current;
- ``wrong``: a relation closed whose target is not the old value (a look-alike: any
  relation closed).

Path ``add``: each statement a ``mem.add`` a month apart, the job queue run after each.
Path ``mine``: each chat a ``mem.palace.mine_conversation(..., graph=True)`` a month
apart, the job queue run after each. Run with the source tree to measure on the path:

    PYTHONPATH=src python scripts/changes36_check.py tune [OUT.json]
    PYTHONPATH=/tmp/base/src python scripts/changes36_check.py held OUT.json
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engram import Memory
from engram.bench.changes import _matches

CASES = Path(__file__).resolve().parent / "changes36_cases.json"
START = datetime(2026, 1, 5, 9, tzinfo=UTC)
STEP = timedelta(days=30)


def tell(mem: Memory, case: dict[str, Any], user: str) -> None:
    if case["path"] == "add":
        for n, text in enumerate(case["statements"]):
            mem.add(text, user_id=user, created_at=START + n * STEP)
            mem.jobs.process_pending()
        return
    for n, chat in enumerate(case["chats"]):
        at = START + n * STEP
        turns = [
            {"role": role, "content": text, "created_at": (at + timedelta(minutes=k)).isoformat()}
            for k, (role, text) in enumerate(chat)
        ]
        mem.palace.mine_conversation(
            turns, wing="chats", session=f"chat-{n}", graph=True, user_id=user
        )
        mem.jobs.process_pending()


def _names(text: str, value: str) -> bool:
    return value.lower().replace(". ", " ") in text.lower().replace(". ", " ")


def judge(mem: Memory, case: dict[str, Any], user: str) -> dict[str, Any]:
    rows = [
        r
        for r in mem.graph.relations(current_only=False, limit=1000, user_id=user)
        if r.relation_type != "talks_about"
    ]
    old = case.get("old")
    closed = [r for r in rows if r.valid_to is not None]
    olds = [r for r in rows if old is not None and _matches(r.target, old)]
    row: dict[str, Any] = {"id": case["id"], "kind": case["kind"], "path": case["path"]}
    row["wrong"] = [
        f"{r.source} {r.relation_type} {r.target}"
        for r in closed
        if old is None or not _matches(r.target, old)
    ]
    row["relations"] = [
        f"{r.source} {r.relation_type} {r.target}{'' if r.valid_to is None else ' [closed]'}"
        for r in rows
    ]
    if case["kind"] == "change":
        row["closed"] = bool(olds) and all(r.valid_to is not None for r in olds)
        hits = [h.memory.content for h in mem.recall(case["question"], user_id=user, limit=4).hits]
        new_at = [i for i, t in enumerate(hits) if _names(t, case["new"])]
        old_at = [
            i for i, t in enumerate(hits) if _names(t, case["old"]) and not _names(t, case["new"])
        ]
        row["new_first"] = bool(new_at) and (not old_at or new_at[0] < old_at[0])
        row["hits"] = hits
    return row


def main(fold: str, out: str | None) -> None:
    cases = [c for c in json.loads(CASES.read_text())["cases"] if c["fold"] == fold]
    rows = []
    with Memory(":memory:", embedder=None) as mem:
        for case in cases:
            user = f"u-{case['id']}"
            tell(mem, case, user)
            row = judge(mem, case, user)
            rows.append(row)
            flags = ""
            if case["kind"] == "change":
                flags = f"new_first={int(row['new_first'])} closed={int(row['closed'])} "
            print(f"{row['id']:<11} {row['path']:<4} {flags}wrong={len(row['wrong'])}  "
                  f"{'; '.join(row['relations'])[:160]}")  # fmt: skip
    for path in ("add", "mine", None):
        sel = [r for r in rows if path is None or r["path"] == path]
        ch = [r for r in sel if r["kind"] == "change"]
        keeps = [r for r in sel if r["kind"] == "keep"]
        print(
            f"{fold} {path or 'all'}: new first {sum(r['new_first'] for r in ch)}/{len(ch)}, "
            f"closed {sum(r['closed'] for r in ch)}/{len(ch)}, changes closing another "
            f"{sum(bool(r['wrong']) for r in ch)}, look-alikes closed "
            f"{sum(bool(r['wrong']) for r in keeps)}/{len(keeps)}"
        )
    if out:
        Path(out).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)

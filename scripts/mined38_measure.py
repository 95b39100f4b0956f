"""Round seventeen's check (mined38): each chat of one fold of
``scripts/mined38_cases.json`` mined whole, as ``engram mine chat.json`` files it
(``mem.palace.mine_conversation``, one drawer per turn, no ``--graph``), then the worker
(``mem.jobs.process_pending``, as ``engram worker --once``), in a fresh namespace of
one in-memory ``Memory`` (library defaults, no embedder: recall by keywords). Read back:

- ``closed``: per change, a relation to the old value was recorded and none is current;
- ``old read`` / ``new read``: a relation to the old / new value was recorded;
- ``new first``: recall of the change's question (limit 4) has a hit naming the new
  value above every hit naming the old value alone;
- ``wrong``: a closed relation whose target is no change's old value (a look-alike,
  a kept value or another slot closed);
- ``relations``: relations read per chat (``talks_about`` mentions left out).

    PYTHONPATH=src python scripts/mined38_measure.py tune [OUT.json] [--verbose]
    PYTHONPATH=/tmp/base-mined38/src python scripts/mined38_measure.py held OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engram import Memory
from engram.bench.changes import _matches

CASES = Path(__file__).resolve().parent / "mined38_cases.json"


def _names(text: str, value: str) -> bool:
    return value.lower().replace(". ", " ") in text.lower().replace(". ", " ")


def judge(mem: Memory, chat: dict[str, Any], user: str) -> dict[str, Any]:
    rows = [
        r
        for r in mem.graph.relations(current_only=False, limit=1000, user_id=user)
        if r.relation_type != "talks_about"
    ]
    olds = [c["old"] for c in chat["changes"]]
    row: dict[str, Any] = {"id": chat["id"], "relations": len(rows)}
    row["wrong"] = [
        f"{r.source} {r.relation_type} {r.target}"
        for r in rows
        if r.valid_to is not None and not any(_matches(r.target, o) for o in olds)
    ]
    row["read"] = [
        f"{r.source} {r.relation_type} {r.target}{'' if r.valid_to is None else ' [closed]'}"
        for r in rows
    ]
    changes = []
    for c in chat["changes"]:
        old = [r for r in rows if _matches(r.target, c["old"])]
        new = [r for r in rows if _matches(r.target, c["new"])]
        hits = [h.memory.content for h in mem.recall(c["question"], user_id=user, limit=4).hits]
        new_at = [i for i, t in enumerate(hits) if _names(t, c["new"])]
        old_at = [i for i, t in enumerate(hits) if _names(t, c["old"]) and not _names(t, c["new"])]
        changes.append(
            {
                "question": c["question"],
                "old_read": bool(old),
                "new_read": bool(new),
                "closed": bool(old) and all(r.valid_to is not None for r in old),
                "new_first": bool(new_at) and (not old_at or new_at[0] < old_at[0]),
            }
        )
    row["changes"] = changes
    return row


def main(fold: str, out: str | None, verbose: bool) -> None:
    chats = [c for c in json.loads(CASES.read_text())["chats"] if c["fold"] == fold]
    rows = []
    with Memory(":memory:", embedder=None) as mem:
        for chat in chats:
            user = f"m38-{chat['id']}"
            mem.palace.mine_conversation(chat["messages"], wing=chat["id"], user_id=user)
            mem.jobs.process_pending()
            row = judge(mem, chat, user)
            rows.append(row)
            ch = row["changes"]
            print(
                f"{row['id']:<16} rel={row['relations']:<3} "
                f"old_read={sum(c['old_read'] for c in ch)}/{len(ch)} "
                f"closed={sum(c['closed'] for c in ch)}/{len(ch)} "
                f"new_first={sum(c['new_first'] for c in ch)}/{len(ch)} wrong={len(row['wrong'])}"
            )
            if verbose:
                for r in row["read"]:
                    print("    ", r)
    ch = [c for r in rows for c in r["changes"]]
    print(
        f"{fold}: closed {sum(c['closed'] for c in ch)}/{len(ch)}, old read "
        f"{sum(c['old_read'] for c in ch)}/{len(ch)}, new read {sum(c['new_read'] for c in ch)}"
        f"/{len(ch)}, new first {sum(c['new_first'] for c in ch)}/{len(ch)}, wrong closes "
        f"{sum(len(r['wrong']) for r in rows)}, relations {sum(r['relations'] for r in rows)} "
        f"in {len(rows)} chats"
    )
    if out:
        Path(out).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--verbose"]
    main(args[0], args[1] if len(args) > 1 else None, "--verbose" in sys.argv)

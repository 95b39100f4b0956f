"""Round eighteen's check (batch40): each story of ``scripts/batch40_cases.py`` told
three ways in a fresh namespace of one in-memory ``Memory`` (library defaults, no
embedder), the worker run after (``mem.jobs.process_pending``):

- ``one``: one ``mem.add`` per user turn (the reference: each turn committed before
  the next is written);
- ``batch``: every user turn in one ``mem.add_many``;
- ``chat``: one chat mined whole (``mem.palace.mine_conversation``), the user's turns
  with an assistant's reply after each.

Per story: ``closed`` (a relation to the old value was recorded and none is current),
``new`` (a current relation to the new value) and ``wrong`` (closed relations whose
target is not the old value: a look-alike or another slot closed).

    PYTHONPATH=src python scripts/batch40_measure.py tune [OUT.json] [--verbose]
    PYTHONPATH=/tmp/base-batch40/src python scripts/batch40_measure.py held OUT.json
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch40_cases import LOOK_ALIKES, REPLIES, Story, folds  # noqa: E402

from engram import Memory  # noqa: E402
from engram.bench.changes import _matches  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
#: When each user turn is said: the first value, small talk a day on, the change a
#: month on, a look-alike the day after.
DAYS = (0, 1, 30, 31)
TELLINGS = ("one", "batch", "chat")


def turns(story: Story) -> list[tuple[str, datetime]]:
    said = [*story[1], *([LOOK_ALIKES[story[0]]] if story[0] in LOOK_ALIKES else [])]
    return [(text, START + timedelta(days=DAYS[k])) for k, text in enumerate(said)]


def tell(mem: Memory, how: str, story: Story, namespace: str) -> None:
    said = turns(story)
    if how == "one":
        for text, at in said:
            mem.add(text, namespace=namespace, created_at=at)
    elif how == "batch":
        mem.add_many([{"content": t, "created_at": at} for t, at in said], namespace=namespace)
    else:
        messages: list[dict[str, str]] = []
        for k, (text, at) in enumerate(said):
            messages.append({"role": "user", "content": text, "created_at": at.isoformat()})
            reply = REPLIES[k % len(REPLIES)]
            later = (at + timedelta(minutes=1)).isoformat()
            messages.append({"role": "assistant", "content": reply, "created_at": later})
        mem.palace.mine_conversation(messages, wing=story[0], namespace=namespace)
    mem.jobs.process_pending()


def judge(mem: Memory, story: Story, namespace: str) -> dict[str, Any]:
    rows = [
        r
        for r in mem.graph.relations(current_only=False, limit=1000, namespace=namespace)
        if r.relation_type != "talks_about"
    ]
    _, _, old, new = story
    olds = [r for r in rows if _matches(r.target, old)]
    return {
        "closed": bool(olds) and all(r.valid_to is not None for r in olds),
        "new": any(r.valid_to is None and _matches(r.target, new) for r in rows),
        "wrong": [
            f"{r.source} {r.relation_type} {r.target}"
            for r in rows
            if r.valid_to is not None and not _matches(r.target, old)
        ],
        "read": [
            f"{r.source} {r.relation_type} {r.target}{'' if r.valid_to is None else ' [closed]'}"
            for r in rows
        ],
    }


def main(fold: str, out: str | None, verbose: bool) -> None:
    stories = folds()[fold]
    result: dict[str, dict[str, Any]] = {}
    with Memory(":memory:", embedder=None) as mem:
        for story in stories:
            result[story[0]] = {}
            for how in TELLINGS:
                namespace = f"b40-{story[0]}-{how}"
                tell(mem, how, story, namespace)
                result[story[0]][how] = judge(mem, story, namespace)
            row = result[story[0]]
            print(
                f"{story[0]} "
                + " ".join(
                    f"{how}={'C' if row[how]['closed'] else '-'}{'N' if row[how]['new'] else '-'}"
                    f"{'W' * len(row[how]['wrong'])}"
                    for how in TELLINGS
                )
            )
            if verbose:
                for how in TELLINGS:
                    print(f"    {how}: {row[how]['read']}")
    for how in TELLINGS:
        rows = [r[how] for r in result.values()]
        print(
            f"{fold} {how}: closed {sum(r['closed'] for r in rows)}/{len(rows)}, new current "
            f"{sum(r['new'] for r in rows)}/{len(rows)}, wrong closes "
            f"{sum(len(r['wrong']) for r in rows)}"
        )
    if out:
        Path(out).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--verbose"]
    main(args[0], args[1] if len(args) > 1 else None, "--verbose" in sys.argv)

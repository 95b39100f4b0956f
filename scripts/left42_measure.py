"""left42's check: a change said of someone else's thing closes none of the user's.

Each story of ``scripts/left42_cases.py`` is told two ways in a fresh namespace of one
in-memory ``Memory`` (library defaults, no embedder), the worker run after
(``mem.jobs.process_pending``): ``one`` (one ``mem.add`` per turn: the fact, small talk
a day on, the second statement a month on) and ``batch`` (all three in one
``add_many``). Per story: ``kept`` (the user's old value read and still current),
``closed`` (read and none current), ``new`` (a current relation to the new value),
``wrong`` (closed relations whose target is not the old value). A story is right when
an ``other`` one keeps the old value (read, and current) and an ``own`` one closes it.

    PYTHONPATH=src python scripts/left42_measure.py tune [OUT.json] [--verbose]
    PYTHONPATH=/tmp/base-left42/src python scripts/left42_measure.py held OUT.json
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from left42_cases import SMALL_TALK, Story, folds  # noqa: E402

from engram import Memory  # noqa: E402
from engram.bench.changes import _matches  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAYS = (0, 1, 30)
TELLINGS = ("one", "batch")


def tell(mem: Memory, how: str, story: Story, namespace: str) -> None:
    first, second = story[2]
    said = [
        (t, START + timedelta(days=d))
        for t, d in zip((first, SMALL_TALK, second), DAYS, strict=True)
    ]
    if how == "one":
        for text, at in said:
            mem.add(text, namespace=namespace, created_at=at)
    else:
        mem.add_many([{"content": t, "created_at": at} for t, at in said], namespace=namespace)
    mem.jobs.process_pending()


def judge(mem: Memory, story: Story, namespace: str) -> dict[str, Any]:
    rows = [
        r
        for r in mem.graph.relations(current_only=False, limit=1000, namespace=namespace)
        if r.relation_type != "talks_about"
    ]
    _, kind, _, old, new = story
    olds = [r for r in rows if _matches(r.target, old)]
    closed = bool(olds) and all(r.valid_to is not None for r in olds)
    kept = any(r.valid_to is None for r in olds)
    return {
        # A first fact never read tests nothing: counted apart (``read``).
        "right": (bool(olds) and kept) if kind == "other" else closed,
        "old_read": bool(olds),
        "kept": kept,
        "closed": closed,
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
            result[story[0]] = {"kind": story[1]}
            for how in TELLINGS:
                namespace = f"l42-{story[0]}-{how}"
                tell(mem, how, story, namespace)
                result[story[0]][how] = judge(mem, story, namespace)
            row = result[story[0]]
            print(
                f"{story[0]} {story[1]:5} "
                + " ".join(
                    f"{how}={'R' if row[how]['right'] else 'x'}{'N' if row[how]['new'] else '-'}"
                    f"{'W' * len(row[how]['wrong'])}"
                    for how in TELLINGS
                )
            )
            if verbose:
                for how in TELLINGS:
                    print(f"    {how}: {row[how]['read']}")
    for kind in ("other", "own"):
        for how in TELLINGS:
            rows = [r[how] for r in result.values() if r["kind"] == kind]
            print(
                f"{fold} {kind} {how}: right {sum(r['right'] for r in rows)}/{len(rows)} "
                f"(old read {sum(r['old_read'] for r in rows)}), "
                f"new current {sum(r['new'] for r in rows)}/{len(rows)}, wrong closes "
                f"{sum(len(r['wrong']) for r in rows)}"
            )
    if out:
        Path(out).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--verbose"]
    main(args[0], args[1] if len(args) > 1 else None, "--verbose" in sys.argv)

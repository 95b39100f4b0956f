"""Round seven's dogfood check (changes25): dogfood round fifteen's support-bot notes
(``/tmp/dogfood15/data.py``: five customers, 25 notes each, a changed plan or address
told as a new note) told through ``mem.add`` in order (graph and linker on, no
pipeline, no embedder), then for each changed value: whether the old note's relations
are closed and the new note's hold. Run with the base's and the branch's source on
``PYTHONPATH``.

    PYTHONPATH=src python scripts/changes25_dogfood.py /tmp/dogfood15/data.py
"""

from __future__ import annotations

import importlib.util
import sys
import time

from engram import Memory
from engram.config import Config

#: The changed values of round fifteen's eight "now" questions: (user, old, new).
CHANGED = [
    ("priya", "addr_old", "addr_new"),
    ("priya", "plan_old", "plan_new"),
    ("tomasz", "plan_old", "plan_new"),
    ("amara", "plan_old", "plan_new"),
    ("amara", "addr_old", "addr_new"),
    ("kenji", "plan_old", "plan_new"),
    ("sofia", "addr_old", "addr_new"),
    ("sofia", "plan_old", "plan_new"),
]


def main() -> None:
    spec = importlib.util.spec_from_file_location("dogfood15_data", sys.argv[1])
    assert spec is not None and spec.loader is not None
    data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data)
    cfg = Config().with_overrides(pipeline={"enabled": False, "graph": True, "linker": True})
    closed_old = held_new = adds = 0
    start = time.perf_counter()
    with Memory(":memory:", config=cfg, embedder=None) as mem:
        ids: dict[tuple[str, str], str] = {}
        for user, notes in data.USERS.items():
            for key, text in notes:
                ids[(user, key)] = mem.add(text, user_id=user).id
                adds += 1
        elapsed = time.perf_counter() - start
        for user, old, new in CHANGED:
            rows = [
                r
                for r in mem.graph.relations(current_only=False, user_id=user, limit=1000)
                if r.relation_type != "talks_about"
            ]
            olds = [r for r in rows if r.source_memory_id == ids[(user, old)]]
            news = [r for r in rows if r.source_memory_id == ids[(user, new)]]
            old_closed = bool(olds) and all(r.valid_to is not None for r in olds)
            new_held = any(r.valid_to is None for r in news)
            closed_old += old_closed
            held_new += new_held and old_closed
            print(
                f"{user:7} {old:9} closed={old_closed!s:5} new held={new_held!s:5} "
                f"old: {[(r.source, r.relation_type, r.target) for r in olds]} "
                f"new: {[(r.source, r.relation_type, r.target) for r in news]}"
            )
        olds_ids = {ids[(u, o)] for u, o, _ in CHANGED}
        other = [
            (r.namespace, r.source, r.relation_type, r.target)
            for user in data.USERS
            for r in mem.graph.relations(current_only=False, user_id=user, limit=1000)
            if r.valid_to is not None and r.source_memory_id not in olds_ids
        ]
        print(f"closed that no change replaced: {len(other)} {other}")
    print(
        f"old closed {closed_old}/{len(CHANGED)}, closed with the new held "
        f"{held_new}/{len(CHANGED)}; {adds} adds, {adds / elapsed:.1f} adds/s"
    )


if __name__ == "__main__":
    main()

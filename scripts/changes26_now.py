"""Round eight's "now" check (changes26): dogfood round fifteen's eight questions about
a changed value ("where should we ship her parcels now?"), asked of recall after the
notes are told through ``mem.add`` in order (graph and linker on, no pipeline, the
configured embedder), one namespace a customer: whether the new note is recall's first
hit, whether it ranks above the old note, and whether the old note is among the hits.
Run with the base's and the branch's source on ``PYTHONPATH``.

    PYTHONPATH=src python scripts/changes26_now.py /tmp/dogfood15/data.py
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from pathlib import Path

from engram import Memory
from engram.config import Config

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("changes25_dogfood", HERE / "changes25_dogfood.py")
assert _spec is not None and _spec.loader is not None
_round7 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round7)
CHANGED = _round7.CHANGED


def main() -> None:
    data = runpy.run_path(sys.argv[1])  # USERS and QUESTIONS
    cfg = Config().with_overrides(pipeline={"enabled": False, "graph": True, "linker": True})
    first = ahead = old_shown = 0
    with Memory(":memory:", config=cfg) as mem:
        ids: dict[tuple[str, str], str] = {}
        for user, notes in data["USERS"].items():
            for key, text in notes:
                ids[(user, key)] = mem.add(text, user_id=user).id
        for user, old, new in CHANGED:
            question = next(q for q, keys in data["QUESTIONS"][user] if new in keys)
            ranked = [h.memory.id for h in mem.recall(question, user_id=user).hits]
            new_id, old_id = ids[(user, new)], ids[(user, old)]
            is_first = bool(ranked) and ranked[0] == new_id
            is_ahead = new_id in ranked and (
                old_id not in ranked or ranked.index(new_id) < ranked.index(old_id)
            )
            first += is_first
            ahead += is_ahead
            old_shown += old_id in ranked
            print(
                f"{user} {new}: first {is_first}, above the old {is_ahead}, "
                f"old among the hits {old_id in ranked}"
            )
    print(
        f"new first {first}/{len(CHANGED)}, new above old {ahead}/{len(CHANGED)}, "
        f"old among the hits {old_shown}/{len(CHANGED)}"
    )


if __name__ == "__main__":
    main()

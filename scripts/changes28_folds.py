"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes28_folds.py OUT.json [--held]. Without
``--held`` every shipped set but round ten's held-out fold Z (changes_heldout9.json) is
run, folds A to S, with the tune sets T to Y and ZT, so tuning never reads Z; with it,
only Z is run (round ten reads it once, at its end). Round nine's script
(`changes27_folds.collect`) writes each fold's score and each story's closed and current
relations, for a base/branch diff. The sets are named here, not read from the bench's
list, so the base's source (whose list lacks Z) runs the same sets.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("round9", HERE / "changes27_folds.py")
assert _spec is not None and _spec.loader is not None
_round9 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round9)
HELD = "changes_heldout9.json"
SHIPPED = ("changes.json", "changes_chat.json") + tuple(
    f"changes_heldout{n}.json" for n in ("", 2, 3, 4, 5, 6, 7, 8)
)
TUNES = (*_round9.TUNES, "changes28_tune")


def main(
    held_set: str = HELD, shipped: tuple[str, ...] = SHIPPED, tunes: tuple[str, ...] = TUNES
) -> None:
    """Run ``held_set`` alone with ``--held``, else ``shipped`` and ``tunes`` (later
    rounds call it with their own)."""
    out, held = Path(sys.argv[1]), "--held" in sys.argv[2:]
    if held:
        paths = [_round9.DATA / held_set]
    else:
        paths = [_round9.DATA / name for name in shipped]
        paths += [HERE / f"{name}.json" for name in tunes]
    _round9.collect(paths, out)


if __name__ == "__main__":
    main()

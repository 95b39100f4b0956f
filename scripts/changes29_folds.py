"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes29_folds.py OUT.json [--held]. Without
``--held`` every shipped set but round eleven's held-out fold AA (changes_heldout10.json)
is run, folds A to Z, with the tune sets T to Y, ZT and AT, so tuning never reads AA; with
it, only AA is run (round eleven reads it once, at its end). Round nine's script
(`changes27_folds.collect`) writes each fold's score and each story's closed and current
relations, for a base/branch diff. The sets are named here, not read from the bench's
list, so the base's source (whose list lacks AA) runs the same sets.
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
HELD = "changes_heldout10.json"
SHIPPED = ("changes.json", "changes_chat.json") + tuple(
    f"changes_heldout{n}.json" for n in ("", 2, 3, 4, 5, 6, 7, 8, 9)
)
TUNES = (*_round9.TUNES, "changes28_tune", "changes29_tune")


def main() -> None:
    out, held = Path(sys.argv[1]), "--held" in sys.argv[2:]
    if held:
        paths = [_round9.DATA / HELD]
    else:
        paths = [_round9.DATA / name for name in SHIPPED]
        paths += [HERE / f"{name}.json" for name in TUNES if (HERE / f"{name}.json").exists()]
    _round9.collect(paths, out)


if __name__ == "__main__":
    main()

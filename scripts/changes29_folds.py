"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes29_folds.py OUT.json [--held]. Without
``--held`` every shipped set but round eleven's held-out fold AA (changes_heldout10.json)
is run, folds A to Z, with the tune sets T to Y, ZT and AT, so tuning never reads AA;
with it, only AA is run (round eleven reads it once, at its end). Round ten's script
(`changes28_folds.main`) runs them with this round's sets named here, not read from the
bench's list, so the base's source (whose list lacks AA) runs the same sets.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("round10", HERE / "changes28_folds.py")
assert _spec is not None and _spec.loader is not None
_round10 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round10)


if __name__ == "__main__":
    _round10.main(
        "changes_heldout10.json",
        (*_round10.SHIPPED, _round10.HELD),
        (*_round10.TUNES, "changes29_tune"),
    )

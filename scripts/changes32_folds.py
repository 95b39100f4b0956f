"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes32_folds.py OUT.json [--held]. Without
``--held`` every shipped set but round fourteen's held-out fold AD (changes_heldout13.json)
is run, folds A to AC, with the tune sets T to Y, ZT and AT, so the round never reads AD
while it changes rules; with it, only AD is run (read once, at the round's end). Round
ten's script (`changes28_folds.main`) runs them; the sets are named here, so the base's
source (whose list lacks AD) runs the same sets.
"""

from __future__ import annotations

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUND10 = runpy.run_path(str(HERE / "changes28_folds.py"))

if __name__ == "__main__":
    ROUND10["main"](
        "changes_heldout13.json",
        (*ROUND10["SHIPPED"], ROUND10["HELD"], "changes_heldout10.json",
         "changes_heldout11.json", "changes_heldout12.json"),
        (*ROUND10["TUNES"], "changes29_tune"),
    )  # fmt: skip

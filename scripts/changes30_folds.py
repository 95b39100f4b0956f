"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes30_folds.py OUT.json [--held]. Without
``--held`` every shipped set but round twelve's held-out fold AB (changes_heldout11.json)
is run, folds A to AA, with the tune sets T to Y, ZT and AT, so the round never reads AB
while it changes rules; with it, only AB is run (read once, at the round's end). Round
ten's script (`changes28_folds.main`) runs them; the sets are named here, so the base's
source (whose list lacks AB) runs the same sets.
"""

from __future__ import annotations

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUND10 = runpy.run_path(str(HERE / "changes28_folds.py"))

if __name__ == "__main__":
    ROUND10["main"](
        "changes_heldout11.json",
        (*ROUND10["SHIPPED"], ROUND10["HELD"], "changes_heldout10.json"),
        (*ROUND10["TUNES"], "changes29_tune"),
    )

"""Round fourteen's set (changes32): held-out fold AD.

A to Z, then AA, AT, AB and AC, name the earlier folds and tune sets, so round
fourteen's fresh held-out fold is AD. It holds changes said in passing in registers the
earlier folds used little (a runner's club, shoes and coach, a parent's care home and
carer, a florist's supplier, card reader and bookkeeper, a researcher's cluster and grant,
a podcaster's host, co-host and microphone, a choir, a translator, a boat's berth, a
diabetic's insulin and specialist), some telling old and new in one sentence, and
look-alikes. This round tunes on no new set: it reads the earlier folds' misses and reads
AD once at its end.

Drafted as a Python list (ad.py) in the directory given as the argument; round
thirteen's writer (`changes31_write_sets`, through round nine's `write`) shapes it,
checks it with the difflib nearness check (0.8 against every earlier set and tune set,
AC included) and writes it; only counts are printed. `--check` prints the counts and
writes nothing.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUND13 = runpy.run_path(str(HERE / "changes31_write_sets.py"))
ROUND12 = ROUND13["ROUND12"]
ROUND9 = ROUND13["ROUND9"]
HELD = ROUND9["DATA"] / "changes_heldout13.json"
# No tune set is written this round; the writer's second path is never written to.
UNUSED_TUNE = Path("/nonexistent/changes32_tune.json")


def main() -> None:
    ROUND9["write"](
        Path(sys.argv[1]), False, ("AD", "ADT"), (HELD, UNUSED_TUNE), ROUND12["TUNES"],
        (ABOUT_HELD, ""), check_only="--check" in sys.argv[2:],
    )  # fmt: skip


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-nine (changes32) before any rule of that round changed and "
    "read once at its end: fold AD, changes said in passing in registers earlier folds used "
    "little (a runner's club and coach, a parent's care home and carer, a florist's "
    "supplier and card reader, a researcher's cluster and grant, a podcaster, a choir, a "
    "translator, a boat's berth, a diabetic's insulin), some telling old and new in one "
    "sentence (swapped, replaced, moved from ... to, instead of, no more). 40 changes and 16 "
    "look-alikes that must close nothing (someone else's change, a swap considered or maybe "
    "next year, a question, a temporary cover, a trial rolled back, a second thing beside "
    "the first, a past thing remembered, a complaint, a proposal, a hypothetical)."
)

if __name__ == "__main__":
    main()

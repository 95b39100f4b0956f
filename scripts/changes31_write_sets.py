"""Round thirteen's set (changes31): held-out fold AC.

A to Z, then AA, AT and AB, name the earlier folds and tune sets, so round thirteen's
fresh held-out fold is AC. It holds changes said in passing, as people tell an agent about
their lives and work in registers the earlier folds used little (a nurse's shifts and
ward, a landlord and a caretaker, a student's major, courses and supervisor, a
freelancer's clients and rate, a gardener, a musician, a chef, a farmer, a photographer),
and look-alikes. This round tunes on no new set: it reads the earlier folds' misses by
stage and reads AC once at its end.

Drafted as a Python list (ac.py) in the directory given as the argument; round twelve's
writer (`changes30_write_sets`, through round nine's `write`) shapes it, checks it with
the difflib nearness check (0.8 against every earlier set and tune set, AB included) and
writes it; only counts are printed. `--check` prints the counts and writes nothing.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUND12 = runpy.run_path(str(HERE / "changes30_write_sets.py"))
ROUND9 = ROUND12["ROUND9"]
HELD = ROUND9["DATA"] / "changes_heldout12.json"
# No tune set is written this round; the writer's second path is never written to.
UNUSED_TUNE = Path("/nonexistent/changes31_tune.json")


def main() -> None:
    ROUND9["write"](
        Path(sys.argv[1]), False, ("AC", "ACT"), (HELD, UNUSED_TUNE), ROUND12["TUNES"],
        (ABOUT_HELD, ""), check_only="--check" in sys.argv[2:],
    )  # fmt: skip


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-seven (changes31) before any rule of that round changed and "
    "read once at its end: fold AC, changes said in passing as people tell an agent about "
    "their lives and work in registers earlier folds used little (a nurse's shifts and ward, "
    "a landlord, a student's major and supervisor, a freelancer's clients and rate, a "
    "gardener, a musician, a chef, a farmer, a photographer). 40 changes and 16 look-alikes "
    "that must close nothing (someone else's change, a plan or question not taken, a "
    "one-off, a temporary cover, a trial rolled back, a second thing beside the first, a "
    "past thing remembered)."
)

if __name__ == "__main__":
    main()

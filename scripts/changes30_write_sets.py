"""Round twelve's set (changes30): held-out fold AB.

A to Z, then AA and AT, name the earlier folds and tune sets, so round twelve's fresh
held-out fold is AB. It holds changes said in passing, as people tell an agent about their
lives and work (jobs, homes, tools, plans, people, prices, schedules), and look-alikes.
This round tunes on no new set: it reads the earlier folds' misses by stage (see
docs/benchmarks.md, "changes30") and reads AB once at its end.

Drafted as a Python list (ab.py) in the directory given as the argument; the JSON written
is the record. Round nine's writer (`changes27_write_sets.write`) shapes it, checks it with
the difflib nearness check (0.8 against every earlier set and tune set) and writes it;
only counts are printed. `--check` prints the counts and writes nothing.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUND9 = runpy.run_path(str(HERE / "changes27_write_sets.py"))
HELD = ROUND9["DATA"] / "changes_heldout11.json"
# No tune set is written this round; the writer's second path is never written to.
UNUSED_TUNE = Path("/nonexistent/changes30_tune.json")
TUNES = ("23_tune", "24_tune", "25_tune", "25_check", "26_tune", "27_tune", "28_tune",
         "29_tune")  # fmt: skip


def main() -> None:
    ROUND9["write"](
        Path(sys.argv[1]), False, ("AB", "ABT"), (HELD, UNUSED_TUNE), TUNES,
        (ABOUT_HELD, ""), check_only="--check" in sys.argv[2:],
    )  # fmt: skip


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-six (changes30) before any rule of that round changed and "
    "read once at its end: fold AB, changes said in passing as people tell an agent about "
    "their lives and work (jobs, homes, tools, plans, people, prices, schedules), in varied "
    "phrasing (a reason, a complaint, a new thing named without the old, a role passed on, "
    "an amount or a day that moves). 40 changes and 16 look-alikes that must close nothing "
    "(someone else's change, a plan or question not taken, a one-off, a temporary cover, a "
    "trial rolled back, a second thing beside the first)."
)

if __name__ == "__main__":
    main()

"""Round eleven's sets (changes29): held-out fold AA, then its tune set AT.

The letters A to Z name earlier folds and tune sets (Z was round ten's held-out fold, ZT its
tune set), so round eleven's fresh held-out fold is AA and its tune set AT. AA holds changes
said in passing inside longer turns and mined chats: a change in a subordinate clause,
after a complaint, with a reason, as a correction ("actually I report to X now"), numbers
and dates that move; and look-alikes.

Drafted as Python lists (aa.py; at.py for the tune set, written after AA was committed and
run with `--tune`) in the directory given as the argument; the JSON written is the record.
Round ten's script (`changes28_write_sets.main`, round nine's writer) shapes them,
checks them with the difflib nearness check (0.8 against every earlier set and tune set,
AA included for AT) and writes them; only counts are printed, so no held-out row is
shown. `--check` prints the counts and writes nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("round10", HERE / "changes28_write_sets.py")
assert _spec is not None and _spec.loader is not None
_round10 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round10)
HELD = _round10.HELD.parent / "changes_heldout10.json"
TUNE = HERE / "changes29_tune.json"
TUNES = (*_round10.TUNES, "28_tune")


def main() -> None:
    _round10.main(("AA", "AT"), (HELD, TUNE), TUNES, (ABOUT_HELD, ABOUT_TUNE))


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-five (changes29) before any rule of that round changed and "
    "read once at its end: fold AA, changes said in passing inside longer turns and mined "
    "chat turns ('user: ...'): a change in a subordinate clause, after a complaint, with a "
    "reason, as a correction, numbers and dates that move, in a person's chat and a team's "
    "notes. 40 changes and 16 look-alikes that must close nothing (someone else's value, a "
    "trial rolled back, a one-off, a plan not taken, a question, a temporary cover, a "
    "complaint about the held thing, a second thing beside the first)."
)
ABOUT_TUNE = (
    "Round eleven's tune set (changes29, fold AT): changes said in passing (after a "
    "complaint, with a reason, in a subordinate clause, as a correction, an amount or a date "
    "that moves, a hand-over said as 'went to'), in wording of its own, and look-alikes. "
    "Tuned on; never a held-out fold."
)

if __name__ == "__main__":
    main()

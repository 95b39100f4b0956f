"""Round ten's sets (changes28): held-out fold Z, then its tune set ZT.

The lead's brief calls the fresh fold "T"; the letters T to Y already name the tune sets of
rounds five to nine (changes23_tune.json is fold T), and the fold scripts key their results
by fold, so the fresh held-out fold is Z and its tune set ZT.

Drafted as Python lists (z.py; zt.py for the tune set, written after Z was committed and
run with `--tune`) in the directory given as the argument; the JSON written is the
record. Round nine's script (`changes27_write_sets.write`) shapes them, checks them with
the difflib nearness check (0.8 against every earlier set and tune set, Z included for
ZT) and writes them; only counts are printed, so no held-out row is shown. `--check`
prints the counts and writes nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("round9", HERE / "changes27_write_sets.py")
assert _spec is not None and _spec.loader is not None
_round9 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round9)
HELD = _round9.DATA / "changes_heldout9.json"
TUNE = HERE / "changes28_tune.json"
TUNES = ("23_tune", "24_tune", "25_tune", "25_check", "26_tune", "27_tune")


def main(
    folds: tuple[str, str] = ("Z", "ZT"),
    paths: tuple[Path, Path] = (HELD, TUNE),
    tunes: tuple[str, ...] = TUNES,
    about: tuple[str, str] | None = None,
) -> None:
    """Write this round's sets; later rounds call it with their own folds, paths, tune
    sets and descriptions."""
    flags = sys.argv[2:]
    _round9.write(
        Path(sys.argv[1]), "--tune" in flags, folds, paths, tunes,
        about or (ABOUT_HELD, ABOUT_TUNE), check_only="--check" in flags,
    )  # fmt: skip


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-four (changes28) before any rule of that round changed and "
    "read once at its end: fold Z, changes said plainly in a person's chat (a bank, a "
    "physio, a flat, a car, a phone network, a job, a partner, a school), a team's notes "
    "(tools and vendors, owners, limits, versions, meeting days, an office) and one-message "
    "turns to a chat proxy ('user: ...'), each first statement stating the held value "
    "plainly with a verb of its own. 40 changes and 16 look-alikes that must close nothing "
    "(a second thing beside the first, a plan not taken, a question, someone else's value, "
    "a temporary cover, a trial rolled back, a trip, a one-off, a proposal)."
)
ABOUT_TUNE = (
    "Round ten's tune set (changes28, fold ZT): round nine's leftovers reworded (a hand-over "
    "and 'X is on call now' in one slot, first statements with verbs the rules did not read, "
    "another person's value behind an adjective), and look-alikes. Tuned on; never a "
    "held-out fold."
)

if __name__ == "__main__":
    main()

"""Round ten's sets (changes28): held-out fold Z, then its tune set ZT.

The lead's brief calls the fresh fold "T"; the letters T to Y already name the tune sets of
rounds five to nine (changes23_tune.json is fold T), and the fold scripts key their results
by fold, so the fresh held-out fold is Z and its tune set ZT.

Drafted as Python lists (z.py; zt.py for the tune set, written after Z was committed and
run with `--tune`) in the directory given as the argument; the JSON written is the
record. Round eight's script supplies the shaping, the difflib nearness check (0.8
against every earlier set and tune set, Z included for ZT) and the writer; only counts
are printed, so no held-out row is shown.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("round8", HERE / "changes26_write_sets.py")
assert _spec is not None and _spec.loader is not None
_round8 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round8)
stories, near, _write, _statements = (
    _round8.stories, _round8.near, _round8._write, _round8._statements
)  # fmt: skip
DATA = _round8.DATA
HELD = DATA / "changes_heldout9.json"
TUNE = HERE / "changes28_tune.json"


def main() -> None:
    src = Path(sys.argv[1])
    tune_only = "--tune" in sys.argv[2:]
    fold = "ZT" if tune_only else "Z"
    scope: dict[str, Any] = {}
    exec((src / f"{fold.lower()}.py").read_text(), scope)
    earlier_paths = [p for p in sorted(DATA.glob("changes*.json")) if p.name not in
                     (HELD.name, "changes_questions.json")]  # fmt: skip
    tunes = ("23_tune", "24_tune", "25_tune", "25_check", "26_tune", "27_tune")
    earlier_paths += [HERE / f"changes{n}.json" for n in tunes]
    checks = {"an earlier set": [s for path in earlier_paths for s in _statements(path)]}
    if tune_only:
        checks["Z"] = _statements(HELD)
    rows = stories(fold, scope[f"{fold}_CHANGE"], scope[f"{fold}_KEEP"])
    text = [s for r in rows for s in r["statements"]]
    for name, earlier in checks.items():
        print(f"{fold} statements near {name}:", near(text, earlier))
    kinds = Counter(r["kind"] for r in rows)
    print(fold, kinds["change"], "changes,", kinds["keep"], "keeps")
    if "--check" not in sys.argv[2:]:
        _write(TUNE if tune_only else HELD, ABOUT_TUNE if tune_only else ABOUT_HELD, rows)


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

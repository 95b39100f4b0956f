"""Write round eight's held-out folds Q and R and its tune set X (changes26).

The stories were drafted as Python lists (q.py and r.py, and later x.py for the tune
set, in the directory given as the argument; the JSON written is the record). This
script shapes them as `engram bench changes` reads them and checks them against every
earlier set (no statement within 0.8 of an earlier one, by difflib), printing counts
only so the held-out rows are never shown. The tune set was written after Q and R were
committed (`--tune`): it is checked against them as against every earlier set.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "src" / "engram" / "data"
HELD = DATA / "changes_heldout7.json"
TUNE = HERE / "changes26_tune.json"
# Round five's script shapes the stories and measures nearness: used as it is.
_spec = importlib.util.spec_from_file_location(
    "changes23_write_sets", HERE / "changes23_write_sets.py"
)
assert _spec is not None and _spec.loader is not None
_round5 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round5)
stories = _round5.stories
near = _round5.near
# Round six's script writes a set as every round's does: used as it is.
_spec6 = importlib.util.spec_from_file_location(
    "changes24_write_sets", HERE / "changes24_write_sets.py"
)
assert _spec6 is not None and _spec6.loader is not None
_round6 = importlib.util.module_from_spec(_spec6)
_spec6.loader.exec_module(_round6)
_write = _round6._write


def _statements(path: Path) -> list[str]:
    return [s for story in json.loads(path.read_text())["stories"] for s in story["statements"]]


def main() -> None:
    src = Path(sys.argv[1])
    tune_only = "--tune" in sys.argv[2:]
    scope: dict[str, Any] = {}
    for name in ("x.py",) if tune_only else ("q.py", "r.py"):
        exec((src / name).read_text(), scope)
    earlier_paths = [p for p in sorted(DATA.glob("changes*.json")) if p.name not in
                     (HELD.name, "changes_questions.json")]  # fmt: skip
    earlier_paths += [HERE / f"changes{n}.json" for n in
                      ("23_tune", "24_tune", "25_tune", "25_check")]  # fmt: skip
    earlier = [s for path in earlier_paths for s in _statements(path)]
    if tune_only:
        tune = stories("X", scope["X_CHANGE"], scope["X_KEEP"])
        text = [s for r in tune for s in r["statements"]]
        print("tune statements near an earlier set:", near(text, earlier))
        print("tune statements near Q or R:", near(text, _statements(HELD)))
        kinds = Counter(r["kind"] for r in tune)
        print("X", kinds["change"], "changes,", kinds["keep"], "keeps")
        _write(TUNE, ABOUT_TUNE, tune)
        return
    held = stories("Q", scope["Q_CHANGE"], scope["Q_KEEP"])
    held += stories("R", scope["R_CHANGE"], scope["R_KEEP"])
    text = [s for r in held for s in r["statements"]]
    print("held-out statements near an earlier set:", near(text, earlier))
    for fold in "QR":
        kinds = Counter(r["kind"] for r in held if r["fold"] == fold)
        print(fold, kinds["change"], "changes,", kinds["keep"], "keeps")
    _write(HELD, ABOUT_HELD, held)


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-three (changes26) before any rule of that round changed and "
    "read once at its end: fold Q, a personal assistant's chat (moves, jobs, partners, "
    "doctors, subscriptions, diets, payment cards; first statements with a verb of their own "
    "such as 'X took over ...' and 'we moved ... to ...'); fold R, an engineering team's "
    "standup and incident notes (owners and rotas, config values, versions, vendors and "
    "tools, days and times; subjectless decisions). 40 changes and 16 look-alikes each that "
    "must close nothing (a second value beside the first, a one-off, a proposal not taken, "
    "a question, someone else's value, a temporary cover, a plan for later)."
)
ABOUT_TUNE = (
    "Round eight's tune set (changes26, fold X): the look-alike kinds a rule must refuse "
    "(temporary cover, one-off, shadowing, a trial or evaluation, a plan for later, a "
    "question, another owner's value, a second value), first statements with a verb of "
    "their own, subjectless decisions in notes, payment cards. Tuned on; never a "
    "held-out fold."
)

if __name__ == "__main__":
    main()

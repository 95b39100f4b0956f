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


def _script(name: str) -> Any:
    """An earlier round's script in this directory, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Round five's script shapes the stories and measures nearness, round six's writes a set:
# used as they are.
stories = _script("changes23_write_sets").stories
near = _script("changes23_write_sets").near
_write = _script("changes24_write_sets")._write


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

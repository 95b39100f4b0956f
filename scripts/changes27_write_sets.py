"""Write round nine's held-out fold S and its tune set Y (changes27).

The stories were drafted as Python lists (s.py, and later y.py for the tune set, in the
directory given as the argument; the JSON written is the record). This script shapes
them as `engram bench changes` reads them and checks them against every earlier set (no
statement within 0.8 of an earlier one, by difflib: round five's check), printing counts
only so the held-out rows are never shown. The tune set was written after S was
committed (`--tune`): it is checked against S as against every earlier set.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "src" / "engram" / "data"
HELD = DATA / "changes_heldout8.json"
TUNE = HERE / "changes27_tune.json"


def _script(name: str) -> Any:
    """An earlier round's script in this directory, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Round five's script shapes the stories and measures nearness, round six's writes a set.
stories = _script("changes23_write_sets").stories
near = _script("changes23_write_sets").near
_write = _script("changes24_write_sets")._write
_statements = _script("changes26_write_sets")._statements


def main() -> None:
    src = Path(sys.argv[1])
    tune_only = "--tune" in sys.argv[2:]
    scope: dict[str, Any] = {}
    exec((src / ("y.py" if tune_only else "s.py")).read_text(), scope)
    earlier_paths = [p for p in sorted(DATA.glob("changes*.json")) if p.name not in
                     (HELD.name, "changes_questions.json")]  # fmt: skip
    earlier_paths += [HERE / f"changes{n}.json" for n in
                      ("23_tune", "24_tune", "25_tune", "25_check", "26_tune")]  # fmt: skip
    earlier = [s for path in earlier_paths for s in _statements(path)]
    if tune_only:
        tune = stories("Y", scope["Y_CHANGE"], scope["Y_KEEP"])
        text = [s for r in tune for s in r["statements"]]
        print("tune statements near an earlier set:", near(text, earlier))
        print("tune statements near S:", near(text, _statements(HELD)))
        kinds = Counter(r["kind"] for r in tune)
        print("Y", kinds["change"], "changes,", kinds["keep"], "keeps")
        _write(TUNE, ABOUT_TUNE, tune)
        return
    held = stories("S", scope["S_CHANGE"], scope["S_KEEP"])
    text = [s for r in held for s in r["statements"]]
    print("held-out statements near an earlier set:", near(text, earlier))
    kinds = Counter(r["kind"] for r in held)
    print("S", kinds["change"], "changes,", kinds["keep"], "keeps")
    _write(HELD, ABOUT_HELD, held)


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-three (changes27) before any rule of that round changed and "
    "read once at its end: fold S, changes said the plain ways people say them (migrated, "
    "moved or switched from A to B, sold A and bought B, replaced A with B, A is gone and "
    "we use B, handed to, took over, is X now) in chat, notes and one-message turns; each "
    "first statement states the held value plainly. 40 changes and 16 look-alikes that "
    "must close nothing (a second thing beside the first, a plan not done, a question, "
    "someone else's, a comparison, a temporary cover, a trial rolled back)."
)
ABOUT_TUNE = (
    "Round nine's tune set (changes27, fold Y): plain change verbs (migrated, moved, "
    "switched, sold and bought, replaced, handed to, took over, is X now), first statements "
    "that record nothing on the base (a couple, a firm that handles something, an agreed "
    "host, 'orchestrated with', 'runs on'), and look-alikes. Tuned on; never a held-out fold."
)

if __name__ == "__main__":
    main()

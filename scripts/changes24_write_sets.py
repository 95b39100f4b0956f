"""Write round six's held-out folds O and P and its tune set U (changes24).

The stories were drafted as three Python lists (o.py, p.py, u.py in the directory given
as the argument; the JSON written is the record); this script only
shapes them as `engram bench changes` reads them and checks them against every earlier
set (no statement within 0.8 of an earlier one, by difflib), printing counts only so the
held-out rows are never shown.
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
# Round five's script shapes the stories and measures nearness: used as it is.
_spec = importlib.util.spec_from_file_location(
    "changes23_write_sets", HERE / "changes23_write_sets.py"
)
assert _spec is not None and _spec.loader is not None
_round5 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round5)
stories = _round5.stories
near = _round5.near


def main() -> None:
    src = Path(sys.argv[1])
    scope: dict[str, Any] = {}
    for name in ("o.py", "p.py", "u.py"):
        exec((src / name).read_text(), scope)
    earlier = [
        s
        for path in sorted(DATA.glob("changes*.json"))
        if path.name not in ("changes_heldout6.json", "changes_questions.json")
        for story in json.loads(path.read_text())["stories"]
        for s in story["statements"]
    ]
    tune23 = HERE / "changes23_tune.json"
    earlier += [
        s for story in json.loads(tune23.read_text())["stories"] for s in story["statements"]
    ]
    held = stories("O", scope["O_CHANGE"], scope["O_KEEP"])
    held += stories("P", scope["P_CHANGE"], scope["P_KEEP"])
    tune = stories("U", scope["U_CHANGE"], scope["U_KEEP"])
    statements = {name: [s for r in rows for s in r["statements"]] for name, rows in
                  (("held", held), ("tune", tune))}  # fmt: skip
    print("held-out statements near an earlier set:", near(statements["held"], earlier))
    print("held-out statements near the tune set:", near(statements["held"], statements["tune"]))
    for fold in "OPU":
        kinds = Counter(r["kind"] for r in held + tune if r["fold"] == fold)
        print(fold, kinds["change"], "changes,", kinds["keep"], "keeps")
    _write(DATA / "changes_heldout6.json", ABOUT_HELD, held)
    _write(HERE / "changes24_tune.json", ABOUT_TUNE, tune)


def _write(path: Path, about: str, rows: list[dict[str, Any]]) -> None:
    text = json.dumps({"about": about, "stories": rows}, indent=1, ensure_ascii=False)
    path.write_text(text + "\n")


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-two (changes24) before any rule of that round changed and read "
    "once at its end: fold O, chat typed to an assistant (lower case, 'fyi', 'lol', emoji, "
    "'bumped ... to', 'X -> Y'); fold P, notes, changelog and ticket lines ('Key: value.', "
    "'X → Y', 'raised to', 'from X to Y', 'now', ticket ids). Each change's first statement "
    "states one slot value plainly (a config value, an owner or person in a role, a version, "
    "a vendor or tool, a place, a day); the second says the new value the way notes and chat "
    "say it. 52 changes and 14 look-alikes each that must close nothing (another owner's "
    "value, a second value held beside the first, a one-off, a question, a proposal or an "
    "evaluation not taken, someone shadowing or helping)."
)
ABOUT_TUNE = (
    "Round six's tune set (changes24, fold U): first statements that name one slot value "
    "('The gateway timeout is 60s.', 'Priya is on call this week.', 'We run Postgres 14.') "
    "and changes in notes form (arrows, 'raised to', 'bumped', 'X→Y', 'from X to Y', 'now'), "
    "and look-alikes. Tuned on; never a held-out fold."
)

if __name__ == "__main__":
    main()

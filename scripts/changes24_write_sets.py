"""Write round six's held-out folds O and P and its tune set U (changes24).

The stories were drafted as three Python lists (o.py, p.py, u.py in the directory given
as the argument; the JSON written is the record); this script only
shapes them as `engram bench changes` reads them and checks them against every earlier
set (no statement within 0.8 of an earlier one, by difflib), printing counts only so the
held-out rows are never shown.
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "src" / "engram" / "data"


def stories(fold: str, changes: list[Any], keeps: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, (statements, old, new) in enumerate(changes, 1):
        out.append(
            {
                "id": f"{fold}-change-{n:02d}",
                "fold": fold,
                "kind": "change",
                "statements": statements,
                "old": old,
                "new": new,
            }
        )
    for n, statements in enumerate(keeps, 1):
        out.append(
            {"id": f"{fold}-keep-{n:02d}", "fold": fold, "kind": "keep", "statements": statements}
        )
    return out


def near(statements: list[str], earlier: list[str]) -> int:
    """How many statements are within 0.8 of an earlier set's statement."""
    count = 0
    for s in statements:
        low = s.lower()
        for e in earlier:
            m = difflib.SequenceMatcher(None, low, e.lower())
            if m.real_quick_ratio() >= 0.8 and m.quick_ratio() >= 0.8 and m.ratio() >= 0.8:
                count += 1
                break
    return count


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
    tune23 = Path(__file__).resolve().parent / "changes23_tune.json"
    earlier += [
        s for story in json.loads(tune23.read_text())["stories"] for s in story["statements"]
    ]
    held = stories("O", scope["O_CHANGE"], scope["O_KEEP"])
    held += stories("P", scope["P_CHANGE"], scope["P_KEEP"])
    tune = stories("U", scope["U_CHANGE"], scope["U_KEEP"])
    held_text = [s for story in held for s in story["statements"]]
    tune_text = [s for story in tune for s in story["statements"]]
    print("held-out statements near an earlier set:", near(held_text, earlier))
    print("held-out statements near the tune set:", near(held_text, tune_text))
    for fold in "OPU":
        rows = [s for s in held + tune if s["fold"] == fold]
        print(
            fold,
            sum(r["kind"] == "change" for r in rows),
            "changes,",
            sum(r["kind"] == "keep" for r in rows),
            "keeps",
        )
    (DATA / "changes_heldout6.json").write_text(
        json.dumps({"about": ABOUT_HELD, "stories": held}, indent=1, ensure_ascii=False) + "\n"
    )
    (Path(__file__).resolve().parent / "changes24_tune.json").write_text(
        json.dumps({"about": ABOUT_TUNE, "stories": tune}, indent=1, ensure_ascii=False) + "\n"
    )


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

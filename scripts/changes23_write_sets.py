"""Write round five's held-out folds M and N and its tune set T (changes23).

The stories were drafted as three Python lists (m.py, n.py, t.py in the directory given
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
    for name in ("m.py", "n.py", "t.py"):
        exec((src / name).read_text(), scope)
    earlier = [
        s
        for path in sorted(DATA.glob("changes*.json"))
        if path.name not in ("changes_heldout5.json", "changes_questions.json")
        for story in json.loads(path.read_text())["stories"]
        for s in story["statements"]
    ]
    held = stories("M", scope["M_CHANGE"], scope["M_KEEP"])
    held += stories("N", scope["N_CHANGE"], scope["N_KEEP"])
    tune = stories("T", scope["T_CHANGE"], scope["T_KEEP"])
    held_text = [s for story in held for s in story["statements"]]
    tune_text = [s for story in tune for s in story["statements"]]
    print("held-out statements near an earlier set:", near(held_text, earlier))
    print("held-out statements near the tune set:", near(held_text, tune_text))
    for fold in "MNT":
        rows = [s for s in held + tune if s["fold"] == fold]
        print(
            fold,
            sum(r["kind"] == "change" for r in rows),
            "changes,",
            sum(r["kind"] == "keep" for r in rows),
            "keeps",
        )
    (DATA / "changes_heldout5.json").write_text(
        json.dumps({"about": ABOUT_HELD, "stories": held}, indent=1, ensure_ascii=False) + "\n"
    )
    (Path(__file__).resolve().parent / "changes23_tune.json").write_text(
        json.dumps({"about": ABOUT_TUNE, "stories": tune}, indent=1, ensure_ascii=False) + "\n"
    )


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-one (changes23) before any rule of that round changed and not "
    "read while tuning: fold M, chat typed to an assistant (lower case, lead-ins, 'fyi', "
    "'finally killed X'); fold N, third-person notes and changelog lines. Both hold role and "
    "owner changes ('X took over as lead from Y', 'Y handed the team to X', 'reassigned: "
    "Y -> X'), schedule and config values (times, crons, timeouts, limits, sizes, versions), "
    "tool and vendor switches, people and places; and 14 look-alikes each that must close "
    "nothing (a second value held beside the first, another owner's value, a one-off run, "
    "a question, a hypothetical, a rejected switch, 'took over the review from me')."
)
ABOUT_TUNE = (
    "Round five's tune set (changes23, fold T): the two changes the round-fourteen dogfood "
    "chat left open (a team lead said to be 'no longer' the old one, a cron moved) in that "
    "chat's words and in other words, schedule and config values, role hand-overs, and "
    "look-alikes. Tuned on; never a held-out fold."
)

if __name__ == "__main__":
    main()

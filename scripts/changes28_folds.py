"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes28_folds.py OUT.json [--held]. Without
``--held`` every shipped set but round ten's held-out fold Z (changes_heldout9.json) is
run, folds A to S, with the tune sets T to Y and ZT, so tuning never reads Z; with it,
only Z is run (round ten reads it once, at its end). The JSON holds each fold's score and
each story's closed and current relations, for a base/branch diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engram.bench import changes
from engram.config import Config

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "src" / "engram" / "data"
HELD = "changes_heldout9.json"
SHIPPED = tuple(f"changes{n}.json" for n in ("", "_chat")) + tuple(
    f"changes_heldout{n}.json" for n in ("", 2, 3, 4, 5, 6, 7, 8)
)
TUNES = ("changes23_tune", "changes24_tune", "changes25_tune", "changes25_check",
         "changes26_tune", "changes27_tune", "changes28_tune")  # fmt: skip
KEPT = ("closed_correctly", "closed_wrongly", "closed", "current")


def main() -> None:
    out, held = Path(sys.argv[1]), "--held" in sys.argv[2:]
    if held:
        paths = [DATA / HELD]
    else:
        paths = [DATA / name for name in SHIPPED]
        paths += [HERE / f"{name}.json" for name in TUNES if (HERE / f"{name}.json").exists()]
    folds: dict[str, object] = {}
    stories: dict[str, object] = {}
    for path in paths:
        result = changes.run(Config(), path)
        folds.update(result["folds"])
        for row in result["stories"]:
            stories[row["id"]] = {k: row[k] for k in KEPT}
    out.write_text(json.dumps({"folds": folds, "stories": stories}, indent=1) + "\n")


if __name__ == "__main__":
    main()

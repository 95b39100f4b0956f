"""Run `engram bench changes` over the shipped sets and the tune sets, story by story.

Usage: PYTHONPATH=<src> python scripts/changes27_folds.py OUT.json [--held]. Without
``--held`` the held-out fold S (changes_heldout8.json) is left out, so tuning never reads
it; with it, only S is run (round nine reads it once, at its end). The JSON holds each
fold's score and each story's closed and current relations, for a base/branch diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engram.bench import changes
from engram.config import Config

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "src" / "engram" / "data"
TUNES = ("changes23_tune", "changes24_tune", "changes25_tune", "changes25_check",
         "changes26_tune", "changes27_tune")  # fmt: skip
KEPT = ("closed_correctly", "closed_wrongly", "closed", "current")


def main() -> None:
    out, held = Path(sys.argv[1]), "--held" in sys.argv[2:]
    if held:
        paths = [DATA / "changes_heldout8.json"]
    else:
        paths = [DATA / name for name in changes.SHIPPED if name != "changes_heldout8.json"]
        paths += [HERE / f"{name}.json" for name in TUNES]
    collect(paths, out)


def collect(paths: list[Path], out: Path) -> None:
    """Run each set and write every fold's score and each story's relations to ``out``."""
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

"""Round eleven's probe: new-user pass seventeen's 12 changes as people say them
(docs/benchmarks.md "2026-12-01, round seventeen", row 3; 7 closed, 5 left both open).

A probe, not a tune set: read to see whether the round's rules, tuned on fold AT and
folds A to Z, carry to what a user said. Each change is told as a story through
`engram bench changes`' path (`bench.changes.run`, offline rules, one namespace each)
and printed with what closed and what holds.

Usage: PYTHONPATH=<src> python scripts/changes29_probe.py
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
from pathlib import Path

from engram.bench import changes
from engram.config import Config

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("stale26", HERE / "stale26_measure.py")
assert _spec is not None and _spec.loader is not None
_stale26 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_stale26)
# (old statement, the change as said, old value, new value), pass seventeen's wording, as
# round stale26's script holds them.
CHANGES = _stale26.CHANGES


def main() -> None:
    stories = [
        {"id": f"P17-change-{n:02d}", "fold": "P17", "kind": "change",
         "statements": [old, new], "old": [was], "new": now}
        for n, (old, new, was, now) in enumerate(CHANGES, 1)
    ]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "probe.json"
        path.write_text(json.dumps({"stories": stories}))
        result = changes.run(Config(), path)
    for row in result["stories"]:
        mark = "closed" if row["closed_correctly"] else "open  "
        print(mark, row["id"], "closed:", row["closed"], "holds:", row["current"])
    fold = result["folds"]["P17"]
    print(f"{fold['closed_correctly']} of {fold['changes']} closed")


if __name__ == "__main__":
    main()

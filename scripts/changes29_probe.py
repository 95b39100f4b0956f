"""Round eleven's probe: new-user pass seventeen's 12 changes as people say them
(docs/benchmarks.md "2026-12-01, round seventeen", row 3; 7 closed, 5 left both open).

A probe, not a tune set: read to see whether the round's rules, tuned on fold AT and
folds A to Z, carry to what a user said. Each change is told as a story through
`engram bench changes`' path (`bench.changes.run`, offline rules, one namespace each)
and printed with what closed and what holds.

Usage: PYTHONPATH=<src> python scripts/changes29_probe.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from engram.bench import changes
from engram.config import Config

# (old statement, the change as said, old value, new value), pass seventeen's wording.
CHANGES = [
    ("I live in Rotterdam, near the Erasmus bridge.",
     "We've just moved to Haarlem, the new place is much quieter.", "Rotterdam", "Haarlem"),
    ("I work at Philips as a product designer.", "Started my new job at ASML this week!",
     "Philips", "ASML"),
    ("My phone is a Pixel 7.", "Dropped my Pixel in the canal, so I'm on an iPhone 15 now.",
     "Pixel", "iPhone"),
    ("Our team tracks tickets in Jira.", "We ditched Jira, everything is in Linear these days.",
     "Jira", "Linear"),
    ("My dentist is Dr. Bakker in the city centre.",
     "I switched dentists, I go to Dr. Okafor now.", "Bakker", "Okafor"),
    ("My gym is SportCity on the Weena.",
     "I gave up SportCity; these days I climb at Klimhal Noord.", "SportCity", "Klimhal"),
    ("The production database is MySQL 5.7.",
     "Prod finally runs on Postgres 16 after last weekend's migration.", "MySQL", "Postgres"),
    ("My manager is Pieter.", "Pieter moved to another team, so I report to Fatima now.",
     "Pieter", "Fatima"),
    ("I drive to the office every day.", "These days I cycle to the office, the car is sold.",
     "drive", "cycle"),
    ("My daughter Lotte goes to De Regenboog primary school.",
     "Lotte changed schools; she's at the Montessori school on the Laan now.",
     "Regenboog", "Montessori"),
    ("Our internet provider is KPN.",
     "We're with Odido for internet since the KPN contract ran out.", "KPN", "Odido"),
    ("My favourite editor is Sublime Text.", "Honestly I use Zed for everything now.",
     "Sublime", "Zed"),
]  # fmt: skip


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

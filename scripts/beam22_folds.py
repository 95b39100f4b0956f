"""Issue 24, task beam22: a BEAM bench run's per-question JSON as R@5/10/20 per ability
and fold (chats 1-5 = A, 6-10 = B), the table docs/benchmarks.md shows. Usage:

    python scripts/beam22_folds.py RESULTS.json [OTHER.json]   # two: before -> after
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

Table = dict[str, dict[str, dict[str, float]]]


def folds(path: str) -> Table:
    """ability -> metric -> fold -> mean, over the questions with evidence."""
    rows = json.loads(Path(path).read_text(encoding="utf-8"))["questions"]
    sums: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for row in rows:
        fold = "A" if int(row["conversation"].rsplit("-", 1)[1]) <= 5 else "B"
        for metric in ("msg_r@5", "msg_r@10", "msg_r@20"):
            if metric in row["metrics"]:
                for ability in ("all (with evidence)", row["category"]):
                    sums[(ability, metric, fold)].append(row["metrics"][metric])
    out: Table = defaultdict(lambda: defaultdict(dict))
    for (ability, metric, fold), values in sums.items():
        out[ability][metric][fold] = sum(values) / len(values)
    return out


def main(paths: list[str]) -> None:
    tables = [folds(p) for p in paths]
    print("| ability | R@5 A / B | R@10 A / B | R@20 A / B |\n|---|---|---|---|")
    for ability in sorted(tables[0], key=lambda a: (not a.startswith("all"), a)):
        cells = []
        for metric in ("msg_r@5", "msg_r@10", "msg_r@20"):
            shown = [
                f"{t[ability][metric]['A']:.3f} / {t[ability][metric]['B']:.3f}" for t in tables
            ]
            cells.append(" → ".join(shown))
        print(f"| {ability} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])

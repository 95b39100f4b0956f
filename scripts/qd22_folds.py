"""issue 24 (Q1): a LoCoMo run's per-question JSON split into the two folds.

    python scripts/qd22_folds.py BASE/locomo.json NEW/locomo.json ...

Per fold (A = conv-26, conv-30, conv-41; B = conv-42, conv-43): session R@5 and turn
R@5 per category, overall session R@5, R@10 and NDCG@10, for each run given; the
first run is the reference, and each later one says which category's session or turn
R@5 fell by more than 0.01 on a fold.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

FOLD_A = frozenset({"conv-26", "conv-30", "conv-41"})
CATS = ("multi-hop", "open-domain", "single-hop", "temporal", "adversarial")
KEYS = ("session_r@5", "turn_r@5")


def summary(path: str) -> dict[str, dict[str, dict[str, float]]]:
    with open(path, encoding="utf-8") as f:
        rows = json.load(f)["questions"]
    groups: dict[tuple[str, str], list[dict[str, float]]] = defaultdict(list)
    for row in rows:
        fold = "A" if row["conversation"] in FOLD_A else "B"
        for cat in (row["category"], "all"):
            groups[(fold, cat)].append(row["metrics"])
            groups[("all5", cat)].append(row["metrics"])
    out: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    for (fold, cat), ms in groups.items():
        out[fold][cat] = {k: sum(m[k] for m in ms) / len(ms) for k in ms[0]}
    return out


def line(name: str, s: dict[str, dict[str, dict[str, float]]]) -> str:
    cells = [
        f"{c[:5]} "
        + " / ".join(f"{s[f][c]['session_r@5']:.3f}" for f in ("A", "B"))
        + " t "
        + " / ".join(f"{s[f][c]['turn_r@5']:.3f}" for f in ("A", "B"))
        for c in CATS
    ]
    every = s["all5"]
    cells.append(
        "all "
        + " / ".join(f"{s[f]['all']['session_r@5']:.3f}" for f in ("A", "B"))
        + f" | all5 s@5 {every['all']['session_r@5']:.4f} s@10 "
        f"{every['all']['session_r@10']:.4f} t@10 {every['all']['turn_r@10']:.4f} "
        f"ndcg {every['all']['session_ndcg@10']:.4f} mh {every['multi-hop']['session_r@5']:.4f}"
        f" od {every['open-domain']['session_r@5']:.4f}"
    )
    return f"{name}: " + " | ".join(cells)


def main() -> None:
    runs = [(p, summary(p)) for p in sys.argv[1:]]
    base = runs[0][1]
    for path, s in runs:
        lower = [
            f"{f}:{c[:5]}{k[0]}"
            for f in ("A", "B")
            for c in CATS
            for k in KEYS
            if s[f][c][k] < base[f][c][k] - 0.01
        ]
        up = [
            f"{f} mh {s[f]['multi-hop']['session_r@5'] - base[f]['multi-hop']['session_r@5']:+.3f}"
            for f in ("A", "B")
        ]
        print(line(path, s), "|", " ".join(up), "lower:", ",".join(lower) or "none")


if __name__ == "__main__":
    main()

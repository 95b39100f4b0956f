"""issue 24 (Q1): BEAM runs' per-question JSON split into chats 1-5 and 6-10.

    python scripts/qd22_beam_folds.py BASE/beam.json NEW/beam.json ...

msg R@10 per fold (and per ability with --abilities), each later run against the first.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def summary(path: str) -> dict[str, dict[str, float]]:
    with open(path, encoding="utf-8") as f:
        rows = json.load(f)["questions"]
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for row in rows:
        if "msg_r@10" not in row["metrics"]:
            continue  # abstention questions have no gold message
        chat = int(str(row["conversation"]).rsplit("-", 1)[1])
        fold = "1-5" if chat <= 5 else "6-10"
        for key in (row["category"], "all"):
            groups[(fold, key)].append(row["metrics"]["msg_r@10"])
    out: dict[str, dict[str, float]] = defaultdict(dict)
    for (fold, key), values in groups.items():
        out[fold][key] = sum(values) / len(values)
    return out


def main() -> None:
    paths = [p for p in sys.argv[1:] if not p.startswith("--")]
    runs = [(p, summary(p)) for p in paths]
    base = runs[0][1]
    for path, s in runs:
        cells = [
            f"{f} {s[f]['all']:.4f} ({s[f]['all'] - base[f]['all']:+.4f})" for f in ("1-5", "6-10")
        ]
        print(path, "R@10", " / ".join(cells))
        if "--abilities" in sys.argv:
            for f in ("1-5", "6-10"):
                moved = [
                    f"{k} {base[f][k]:.3f}->{v:.3f}"
                    for k, v in sorted(s[f].items())
                    if k != "all" and abs(v - base[f][k]) > 1e-9
                ]
                print("   ", f, "; ".join(moved) or "no ability moved")


if __name__ == "__main__":
    main()

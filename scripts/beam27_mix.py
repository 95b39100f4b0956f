"""Issue 24, task beam27 (C3): what a question-shape rule would score on BEAM dev, from two
whole ``engram bench beam`` runs: the variant run's results for the questions the rule
fires on (a regular expression over the question, and optionally the thread shape that
``recall/coverage.py`` reads: ``order``, ``summary``, ``total``, ``none`` for every other
question), the default run's for the rest; R@5 / R@10 / R@20 per ability and fold (A =
chats 1-5, B = 6-10), and the questions whose R@10 moved. Usage:

    PYTHONPATH=src python scripts/beam27_mix.py BASE.json VARIANT.json [REGEX [SHAPES]]
    # e.g. every question that is not a thread question, from a --set context_dense=0 run:
    PYTHONPATH=src python scripts/beam27_mix.py base/beam.json cd0/beam.json . none
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from engram.bench import beam
from engram.recall.coverage import shape

DATA = "../shared/bench/beam-100k"
METRICS = ("msg_r@5", "msg_r@10", "msg_r@20")


def main(base_path: str, variant_path: str, pattern: str = ".", shapes: str = "") -> None:
    texts = {q.id: q.text for c in beam.load(DATA).conversations for q in c.questions}
    base = {r["question_id"]: r for r in json.loads(Path(base_path).read_text())["questions"]}
    variant = {r["question_id"]: r for r in json.loads(Path(variant_path).read_text())["questions"]}
    rule = re.compile(pattern, re.IGNORECASE)
    wanted = set(shapes.split(",")) if shapes else None
    sums: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    fired: dict[str, int] = defaultdict(int)
    moved = []
    for qid, row in base.items():
        if not row["gold_turns"]:
            continue
        text = texts[qid]
        kind = str(shape(text) or "none")
        use = variant[qid] if rule.search(text) and (wanted is None or kind in wanted) else row
        if use is not row:
            fired[row["category"]] += 1
            if use["metrics"]["msg_r@10"] != row["metrics"]["msg_r@10"]:
                moved.append((qid, row["metrics"]["msg_r@10"], use["metrics"]["msg_r@10"]))
        fold = "A" if int(row["conversation"].rsplit("-", 1)[1]) <= 5 else "B"
        for ability in ("all (with evidence)", row["category"]):
            for metric in METRICS:
                sums[(ability, metric, fold)].append(use["metrics"][metric])

    def mean(ability: str, metric: str, fold: str) -> float:
        values = sums[(ability, metric, fold)]
        return sum(values) / len(values)

    print("| ability | R@5 A / B | R@10 A / B | R@20 A / B |\n|---|---|---|---|")
    for ability in sorted({k[0] for k in sums}, key=lambda a: (not a.startswith("all"), a)):
        cells = [f"{mean(ability, m, 'A'):.4f} / {mean(ability, m, 'B'):.4f}" for m in METRICS]
        print(f"| {ability} | " + " | ".join(cells) + " |")
    print(f"\nfires on (with evidence): {dict(fired)}")
    for qid, before, after in moved:
        print(f"  {qid}: R@10 {before:.3f} -> {after:.3f} | {texts[qid][:90]}")


if __name__ == "__main__":
    main(*sys.argv[1:])

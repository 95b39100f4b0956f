"""The ids recall returns for LoCoMo questions on a kept store, to compare two trees.

    PYTHONPATH=src python scripts/wand27_recall.py STORE.db OUT.json --locomo FILE [--queries 300]

Opens the store as ``engram bench scale --reuse`` does (``injection_mode="flag"``), waits
for its background index work, and writes each question's recalled ids and scores in
order; run it once per tree (``PYTHONPATH=src`` and ``PYTHONPATH=/work/base25/src``) on
the same copy and compare the two files (``--compare A B``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engram import Config, Memory
from engram.bench.scale import NAMESPACE, locomo_turns_and_questions
from engram.bench.scale_cold import wait_for_index


def compare(a: Path, b: Path) -> None:
    x, y = json.loads(a.read_text()), json.loads(b.read_text())
    same_ids = sum(1 for q in x if [i for i, _ in x[q]] == [i for i, _ in y[q]])
    same_sets = sum(1 for q in x if {i for i, _ in x[q]} == {i for i, _ in y[q]})
    print(json.dumps({"questions": len(x), "same_ids_in_order": same_ids, "same_sets": same_sets}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("store", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--locomo")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--compare", action="store_true", help="STORE and OUT are two outputs")
    args = parser.parse_args()
    if args.compare:
        compare(args.store, args.out)
        return
    _, questions = locomo_turns_and_questions(args.locomo)
    questions = list(dict.fromkeys(questions))
    asked = [questions[(300 + 20 + i) % len(questions)] for i in range(args.queries)]
    config = Config().with_overrides(injection_mode="flag")  # as `engram bench scale`
    found: dict[str, list[tuple[str, float]]] = {}
    with Memory(str(args.store), config=config) as mem:
        mem.recall(asked[0], namespace=NAMESPACE)
        wait_for_index(mem)
        for q in asked:
            hits = mem.recall(q, namespace=NAMESPACE)
            found[q] = [(h.id, round(float(h.score), 6)) for h in hits.hits]
    args.out.write_text(json.dumps(found))


if __name__ == "__main__":
    main()

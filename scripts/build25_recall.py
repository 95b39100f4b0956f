"""Recall's answers on two stores built by two versions of the add path (build25).

Each store (from ``scripts/write_equivalence.py``: the same composed texts added by the
old and the new code) gets the scale corpus's vectors for its memories (matched by
content), then the version's own code answers ``--questions`` LoCoMo questions with the
real embedder; the ids and scores are printed as JSON lines for ``--compare``.

    PYTHONPATH=OLD/src python scripts/build25_recall.py --store W/old/store.db --n 20000 > old.jsonl
    PYTHONPATH=src python scripts/build25_recall.py --store W/new/store.db --n 20000 > new.jsonl
    python scripts/build25_recall.py --compare old.jsonl new.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def answers(args: argparse.Namespace) -> None:
    from engram.bench.pg_scale import compose_corpus
    from engram.bench.scale import base_vectors, locomo_turns_and_questions
    from engram.config import Config
    from engram.memory import Memory
    from engram.store import ListQuery
    from engram.store.protocols import VectorRow

    config = Config.load(env={}).with_overrides(injection_mode="flag")
    turns, questions = locomo_turns_and_questions(args.data)
    base = base_vectors(config, turns, config.home_path / "bench-cache")
    texts, vectors = compose_corpus(turns, base, args.n)
    row = {text: i for i, text in enumerate(texts)}
    asked = list(dict.fromkeys(questions))[: args.questions]
    with Memory(args.store, config=config) as mem:
        assert mem.embedder is not None
        model = mem.embedder.name
        records = mem.store.memories.select("bench-scale", ListQuery(limit=args.n))
        mem.store.vectors.put(
            VectorRow(r.id, model, vectors[row[r.content]], r.content_hash) for r in records
        )
        for q in asked:
            got = mem.recall(q, namespace="bench-scale")
            hits = [(h.memory.content, round(float(h.score), 5)) for h in got.hits]
            print(json.dumps({"q": q, "hits": hits}))


def compare(old: str, new: str) -> None:
    a = [json.loads(line) for line in Path(old).read_text(encoding="utf-8").splitlines()]
    b = [json.loads(line) for line in Path(new).read_text(encoding="utf-8").splitlines()]
    pairs = list(zip(a, b, strict=True))
    same_ids = sum([h[0] for h in x["hits"]] == [h[0] for h in y["hits"]] for x, y in pairs)
    same = sum(x == y for x, y in pairs)
    print(json.dumps({"questions": len(a), "same_order": same_ids, "same_with_scores": same}))
    sys.exit(0 if same_ids == len(a) == len(b) else 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store")
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    parser.add_argument("--compare", nargs=2)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        answers(args)


if __name__ == "__main__":
    main()

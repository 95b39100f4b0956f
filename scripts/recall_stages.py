"""Recall's stage timings on a kept scale store, and every answer's ids and scores.

    PYTHONPATH=src python scripts/recall_stages.py STORE.db OUT.json --locomo FILE

Asks LoCoMo questions 20..220 of FILE (the first 20 warm the store up) in namespace
``bench-scale`` of a store ``engram bench scale`` kept, after background index work
(a snapshot's checksum, a save) has finished: that work competes for the two cores and
shows up in the Python-bound stages (docs/benchmarks.md, "Recall's fuse stage at
scale"). Queries are embedded once beforehand (cached in ``--vectors``), so two runs of
different code on one store compare the store, not the model, and give the same query
vectors. OUT.json holds the summary and each question's (id, score) list, for comparing
the rankings of two versions. Never point it at a store you keep unchanged: recall
records access times.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench.metrics import percentile
from engram.bench.pg_scale import LookupEmbedder
from engram.bench.scale import locomo_turns_and_questions
from engram.bench.scale_cold import NAMESPACE, wait_for_index
from engram.config import Config
from engram.embed import create_embedder
from engram.memory import Memory

WARM, TIMED = 20, 200


def query_vectors(config: Config, asked: list[str], cache: Path) -> LookupEmbedder:
    """The real model's vectors of ``asked``, computed once and kept in ``cache``."""
    if not cache.is_file():
        embedder = create_embedder(config.embedder, config.home_path)
        if embedder is None:
            raise SystemExit("embedder.name is 'none': the questions need the model's vectors")
        np.savez(cache, name=embedder.name, vectors=embedder.embed_batch(asked))
    saved = np.load(cache)
    return LookupEmbedder(str(saved["name"]), dict(zip(asked, saved["vectors"], strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("store")
    parser.add_argument("out")
    parser.add_argument("--locomo", required=True, help="LoCoMo JSON (locomo10_dev.json)")
    parser.add_argument("--vectors", default="/tmp/recall-stages-queries.npz")
    args = parser.parse_args()
    _, questions = locomo_turns_and_questions(args.locomo)
    asked = questions[: WARM + TIMED]
    config = Config().with_overrides(injection_mode="flag")  # as `engram bench scale`
    lookup = query_vectors(config, asked, Path(args.vectors))
    with Memory(args.store, config=config, embedder=lookup) as mem:
        for q in asked[:WARM]:
            mem.recall(q, namespace=NAMESPACE)
        wait_for_index(mem)
        # A loaded snapshot's checksum and a snapshot's save run on unnamed threads
        # (Python names them after their target).
        for thread in threading.enumerate():
            if "(_verify)" in thread.name or "(_save" in thread.name:
                thread.join()
        totals: list[float] = []
        stages: dict[str, list[float]] = {}
        answers: list[list[tuple[str, float]]] = []
        for q in asked[WARM:]:
            start = time.perf_counter()
            recall = mem.recall(q, namespace=NAMESPACE)
            totals.append((time.perf_counter() - start) * 1000)
            for stage, ms in recall.timings.items():
                stages.setdefault(stage, []).append(ms)
            answers.append([(h.memory.id, h.score) for h in recall.hits])
    summary: dict[str, Any] = {
        "p50_ms": round(percentile(totals, 50), 3),
        "p95_ms": round(percentile(totals, 95), 3),
        "stage_p50_ms": {k: round(statistics.median(v), 3) for k, v in stages.items()},
    }
    print(json.dumps(summary))
    Path(args.out).write_text(json.dumps({"summary": summary, "answers": answers}))


if __name__ == "__main__":
    main()

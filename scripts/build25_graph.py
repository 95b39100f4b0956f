"""Is a multi-threaded usearch build of the scale corpus's graph safe? (issue 29, build25)

Builds engram's HNSW graph (``ann.HnswGraph.build``: i8 copy, M 32, ef_construction 80)
over the first ``--n`` vectors of the scale corpus with ``threads`` 1 and 2, alternating,
and for each build reports its time, how many of ``--probe`` sampled rows miss
themselves in the graph's proposals for their own vector (a stranded node is a memory
no search reaches), and recall@10 after the exact re-score (what SQLite recall serves)
on LoCoMo questions against exact search.

    PYTHONPATH=src python scripts/build25_graph.py --n 200000 --threads 1,2 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def scale_corpus(
    n: int, path: str
) -> tuple[np.ndarray, list[str], Callable[[list[str]], np.ndarray]]:
    """The scale corpus's first ``n`` vectors (float32, C order), the distinct LoCoMo
    questions of ``path`` in order, and the real model's batch embedding for them."""
    from engram.bench.pg_scale import compose_corpus
    from engram.bench.scale import base_vectors, locomo_turns_and_questions
    from engram.config import Config
    from engram.embed import create_embedder

    config = Config.load(env={})
    turns, questions = locomo_turns_and_questions(path)
    base = base_vectors(config, turns, config.home_path / "bench-cache")
    _, data = compose_corpus(turns, base, n)
    embedder = create_embedder(config.embedder, config.home_path)
    assert embedder is not None
    return (
        np.ascontiguousarray(data, dtype=np.float32),
        list(dict.fromkeys(questions)),
        lambda texts: np.asarray(embedder.embed_batch(texts), np.float32),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200000)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--probe", type=int, default=20000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    args = parser.parse_args()

    from engram.store.protocols.vectors import AnnSettings
    from engram.store.sqlite import ann

    data, asked, embed = scale_corpus(args.n, args.data)
    queries = embed(asked[: args.queries])
    k = 10
    exact = []
    for q in queries:
        sims = data @ q
        top = np.argpartition(-sims, k)[:k]
        exact.append(set(top.tolist()))
    rng = np.random.default_rng(25)
    probe = rng.choice(args.n, size=min(args.probe, args.n), replace=False)
    settings = AnnSettings()
    for r in range(args.rounds):
        order = [int(t) for t in args.threads.split(",")]
        if r % 2:
            order.reverse()
        for threads in order:
            ann.BUILD_THREADS = threads
            load = Path("/proc/loadavg").read_text().split()[0]
            start, cpu = time.perf_counter(), time.process_time()
            graph = ann.HnswGraph.build(np.arange(args.n, dtype=np.int64), data, settings)
            seconds = time.perf_counter() - start
            cpu = time.process_time() - cpu
            # A row the graph never proposes for its own vector is stranded (or tied
            # with near-duplicates the i8 copy cannot tell apart; counted the same).
            missing = sum(int(i) not in set(graph.propose(data[i], k).tolist()) for i in probe)
            hits = 0
            for q, truth in zip(queries, exact, strict=True):
                rows = graph.propose(q, k)
                found = rows[np.argsort(-(data[rows] @ q))[:k]]
                hits += len(set(found.tolist()) & truth)
            print(
                json.dumps(
                    {
                        "n": args.n,
                        "threads": threads,
                        "round": r,
                        "build_s": round(seconds, 1),
                        "build_cpu_s": round(cpu, 1),
                        "probe": len(probe),
                        "self_missing": missing,
                        "recall_at_10": round(hits / (k * len(exact)), 4),
                        "load_before": load,
                        "load_after": Path("/proc/loadavg").read_text().split()[0],
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()

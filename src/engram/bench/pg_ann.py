"""PostgreSQL dense recall measured (issue 29): HNSW settings side by side, and where one
recall's time goes.

- :func:`exact_truth` is PostgreSQL's own exact top-k (index scans off) over the same
  namespace, the ground truth HNSW recall is measured against;
- :func:`compare_dense` runs every ``[postgres]`` variant on every query, interleaved
  (the variants' order rotates per query, so a noisy neighbour hits them all alike), at
  k = 10 (the issue's recall@10) and at the pipeline's k (``recall.dense_top_n``);
- :func:`recall_breakdown` times whole recalls without the model (a lookup embedder)
  for the hybrid, dense-only and keyword-only strategies, interleaved, with the median
  of each pipeline stage, so the keyword leg's share can be read off.

``scripts/bench_pg_scale.py --variants`` runs these after loading a corpus.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench.metrics import percentile
from engram.bench.pg_scale import recall_at_k
from engram.config import Config
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.store.postgres import PgVectorSearch, PostgresStore


def exact_truth(
    search: PgVectorSearch, namespace: str, queries: npt.NDArray[np.float32], k: int
) -> list[list[str]]:
    """The exact top-``k`` ids of each query: a sequential scan and sort in the database."""
    return [[i for i, _ in search.search(namespace, q, k, exact=True)] for q in queries]


def _summary(ms: Sequence[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(ms, 50), 2), "p95_ms": round(percentile(ms, 95), 2)}


def compare_dense(
    mem: Memory,
    search: PgVectorSearch,
    namespace: str,
    queries: npt.NDArray[np.float32],
    truth: Sequence[Sequence[str]],
    variants: Mapping[str, Mapping[str, Any]],
    *,
    pipeline_k: int,
) -> dict[str, dict[str, float]]:
    """recall@10, recall@``pipeline_k`` and latency of each ``[postgres]`` variant.

    ``truth`` holds each query's exact top ``pipeline_k`` (its first 10 are the exact
    top 10). ``mem.store.config`` is swapped per search (``PgVectorSearch`` reads it at
    every search) and restored after.
    """
    store = mem.store
    if not isinstance(store, PostgresStore):
        raise InvalidInputError("compare_dense measures a PostgreSQL store; open one by URL")
    base = mem.config
    configs = {name: base.with_overrides(postgres=dict(o)).postgres for name, o in variants.items()}
    names = list(configs)
    found: dict[tuple[str, int], list[list[str]]] = {
        (n, k): [] for n in names for k in (10, pipeline_k)
    }
    times: dict[tuple[str, int], list[float]] = {key: [] for key in found}
    original = store.config
    try:
        for qi, q in enumerate(queries):
            for j in range(len(names)):
                name = names[(qi + j) % len(names)]
                store.config = configs[name]
                for k in (10, pipeline_k):
                    t0 = time.perf_counter()
                    hits = search.search(namespace, q, k)
                    times[(name, k)].append((time.perf_counter() - t0) * 1000)
                    found[(name, k)].append([i for i, _ in hits])
    finally:
        store.config = original
    out: dict[str, dict[str, float]] = {}
    for name in names:
        ten, deep = _summary(times[(name, 10)]), _summary(times[(name, pipeline_k)])
        out[name] = {
            "recall@10": round(recall_at_k(found[(name, 10)], [t[:10] for t in truth], 10), 4),
            f"recall@{pipeline_k}": round(
                recall_at_k(found[(name, pipeline_k)], truth, pipeline_k), 4
            ),
            "k10_p50_ms": ten["p50_ms"],
            "k10_p95_ms": ten["p95_ms"],
            f"k{pipeline_k}_p50_ms": deep["p50_ms"],
            f"k{pipeline_k}_p95_ms": deep["p95_ms"],
        }
    return out


def recall_breakdown(
    mem: Memory, queries: Sequence[str], namespace: str, *, limit: int = 10
) -> dict[str, Any]:
    """Whole recalls (no model: ``mem``'s embedder looks vectors up) per strategy.

    Each query runs hybrid, dense-only and keyword-only, interleaved. Returned: p50/p95
    of each strategy, and the median milliseconds of each stage of the hybrid recalls
    (``Recall.timings``; "bm25" is the time recall waited for the keyword leg, which
    runs on a worker thread beside the dense leg).
    """
    strategies = ("hybrid", "dense", "bm25")
    ms: dict[str, list[float]] = {s: [] for s in strategies}
    stages: dict[str, list[float]] = {}
    for qi, q in enumerate(queries):
        for j in range(len(strategies)):
            strategy = strategies[(qi + j) % len(strategies)]
            t0 = time.perf_counter()
            result = mem.recall(q, namespace=namespace, limit=limit, strategy=strategy)
            ms[strategy].append((time.perf_counter() - t0) * 1000)
            if strategy == "hybrid":
                for stage, value in result.timings.items():
                    stages.setdefault(stage, []).append(value)
    out: dict[str, Any] = {s: _summary(v) for s, v in ms.items()}
    out["hybrid_stage_p50_ms"] = {s: round(percentile(v, 50), 2) for s, v in stages.items()}
    return out


def default_variants(config: Config) -> dict[str, dict[str, Any]]:
    """The variants compared: fixed ``ef_search`` steps (the namespace's size ignored,
    ``ef_search_rows`` 0) with one candidate per row asked for (main's rule before issue
    29) and with ``ef_search_per_k`` 4; ``ef_search`` 200 grown with the namespace's
    size past 100k and 50k live memories; and the configured settings."""
    variants: dict[str, dict[str, Any]] = {}
    for per_k, steps in ((1, (100, 200)), (4, (100, 200, 300, 400, 500, 600, 800, 1000))):
        for ef in steps:
            variants[f"ef {ef}, per-k {per_k}"] = {
                "ef_search": ef,
                "ef_search_per_k": per_k,
                "ef_search_rows": 0,
            }
    for rows in (100_000, 50_000):
        variants[f"ef 200 grown past {rows}"] = {"ef_search": 200, "ef_search_rows": rows}
    pg = config.postgres
    variants[
        f"configured (ef {pg.ef_search}, per-k {pg.ef_search_per_k}, rows {pg.ef_search_rows})"
    ] = {}
    return variants

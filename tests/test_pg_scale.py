"""The backend comparison helpers: corpus building, bounded concurrent recall, tables."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import SHARED
from engram import InvalidInputError, Memory
from engram.bench.pg_scale import (
    BackendResult,
    LookupEmbedder,
    Throughput,
    compose_corpus,
    concurrency_sweep,
    load_precomputed,
    ratio_table,
    recall_at_k,
)

LOCOMO = SHARED / "bench" / "locomo" / "locomo10_dev.json"


def test_compose_corpus_keeps_base_vectors_and_normalises_pairs() -> None:
    base = ["a one", "b two", "c three"]
    vectors = np.eye(3, dtype=np.float32)
    texts, out = compose_corpus(base, vectors, 7)
    assert texts[:3] == base and len(set(texts)) == 7
    assert texts[3] == "a one Later, b two"
    np.testing.assert_allclose(out[3], np.array([1, 1, 0]) / np.sqrt(2), rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-6)
    with pytest.raises(InvalidInputError):
        compose_corpus(base, vectors, 10)


def test_concurrent_recall_on_each_backend(mem: Memory) -> None:
    texts = [f"memory about topic {i} and the garden" for i in range(40)]
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(40, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = ["garden topic", "topic 7"]
    lookup = LookupEmbedder("lookup", {q: vectors[i] for i, q in enumerate(queries)})
    # The fixture's store (SQLite or PostgreSQL) with the lookup embedder; the fixture
    # closes it.
    bench = Memory(config=mem.config, store=mem.store, embedder=lookup)
    rate = load_precomputed(bench, texts, vectors, namespace="b", batch=16)
    assert rate > 0 and bench.store.memories.count("b") == 40
    sweep = concurrency_sweep(bench, queries, namespace="b", levels=(1, 4), requests=12)
    assert [t.clients for t in sweep] == [1, 4]
    assert all(t.requests == 12 and t.errors == 0 and t.rps > 0 for t in sweep)
    assert all(0 < t.p50_ms <= t.p95_ms for t in sweep)


def test_recall_at_k_and_ratio_table() -> None:
    assert recall_at_k([["a", "b"]], [["a", "c"]], 2) == 0.5
    t = (Throughput(1, 10, 1.0, 10.0, 5.0, 9.0, 0),)
    base = BackendResult("SQLite", 10, 100.0, 5.0, 9.0, t)
    other = BackendResult("PostgreSQL", 10, 50.0, 10.0, 18.0, t)
    table = ratio_table(base, other)
    assert "| add (memories/s, store only) | 100 | 50 | 0.50x |" in table
    assert "recall rps, 1 client(s)" in table

"""The automatic ANN switch: above ``recall.ann_min_vectors`` a namespace is searched by
HNSW (usearch) on SQLite, by pgvector HNSW on PostgreSQL; results must match exact search,
deletes and updates must show at once, and a lost or failed graph falls back to exact.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite import ann

WORDS = [f"w{i}" for i in range(300)]
SIZE = 240
THRESHOLD = 60


def _texts(seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(WORDS, 6)) for _ in range(SIZE)]


def _ann_config(config: Config, *, background: bool = False) -> Config:
    return config.with_overrides(
        recall={"ann_min_vectors": THRESHOLD, "ann_background": background}
    )


@pytest.fixture
def ann_mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=_ann_config(config), embedder=HashEmbedder()) as m:
        m.add_many(_texts(), namespace="big")
        yield m


def _exact_sims(mem: Memory, query: np.ndarray, k: int) -> list[float]:
    """The ``k`` best similarities by brute force (hashed vectors tie often, so tests
    compare similarities, not ids)."""
    records = mem.get_all(namespace="big", limit=10_000)
    assert mem.embedder is not None
    vectors = mem.embedder.embed_batch([r.content for r in records])
    return sorted((float(s) for s in vectors @ query), reverse=True)[:k]


def _matches_exact(mem: Memory, query: np.ndarray, k: int = 10) -> bool:
    assert mem.index is not None
    found = [s for _, s in mem.index.search("big", query, k)]
    return bool(np.allclose(found, _exact_sims(mem, query, k), atol=1e-5))


def _graphs(mem: Memory) -> dict[str, int]:
    assert mem.index is not None
    state = mem.index.state().get("ann")
    if not isinstance(state, dict):
        return {}
    graphs = state.get("graphs", {})
    assert isinstance(graphs, dict)
    return graphs


def test_ann_results_match_exact_search(ann_mem: Memory, backend: str) -> None:
    assert ann_mem.index is not None and ann_mem.embedder is not None
    overlap = []
    for query_text in _texts(seed=99)[:20]:
        query = ann_mem.embedder.embed_batch([query_text])[0]
        found = [s for _, s in ann_mem.index.search("big", query, 10)]
        kth = _exact_sims(ann_mem, query, 10)[-1]
        overlap.append(sum(s >= kth - 1e-5 for s in found) / 10)
    assert np.mean(overlap) >= 0.97
    if backend == "sqlite":
        assert _graphs(ann_mem) == {"big": SIZE}


def test_small_namespace_stays_exact(config: Config) -> None:
    with Memory(":memory:", config=_ann_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts()[: THRESHOLD - 1], namespace="small")
        mem.recall("w1 w2", namespace="small")
        assert _graphs(mem) == {}


def test_a_delete_disappears_from_ann_results(ann_mem: Memory, backend: str) -> None:
    assert ann_mem.index is not None and ann_mem.embedder is not None
    target = ann_mem.get_all(namespace="big", limit=10_000)[17]
    query = ann_mem.embedder.embed_batch([target.content])[0]
    assert ann_mem.index.search("big", query, 5)[0][0] == target.id
    ann_mem.delete(target.id, namespace="big")
    found = [i for i, _ in ann_mem.index.search("big", query, 50)]
    assert target.id not in found
    assert all(
        target.id != hit.memory.id for hit in ann_mem.recall(target.content, namespace="big").hits
    )
    if backend == "sqlite":
        assert "big" in _graphs(ann_mem)  # the graph stayed: the delete was masked out


def test_an_update_is_reindexed(ann_mem: Memory, backend: str) -> None:
    assert ann_mem.index is not None and ann_mem.embedder is not None
    target = ann_mem.get_all(namespace="big", limit=10_000)[5]
    new_text = "zebra quartz violin lantern"
    ann_mem.update(target.id, content=new_text, namespace="big")
    query = ann_mem.embedder.embed_batch([new_text])[0]
    assert ann_mem.index.search("big", query, 5)[0][0] == target.id
    old = ann_mem.embedder.embed_batch([target.content])[0]
    scores = dict(ann_mem.index.search("big", old, 50))
    assert scores.get(target.id, -1.0) < 0.99  # scored by its new vector, not the old one


def test_rows_added_after_the_graph_are_found(ann_mem: Memory, backend: str) -> None:
    assert ann_mem.index is not None and ann_mem.embedder is not None
    ann_mem.recall("w1", namespace="big")  # the graph exists now (SQLite)
    added = ann_mem.add("alpaca mango kettle saxophone", namespace="big")
    query = ann_mem.embedder.embed_batch([added.content])[0]
    assert ann_mem.index.search("big", query, 3)[0][0] == added.id
    if backend == "sqlite":
        # Searched exactly beside the graph until the delta is large, not rebuilt.
        assert _graphs(ann_mem)["big"] == SIZE
        state = ann_mem.index.state()["ann"]
        assert isinstance(state, dict) and state["delta"] == {"big": 1}


def test_a_dropped_graph_is_rebuilt(config: Config) -> None:
    with Memory(":memory:", config=_ann_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(), namespace="big")
        assert mem.index is not None and mem.embedder is not None
        query = mem.embedder.embed_batch(["w3 w4 w5"])[0]
        before = [s for _, s in mem.index.search("big", query, 10)]
        mem.index.invalidate()  # the derived graph is gone (as after a restart)
        assert _graphs(mem) == {}
        # Similarities, not ids: hashed vectors tie, and a rebuilt graph (built on
        # several threads) may propose other rows of a tie.
        assert [s for _, s in mem.index.search("big", query, 10)] == before
        assert _graphs(mem) == {"big": SIZE}


def test_a_failed_build_falls_back_to_exact_and_says_so(
    config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:

    def broken(rows: np.ndarray, vectors: np.ndarray, settings: object) -> ann.HnswGraph:
        raise MemoryError("graph memory exhausted")

    monkeypatch.setattr(ann.HnswGraph, "build", broken)
    with Memory(":memory:", config=_ann_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(), namespace="big")
        assert mem.index is not None and mem.embedder is not None
        query = mem.embedder.embed_batch(["w3 w4 w5"])[0]
        mem.index.search("big", query, 10)
        assert _matches_exact(mem, query)
        state = mem.index.state()["ann"]
        assert isinstance(state, dict)
        assert "graph memory exhausted" in str(state["failures"])


def test_without_usearch_large_namespaces_use_exact_search(
    config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ann, "available", lambda: False)
    with Memory(":memory:", config=_ann_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(), namespace="big")
        assert mem.index is not None and mem.embedder is not None
        query = mem.embedder.embed_batch(["w3 w4 w5"])[0]
        assert _matches_exact(mem, query)
        state = mem.index.state()["ann"]
        assert isinstance(state, dict)
        assert state["available"] is False and "exact search" in str(state["note"])
        assert "ann" in str(mem.doctor())


def test_background_build_answers_exactly_meanwhile(config: Config) -> None:
    cfg = _ann_config(config, background=True)
    with Memory(":memory:", config=cfg, embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(), namespace="big")
        assert mem.index is not None and mem.embedder is not None
        query = mem.embedder.embed_batch(["w8 w9"])[0]
        assert _matches_exact(mem, query)
        deadline = time.monotonic() + 30
        while not _graphs(mem) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _graphs(mem) == {"big": SIZE}
        assert _matches_exact(mem, query)


def test_loading_usearch_first_does_not_crash_the_embedder_runtime() -> None:
    # Importing usearch's extension and then onnxruntime segfaulted the process;
    # ``ann`` loads onnxruntime first. In a child, so a crash fails only this test.
    import subprocess
    import sys
    from pathlib import Path

    script = "from engram.store.sqlite import ann\nassert ann.available()\nimport onnxruntime\n"
    src = Path(__file__).parent.parent / "src"
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={"PYTHONPATH": str(src), "PATH": ""},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]


def test_a_graph_built_twice_from_the_same_rows_is_the_same_graph(tmp_path: Path) -> None:
    # Concurrent inserts made the graph depend on thread timing, and some timings
    # stranded nodes no search reaches (a flaky exact-match failure in
    # test_ann_snapshot, 2026-11-29): one thread builds the same bytes every time.
    vectors = np.asarray(HashEmbedder().embed_batch(_texts()), np.float32)
    rows = np.arange(len(vectors), dtype=np.int64)
    digests = set()
    for attempt in range(6):
        graph = ann.HnswGraph.build(rows, vectors, AnnSettings(min_vectors=THRESHOLD))
        graph.save(tmp_path / f"graph-{attempt}")
        digests.add(hashlib.sha256((tmp_path / f"graph-{attempt}").read_bytes()).hexdigest())
    assert len(digests) == 1


def test_a_search_on_the_calling_thread_proposes_what_every_core_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One query runs on the caller's thread (``SEARCH_THREADS``): usearch's default,
    # every core, started a pool for each search. The thread count must not change
    # which rows a search proposes.
    vectors = np.asarray(HashEmbedder().embed_batch(_texts()), np.float32)
    graph = ann.HnswGraph.build(
        np.arange(len(vectors), dtype=np.int64) * 3, vectors, AnnSettings(min_vectors=THRESHOLD)
    )
    queries = np.asarray(HashEmbedder().embed_batch(_texts(seed=11)[:40]), np.float32)
    assert ann.SEARCH_THREADS == 1
    alone = [graph.propose(q, 10) for q in queries]
    monkeypatch.setattr(ann, "SEARCH_THREADS", 0)
    pooled = [graph.propose(q, 10) for q in queries]
    assert all(np.array_equal(a, p) for a, p in zip(alone, pooled, strict=True))
    assert all(len(a) and not (a % 3).any() for a in alone)  # block rows, not nodes

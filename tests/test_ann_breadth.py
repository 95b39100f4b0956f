"""A large HNSW graph searches wider (issue 29, ann25): at a fixed ``ef_search`` the
graph's recall@10 after the exact re-score sank from 0.985 at 100k to 0.9745 at 200k,
so past ``ef_rows`` nodes the breadth grows by ``ef_growth`` of itself per doubling, at
half that rate for a graph built twice as wide (dense29: 235 at 1M held 0.98, not 341).
The graph proposes its walk's best ``max(OVERFETCH * k, RESCORE_MIN)`` rows, not all it
walked: the same recall@10 for a third of the exact re-score's reads at 1M (dense29)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite import ann
from engram.store.sqlite.vector_block import Block

pytestmark = pytest.mark.skipif(not ann.available(), reason="usearch is not installed")

ROWS, DIM, K = 2_000, 32, 10


def _unit(rows: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((rows, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_the_default_breadth_grows_with_the_log_of_the_graph() -> None:
    settings = AnnSettings()
    # Up to 100k nodes the measured 128; then half of it more per doubling.
    assert [ann.scaled_ef(settings, n) for n in (0, 20_000, 100_000)] == [128, 128, 128]
    assert ann.scaled_ef(settings, 200_000) == 192
    # Past 200k the graph is built at 160, not 80: the breadth grows half as fast.
    assert ann.scaled_ef(settings, 400_000) == 192
    assert ann.scaled_ef(settings, 500_000) == 203
    assert ann.scaled_ef(settings, 1_000_000) == 235
    assert ann.scaled_ef(AnnSettings(ef_growth=0.0), 1_000_000) == 128


def test_a_graph_built_no_wider_keeps_the_full_growth() -> None:
    # The growth shrinks by the build's widening only: built at 80 past the band too,
    # a 1M graph searches at 341 as before the band existed.
    assert ann.scaled_ef(AnnSettings(ef_construction_large=80), 1_000_000) == 341
    assert ann.scaled_ef(AnnSettings(ef_construction_large=320), 1_600_000) == 192


def _block(growth: float) -> Block:
    """2,000 random 32-d rows under a narrow graph (M 8, ef_search 8) whose breadth is
    measured from 250 nodes: three doublings below the block's size."""
    data = _unit(ROWS, seed=3)
    block = Block.from_matrix([f"m{i}" for i in range(ROWS)], data, DIM)
    settings = AnnSettings(m=8, ef_construction=16, ef_search=8, ef_growth=growth, ef_rows=250)
    block.graph = ann.HnswGraph.build(np.arange(ROWS, dtype=np.int64), data, settings)
    return block


def test_a_graph_past_ef_rows_searches_wider_and_finds_more() -> None:
    queries = _unit(60, seed=11)
    data = _unit(ROWS, seed=3)
    exact = [set(np.argsort(-(data @ q))[:K].tolist()) for q in queries]

    def recall(block: Block) -> float:
        found = [{row for row, _ in block.top(q, K)} for q in queries]
        return sum(len(f & e) for f, e in zip(found, exact, strict=True)) / (K * len(queries))

    fixed, growing = _block(growth=0.0), _block(growth=2.0)
    assert fixed.graph is not None and growing.graph is not None
    assert (fixed.graph.ef_search, growing.graph.ef_search) == (8, 8 * (1 + 2 * 3))
    assert growing.graph.retry_ef == growing.graph.ef_search  # retry_factor 1: off
    narrow, wide = recall(fixed), recall(growing)
    assert wide > narrow + 0.05, (narrow, wide)


def test_the_graph_proposes_its_best_rows_not_its_whole_walk() -> None:
    data = _unit(ROWS, seed=3)
    settings = AnnSettings(m=8, ef_construction=32, ef_search=400, ef_rows=ROWS)
    graph = ann.HnswGraph.build(np.arange(ROWS, dtype=np.int64), data, settings)
    block = Block.from_matrix([f"m{i}" for i in range(ROWS)], data, DIM)
    block.graph = graph
    for q in _unit(20, seed=5):
        # A 400-wide walk proposes its best max(2 k, 100) rows for the exact re-score.
        assert len(graph.propose(q, K)) == ann.RESCORE_MIN
        assert len(graph.propose(q, 80)) == 2 * 80
        # The second search (opt-in) still proposes all it walked.
        assert len(graph.propose(q, K, wider=True)) == 400
        exact = np.argsort(-(data @ q))[:K].tolist()
        assert [row for row, _ in block.top(q, K)] == exact


def test_the_setting_reaches_the_graph(config: Config, tmp_path: Path) -> None:
    tuned = config.with_overrides(
        recall={"ann_min_vectors": 60, "ann_background": False, "ann_ef_growth": 1.5}
    )
    with Memory(str(tmp_path / "m.db"), config=tuned, embedder=HashEmbedder()) as mem:
        mem.add_many([f"note {i} about w{i % 17} and w{i % 29}" for i in range(80)])
        assert mem.index is not None and mem.embedder is not None
        query = mem.embedder.embed_batch(["note about w3"])[0]
        assert mem.index.search("default", query, 5)
        assert mem.index.ann_settings is not None
        assert mem.index.ann_settings.ef_growth == 1.5
        # 80 nodes, far below 100k: the configured breadth as it is.
        state = mem.index.state()["ann"]
        assert isinstance(state, dict) and state["breadth"] == {"default": 128}

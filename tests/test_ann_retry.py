"""The HNSW graph's second, wider search (issue 29, session fifteen): a first search
whose best candidate's exact cosine is low (short generic queries) searches again
``retry_factor`` times wider and merges, so a narrow ``ef_search`` stops missing the
nearest rows; a sure search is not repeated."""

from __future__ import annotations

import numpy as np
import pytest

from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite import ann
from engram.store.sqlite.vector_block import Block

pytestmark = pytest.mark.skipif(not ann.available(), reason="usearch is not installed")

ROWS, DIM, K = 2_000, 32, 10


def _unit(rows: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((rows, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _block(retry_factor: int, retry_below: float = 0.9) -> Block:
    """Random unit rows under a deliberately narrow graph (M 8, ef_search 8): a query's
    best cosine among 2,000 random 32-d rows stays well below 0.9, a stored row's is 1."""
    data = _unit(ROWS, seed=3)
    block = Block.from_matrix([f"m{i}" for i in range(ROWS)], data, DIM)
    settings = AnnSettings(
        m=8,
        ef_construction=16,
        ef_search=8,
        retry_below=retry_below,
        retry_factor=retry_factor,
    )
    block.graph = ann.HnswGraph.build(np.arange(ROWS, dtype=np.int64), data, settings)
    return block


def _queries(count: int = 50) -> np.ndarray:
    return _unit(count, seed=11)


def test_an_unsure_search_looks_again_and_a_sure_one_does_not() -> None:
    block = _block(retry_factor=4)
    graph = block.graph
    assert graph is not None
    sure = block.top(block.data[5], K)
    assert sure[0] == (5, pytest.approx(1.0, abs=1e-5))
    assert (graph.searches, graph.retries) == (1, 0)
    block.top(_queries(1)[0], K)
    assert (graph.searches, graph.retries) == (2, 1)


def test_the_wider_search_finds_what_the_narrow_one_missed() -> None:
    queries = _queries()
    # Similarities, not rows: two rows may tie to the last bit.
    exact = [np.sort(_unit(ROWS, seed=3) @ q)[::-1][:K] for q in queries]
    narrow = _block(retry_factor=1)  # the second search off
    missed = sum(
        not np.allclose([s for _, s in narrow.top(q, K)], e, atol=1e-5)
        for q, e in zip(queries, exact, strict=True)
    )
    assert missed > 0  # the narrow graph alone misses some nearest rows
    assert narrow.graph is not None and narrow.graph.retries == 0
    wide = _block(retry_factor=ROWS)  # wide enough to reach every row
    for query, truth in zip(queries, exact, strict=True):
        found = wide.top(query, K)
        rows = [r for r, _ in found]
        sims = [s for _, s in found]
        assert len(set(rows)) == len(rows) == K  # merged without duplicates
        assert sims == sorted(sims, reverse=True)
        assert np.allclose(sims, truth, atol=1e-5)
    assert wide.graph is not None and wide.graph.retries == len(queries)

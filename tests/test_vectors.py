"""The derived vector index: exact search, and the PCA pre-filter of large namespaces."""

from __future__ import annotations

import numpy as np
import pytest

from engram.store.sqlite import vector_block as vectors
from engram.store.sqlite.vector_block import Block as _Block


def clustered(n: int, dim: int = 64, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((200, dim)).astype(np.float32)
    data = centres[rng.integers(0, 200, n)] + 0.3 * rng.standard_normal((n, dim))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def exact_top(data: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    sims = data @ query
    return [int(i) for i in np.argsort(-sims)[:k]]


def test_small_blocks_are_exact() -> None:
    data = clustered(500)
    block = _Block.from_matrix([str(i) for i in range(500)], data, 64)
    query = data[7]
    got = block.top(query, 10)
    assert [row for row, _ in got] == exact_top(data, query, 10)
    assert got[0] == (7, 1.0) or abs(got[0][1] - 1.0) < 1e-5
    assert block.projection is None


def test_large_blocks_prefilter_then_rescore(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 6000
    # Lower the threshold so a small test exercises the large-namespace path.
    monkeypatch.setattr(vectors, "PREFILTER_MIN", 2000)
    monkeypatch.setattr(vectors, "REDUCED_DIMS", 16)
    monkeypatch.setattr(vectors, "RESCORE", 200)
    data = clustered(n)
    block = _Block.from_matrix([str(i) for i in range(n)], data, 64)
    rng = np.random.default_rng(3)
    queries = data[rng.integers(0, n, 30)] + 0.05 * rng.standard_normal((30, 64))
    recall = []
    for q in queries.astype(np.float32):
        got = block.top(q, 10)
        sims = [s for _, s in got]
        assert sims == sorted(sims, reverse=True)
        # Scores are exact cosines, whatever picked the candidates.
        for row, s in got:
            assert abs(float(data[row] @ q) - s) < 1e-5
        recall.append(len({r for r, _ in got} & set(exact_top(data, q, 10))) / 10)
    assert block.projection is not None
    assert np.mean(recall) >= 0.95
    # Removed rows never come back; added rows are found through the projection.
    best = block.top(queries[0].astype(np.float32), 1)[0][0]
    block.remove(str(best))
    assert best not in {r for r, _ in block.top(queries[0].astype(np.float32), 10)}
    new = queries[1].astype(np.float32) / np.linalg.norm(queries[1])
    block.upsert_many(["new"], new.reshape(1, -1))
    top_row, top_sim = block.top(new, 1)[0]
    assert block.ids[top_row] == "new" and abs(top_sim - 1.0) < 1e-5

"""Approximate nearest neighbours for large namespaces of the SQLite backend: faiss HNSW.

The graph is derived from a ``vector_index._Block`` (itself derived from the store), never
stored, and rebuilt whenever its block is: a lost or damaged graph is simply built again.
It answers "which rows are near", never "how near": every row it proposes is re-scored
exactly against the block's current vectors, and rows the block marks dead are dropped.
So a delete disappears at once (the block's alive mask), and an update stays correct
(the updated row is added again as a new graph node pointing at the same row; the stale
node can only propose that row, which is then scored by its current vector).

faiss is optional (the ``[ann]`` extra). Without it, ``available()`` is False and the
block keeps its exact search (with the PCA pre-filter above ``PREFILTER_MIN``).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.store.protocols.vectors import AnnSettings

Matrix = npt.NDArray[np.float32]
Rows = npt.NDArray[np.int64]


#: The graph proposes ``max(OVERFETCH * k, ef_search)`` rows, all re-scored exactly.
OVERFETCH = 2


def available() -> bool:
    """Whether faiss can be imported (``pip install 'engramdb[ann]'``)."""
    return _faiss() is not None


@functools.cache
def _faiss() -> Any:
    # Cached: a failed import would otherwise search the path again on every recall.
    try:
        import faiss  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    return faiss


class HnswGraph:
    """An HNSW graph over some rows of a block; graph node ``i`` stands for ``labels[i]``."""

    def __init__(self, dim: int, settings: AnnSettings) -> None:
        faiss = _faiss()
        if faiss is None:
            raise ImportError("faiss-cpu is not installed (pip install 'engramdb[ann]')")
        self._index = faiss.IndexHNSWFlat(dim, settings.m, faiss.METRIC_INNER_PRODUCT)
        self._index.hnsw.efConstruction = settings.ef_construction
        self._index.hnsw.efSearch = settings.ef_search
        self.ef_search = settings.ef_search
        self.labels: Rows = np.zeros(0, np.int64)
        self.dead_at_build = 0
        """The block's dead-row count when the graph was built (rebuild once many more die)."""

    @property
    def nodes(self) -> int:
        return int(self.labels.shape[0])

    def add(self, rows: Rows, vectors: Matrix) -> None:
        """Add nodes for ``rows`` (their current vectors)."""
        if len(rows) == 0:
            return
        self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        self.labels = np.concatenate([self.labels, np.asarray(rows, dtype=np.int64)])

    def propose(self, query: Matrix, k: int) -> Rows:
        """Distinct block rows near ``query``: at least ``k`` when the graph has them."""
        count = min(self.nodes, max(OVERFETCH * k, self.ef_search))
        if count <= 0:
            return np.zeros(0, np.int64)
        if count > self._index.hnsw.efSearch:
            self._index.hnsw.efSearch = count
        _, found = self._index.search(np.asarray(query, dtype=np.float32).reshape(1, -1), count)
        nodes = found[0][found[0] >= 0]
        self._index.hnsw.efSearch = self.ef_search
        rows: Rows = np.unique(self.labels[nodes])
        return rows


class Builder:
    """Builds one block's graph from a snapshot, on a worker thread or in the caller.

    ``on_done(graph)`` is called with the finished graph; the caller installs it under
    its own lock and adds the rows written since the snapshot.
    """

    def __init__(
        self,
        rows: Rows,
        data: Matrix,
        settings: AnnSettings,
        on_done: Callable[[HnswGraph], None],
    ) -> None:
        self._rows = rows
        self._data = data
        self._settings = settings
        self._on_done = on_done
        self.error: str | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if self._settings.background:
            self.thread = threading.Thread(target=self._run, name="engram-ann-build", daemon=True)
            self.thread.start()
        else:
            self._run()

    def _run(self) -> None:
        try:
            graph = HnswGraph(self._data.shape[1], self._settings)
            graph.add(self._rows, self._data)
        except Exception as exc:  # a failed build leaves exact search answering
            self.error = f"{type(exc).__name__}: {exc}"
            return
        self._on_done(graph)

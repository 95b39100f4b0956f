"""One namespace's vectors as a matrix, and its exact, pre-filtered or HNSW top-k.

A ``Block`` is the SQLite backend's derived copy of one namespace's vectors
(``vector_index`` keeps one per loaded namespace): rows with spare capacity, an alive
mask, and optionally a PCA projection (pre-filter) and an HNSW graph (``ann``). The
graph never changes once built; rows written after its snapshot form the block's
``delta``, searched exactly beside it, until enough of them (or enough deletes) call
for a new graph.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite import ann
from engram.store.sqlite.vector_ids import KeyRows

Matrix = npt.NDArray[np.float32]

#: Namespaces with at least this many vectors are searched in two steps: a PCA
#: projection to ``REDUCED_DIMS`` dimensions picks ``max(RESCORE, 10 k)`` candidates,
#: which are then scored exactly. A 100k x 384 float32 matrix-vector product reads
#: 150 MB per query (7 ms here); the projection reads a quarter of that. Measured on
#: 100k MiniLM vectors: recall@50 against exact search 0.9993, 2.5 ms instead of 8.5.
PREFILTER_MIN = 20_000
REDUCED_DIMS = 96
RESCORE = 500
#: Rows the projection is fitted on (a sample keeps the SVD to a fraction of a second).
FIT_SAMPLE = 20_000
#: A graph is built again once its delta (rows written since, scanned exactly on every
#: search) passes ``max(DELTA_MIN, nodes // DELTA_SHARE)`` rows: 5,000 rows of 384
#: floats are 7.5 MB a query, well under a millisecond.
DELTA_MIN = 5_000
DELTA_SHARE = 20


@dataclass
class _Projection:
    """A PCA basis fitted on a block and its rows projected onto it."""

    mean: Matrix
    basis: Matrix
    """(dim, REDUCED_DIMS)"""
    rows: Matrix
    """(capacity, REDUCED_DIMS): the block's rows, centred and projected."""
    fitted_size: int

    @classmethod
    def fit(cls, data: Matrix, alive: npt.NDArray[np.bool_], capacity: int) -> _Projection:
        live = np.flatnonzero(alive)
        rng = np.random.default_rng(0)
        sample = live if len(live) <= FIT_SAMPLE else rng.choice(live, FIT_SAMPLE, replace=False)
        mean = data[sample].mean(axis=0)
        _, _, vt = np.linalg.svd(data[sample] - mean, full_matrices=False)
        basis = np.ascontiguousarray(vt[:REDUCED_DIMS].T, dtype=np.float32)
        rows = np.zeros((capacity, basis.shape[1]), np.float32)
        rows[: len(data)] = (data - mean) @ basis
        return cls(mean.astype(np.float32), basis, rows, len(data))

    def project(self, vectors: Matrix) -> Matrix:
        projected = (vectors - self.mean) @ self.basis
        return np.asarray(projected, dtype=np.float32)


@dataclass
class Block:
    """One namespace's vectors with spare capacity, so appends are amortised O(1)."""

    dim: int
    ids: KeyRows[str] = field(default_factory=lambda: KeyRows.of_ids([]))
    """Each row's memory id, and each id's row (numpy-backed: ``vector_ids``)."""
    data: Matrix = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    alive: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, bool))
    dead: int = 0
    projection: _Projection | None = None
    graph: ann.HnswGraph | None = None
    """HNSW over the rows (``ann``) as of its snapshot, once built or loaded."""
    delta: list[int] = field(default_factory=list)
    """Rows upserted since the graph's snapshot: searched exactly beside the graph."""
    building: ann.Builder | None = None
    pending: list[int] = field(default_factory=list)
    """Rows upserted while a graph is being built: the new graph's delta when it lands."""
    saving: bool = False
    """A landed graph is being persisted (``start_graph``'s ``on_built`` runs)."""
    total: npt.NDArray[np.float64] | None = None
    """The float64 sum of the live rows (``centre``), once asked for; kept by every
    write after that, so recall's centred cosines never pass over the rows again."""

    @classmethod
    def from_matrix(cls, ids: Sequence[str] | KeyRows[str], matrix: Matrix, dim: int) -> Block:
        block = cls(dim=dim)
        block.ids = ids if isinstance(ids, KeyRows) else KeyRows.of_ids(ids)
        block.data = np.ascontiguousarray(matrix, dtype=np.float32).reshape(-1, dim)
        block.alive = np.ones(len(ids), dtype=bool)
        return block

    @property
    def size(self) -> int:
        return len(self.ids)

    def upsert_many(self, ids: Sequence[str], vectors: Matrix) -> None:
        """Insert or replace rows; a graph gets one node per row, added in one call."""
        rows = [self._upsert(i, vector) for i, vector in zip(ids, vectors, strict=True)]
        if self.graph is not None:
            self.delta.extend(rows)
        if self.building is not None:
            self.pending.extend(rows)

    def _upsert(self, memory_id: str, vector: Matrix) -> int:
        """Write ``vector`` to ``memory_id``'s row (a new one if it has none); its row."""
        row = self.ids.get(memory_id)
        if self.total is not None:
            if row is not None and self.alive[row]:
                self.total -= self.data[row]
            self.total += vector
        if row is not None:
            self.data[row] = vector
            if not self.alive[row]:
                self.alive[row] = True
                self.dead -= 1
            if self.projection is not None:
                self.projection.rows[row] = self.projection.project(vector)
            return row
        if self.size >= self.data.shape[0]:
            capacity = max(64, self.data.shape[0] * 2)
            grown = np.zeros((capacity, self.dim), dtype=np.float32)
            grown[: self.size] = self.data[: self.size]
            alive = np.zeros(capacity, dtype=bool)
            alive[: self.size] = self.alive[: self.size]
            self.data, self.alive = grown, alive
            if self.projection is not None:
                rows = np.zeros((capacity, REDUCED_DIMS), np.float32)
                rows[: self.size] = self.projection.rows[: self.size]
                self.projection.rows = rows
        row = self.size
        self.data[row] = vector
        self.alive[row] = True
        if self.projection is not None:
            self.projection.rows[row] = self.projection.project(vector)
        self.ids.append(memory_id)
        return row

    def remove(self, memory_id: str) -> None:
        row = self.ids.get(memory_id)
        if row is not None and self.alive[row]:
            self.alive[row] = False
            self.dead += 1
            if self.total is not None:
                self.total -= self.data[row]

    def centre(self) -> tuple[npt.NDArray[np.float64], int]:
        """The sum of the live rows (float64) and their count. Summed once per loaded
        block (35-45 ms at 100k x 384), then kept by ``_upsert`` and ``remove``."""
        if self.total is None:
            rows = self.data[: self.size]
            total = np.add.reduce(rows, axis=0, dtype=np.float64)
            if self.dead:
                total -= np.add.reduce(rows[~self.alive[: self.size]], axis=0, dtype=np.float64)
            self.total = total
        return self.total, self.size - self.dead

    def scores(self, query: Matrix) -> npt.NDArray[np.float32]:
        sims = self.data[: self.size] @ query
        sims[~self.alive[: self.size]] = -np.inf
        return sims

    def top(self, query: Matrix, k: int) -> list[tuple[int, float]]:
        """(row, cosine) of the ``k`` best live rows, best first."""
        live = self.size - self.dead
        k = min(k, live)
        if k <= 0:
            return []
        rows: npt.NDArray[np.intp]
        if self.graph is not None and k * 10 < live:
            rows, sims = self._graph_candidates(self.graph, query, k)
        elif live < PREFILTER_MIN or k * 10 >= live:
            rows = np.arange(self.size)
            sims = self.scores(query)
        else:
            rows = self._prefilter(query, max(RESCORE, 10 * k))
            sims = self.data[rows] @ query
        # Only the candidates' own similarities are sorted: at 1M rows a full-size
        # array per query would cost more than the search.
        pick = np.arange(len(rows)) if len(rows) <= k else np.argpartition(-sims, k - 1)[:k]
        pick = pick[np.argsort(-sims[pick], kind="stable")]
        # Whole arrays to Python at once: indexing numpy scalars one by one cost more
        # than the search's own arithmetic (~100 rows a query).
        chosen = sims[pick]
        keep = np.isfinite(chosen)
        return list(zip(rows[pick][keep].tolist(), chosen[keep].tolist(), strict=True))

    def _graph_candidates(
        self, graph: ann.HnswGraph, query: Matrix, k: int
    ) -> tuple[npt.NDArray[np.int64], Matrix]:
        """The live rows the graph proposes (with the delta) and their exact cosines. A
        first search whose best cosine is below ``graph.retry_below`` is unsure: the
        graph is searched again, wider, and the new rows are added (each row once)."""
        proposed = graph.propose(query, k)
        if self.delta:
            proposed = np.union1d(proposed, np.asarray(self.delta, np.int64))
        rows = proposed[self.alive[proposed]]
        sims: Matrix = self.data[rows] @ query
        # The best cosine is read only when a second search is on (the default is off).
        if graph.retry_ef > graph.ef_search and (
            not rows.size or float(sims.max()) < graph.retry_below
        ):
            wider = np.setdiff1d(graph.propose(query, k, wider=True), rows)
            wider = wider[self.alive[wider]]
            rows = np.concatenate([rows, wider])
            sims = np.concatenate([sims, self.data[wider] @ query])
        return rows, sims

    def _prefilter(self, query: Matrix, count: int) -> npt.NDArray[np.intp]:
        """The ``count`` live rows nearest to ``query`` in the PCA projection."""
        if self.projection is None or self.size > 2 * self.projection.fitted_size:
            # Fitted once per loaded block, and again when the block has doubled.
            self.projection = _Projection.fit(
                self.data[: self.size], self.alive[: self.size], self.data.shape[0]
            )
        rough = self.projection.rows[: self.size] @ (query @ self.projection.basis)
        rough[~self.alive[: self.size]] = -np.inf
        chosen: npt.NDArray[np.intp] = np.argpartition(-rough, count - 1)[:count]
        return chosen

    def stale_graph(self, settings: AnnSettings) -> bool:
        """Whether the graph should be built (again): none yet, or its delta or the rows
        deleted since its build have grown past what exact search beside it costs."""
        graph = self.graph
        if graph is None:
            return True
        # Deleted rows stay in the graph (filtered by the alive mask); once they are a
        # fifth of it, proposals thin out. The delta is scanned exactly on every search.
        deleted = (self.dead - graph.dead_at_build) * 5 >= graph.nodes
        return deleted or len(self.delta) > max(DELTA_MIN, graph.nodes // DELTA_SHARE)

    def start_graph(
        self,
        settings: AnnSettings,
        lock: threading.RLock,
        on_built: Callable[[ann.HnswGraph, npt.NDArray[np.bytes_], Matrix], None] | None = None,
    ) -> None:
        """Build the HNSW graph of this block's current rows (in the background unless
        ``settings.background`` is False); rows written meanwhile become its delta.
        ``on_built(graph, ids, vectors)`` gets the landed graph and the snapshot it was
        built from (node ``i`` is ``ids[i]``, UTF-8 bytes), outside ``lock``."""
        rows = np.flatnonzero(self.alive[: self.size]).astype(np.int64)
        snapshot = self.data[rows]  # fancy indexing copies: writes cannot race the build
        ids = self.ids.array()[rows]
        dead_before = self.dead
        self.pending = []

        def land(graph: ann.HnswGraph) -> None:
            with lock:
                if self.building is None:
                    return  # the block was dropped meanwhile
                graph.dead_at_build = dead_before
                self.graph, self.delta, self.building = graph, self.pending, None
                self.pending = []
                self.saving = on_built is not None
            if on_built is not None:
                try:
                    on_built(graph, ids, snapshot)
                finally:
                    self.saving = False

        self.building = ann.Builder(rows, snapshot, settings, land)
        self.building.start()

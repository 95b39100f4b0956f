"""Approximate nearest neighbours for large namespaces of the SQLite backend: usearch HNSW.

The graph is derived from a ``vector_index._Block`` (itself derived from the store) and
may be persisted beside the store (``snapshot``): a lost or damaged graph is simply
built again. It answers "which rows are near", never "how near": every row it proposes
is re-scored exactly against the block's current vectors, and rows the block marks dead
are dropped. A graph never changes once built (a persisted one is memory-mapped
read-only): rows written after its snapshot are the block's *delta*, searched exactly
beside it, so a delete disappears at once (the block's alive mask) and an update stays
correct (the row is in the delta with its new vector; its stale graph node can only
propose that same row, which is then scored by its current vector).

usearch was chosen by measurement (docs/benchmarks.md, "ANN by default (issue 29)"):
wheels for Linux, macOS and Windows of 0.3-2.4 MB, a file it can memory-map, and
removal. It is a core dependency; if it cannot be imported all the same (a platform
without a wheel), ``available()`` is False and the block keeps its exact search.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.store.protocols.vectors import AnnSettings

Matrix = npt.NDArray[np.float32]
Rows = npt.NDArray[np.int64]

#: The graph walks ``ef_search`` wide (or ``OVERFETCH * k`` when that is wider) and
#: proposes the walk's best ``max(OVERFETCH * k, RESCORE_MIN)`` rows by the int8 copy's
#: order, all re-scored exactly. Proposing the whole walk (341 rows at 1M) read 3.4x the rows
#: of recall's k = 50 for the same recall@10 (1M, three sets of questions, every breadth
#: from 192 to 341: docs/benchmarks.md, "The dense stage at 1M").
OVERFETCH = 2
RESCORE_MIN = 100
#: The graph keeps its own copy of the vectors only to walk the graph; the ranking is
#: the exact re-score against the block's float32 rows, so the copy is int8 (a quarter
#: of the memory and file). Measured at 100k: recall@10 after re-score 0.98+ with i8
#: as with f32 (docs/benchmarks.md, "ANN by default (issue 29)").
GRAPH_DTYPE = "i8"
#: Threads of a graph build (see ``HnswGraph.build``: more strand nodes).
BUILD_THREADS = 1
#: Threads of one search: a single query runs on the caller's thread.
SEARCH_THREADS = 1
#: The version of how a graph is built, saved with a persisted graph (``build_key``).
#: A saved graph whose key differs is not reused: it is built again in the background
#: (the saved rows answer exactly meanwhile) and saved over. Bump it with any change
#: that makes graphs built before it worse or different: the library's insertion, its
#: version when that changes the links, ``BUILD_THREADS``, the metric or the vectors
#: given to the build. 2: graphs built on one thread (1, unversioned: on all cores,
#: which stranded nodes; at 100k short queries reached recall@10 0.675 on such a graph
#: against 0.822 rebuilt: docs/benchmarks.md, "Short queries at 100k").
BUILD_VERSION = 2


def scaled_ef(settings: AnnSettings, nodes: int) -> int:
    """The search breadth of a graph of ``nodes`` nodes: ``ef_search`` up to ``ef_rows``,
    then ``ef_growth`` of it more each time the graph doubles. Recall@10 at a fixed
    breadth sinks slowly as the graph grows, so a logarithmic rule holds it where the
    search's cost grows only with the breadth (PostgreSQL's ``dense.EF_GROWTH_PER_DOUBLING``
    is the same shape for pgvector; measured here: docs/benchmarks.md, "The graph's recall
    at 200k-1M"). A graph built wider (``construction_ef``) strands fewer rows and needs
    less breadth, so the growth shrinks by the build's widening: a graph built at 160
    instead of 80 grows half as fast (1M: 235, not 341, recall@10 0.9875 / 0.9835 on the
    two folds; docs/benchmarks.md, "The dense stage at 1M")."""
    doublings = math.log2(nodes / settings.ef_rows) if nodes > settings.ef_rows > 0 else 0.0
    growth = settings.ef_growth * settings.ef_construction / construction_ef(settings, nodes)
    return math.ceil(settings.ef_search * (1 + growth * doublings))


def construction_ef(settings: AnnSettings, nodes: int) -> int:
    """The build breadth of a graph of ``nodes`` nodes: ``ef_construction`` up to
    ``ef_construction_rows``, ``ef_construction_large`` past it. A graph built at 80
    strands more rows the larger it grows, and past 200k no search breadth brought it
    back to recall@10 0.98; built at 160 the ``scaled_ef`` breadth holds it at 500k and
    1M, for 2.3x the build time (docs/benchmarks.md, "The graph's build breadth at
    500k-1M")."""
    if nodes > settings.ef_construction_rows:
        return settings.ef_construction_large
    return settings.ef_construction


def build_key(settings: AnnSettings, nodes: int) -> dict[str, object]:
    """What a graph of ``nodes`` nodes built now with ``settings`` is made of; a saved
    graph with another key is built again. The build breadth is the one for the node
    count's band (``construction_ef``), so a graph saved below the band (or by code
    before the band existed) is rebuilt once it is read past it, and below it the key
    is the one every graph had before."""
    return {
        "version": BUILD_VERSION,
        "dtype": GRAPH_DTYPE,
        "m": settings.m,
        "ef_construction": construction_ef(settings, nodes),
    }


def available() -> bool:
    """Whether usearch can be imported (a core dependency: False only on a platform
    without a wheel, where exact search answers)."""
    return _usearch() is not None


@functools.cache
def _usearch() -> Any:
    # Cached: a failed import would otherwise search the path again on every recall.
    # onnxruntime (the embedder's runtime) must be loaded before usearch's extension:
    # the other way round, importing onnxruntime segfaults in libstdc++ (usearch 2.26.6
    # with onnxruntime 1.32 on Linux; tests/test_ann.py checks the order).
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    try:
        from usearch.index import Index
    except ImportError:
        return None
    return Index


class HnswGraph:
    """An immutable HNSW graph over some rows of a block; node key ``i`` stands for
    ``labels[i]``."""

    def __init__(self, index: Any, labels: Rows, settings: AnnSettings) -> None:
        self._index = index
        self.labels = labels
        self.ef_search = scaled_ef(settings, len(labels))
        """The breadth of a first search: ``settings.ef_search``, wider on a large graph."""
        self.retry_below = settings.retry_below
        """A first search whose best re-scored cosine is below this searches again."""
        self.retry_ef = self.ef_search * settings.retry_factor
        self.build_info = build_key(settings, len(labels))
        """Saved with the graph: a saved graph of another build is built again."""
        self.searches = 0
        self.retries = 0
        """Searches, and second (wider) searches taken (``vector_block.Block.top``)."""
        self.dead_at_build = 0
        """The block's dead-row count when the graph was built (rebuild once many more die)."""
        self._search_lock = threading.Lock()  # expansion_search is per index, not per call

    @classmethod
    def build(cls, rows: Rows, vectors: Matrix, settings: AnnSettings) -> HnswGraph:
        """A graph of ``vectors`` whose node ``i`` stands for block row ``rows[i]``."""
        index_type = _usearch()
        if index_type is None:
            raise ImportError("usearch is not installed (pip install usearch)")
        index = index_type(
            ndim=vectors.shape[1],
            metric="ip",
            dtype=GRAPH_DTYPE,
            connectivity=settings.m,
            expansion_add=construction_ef(settings, len(rows)),
            expansion_search=settings.ef_search,
        )
        if len(rows):
            # One thread: usearch 2.26's concurrent inserts can strand nodes that no
            # search reaches (usearch issues #735 / PR #772). Measured here: 2 of 400
            # builds of 240 nodes lost whole top-10s, and at 100k 43-47 rows missed
            # their own top 10 against 18 built on one thread; on this 2-core machine
            # the one-thread build was no slower (58 s against 65-71 s at load 8).
            index.add(
                np.arange(len(rows), dtype=np.uint64),
                np.ascontiguousarray(vectors, dtype=np.float32),
                threads=BUILD_THREADS,
            )
        return cls(index, np.asarray(rows, dtype=np.int64), settings)

    @classmethod
    def view(cls, path: Path, labels: Rows, settings: AnnSettings) -> HnswGraph:
        """A saved graph, memory-mapped read-only (pages load as searches touch them)."""
        index_type = _usearch()
        if index_type is None:
            raise ImportError("usearch is not installed (pip install usearch)")
        index = index_type.restore(str(path), view=True)
        if index is None or len(index) != len(labels):
            raise ValueError(f"{path} does not hold a graph of {len(labels)} nodes")
        return cls(index, labels, settings)

    def save(self, path: Path) -> None:
        self._index.save(str(path))

    @property
    def nodes(self) -> int:
        return int(self.labels.shape[0])

    def propose(self, query: Matrix, k: int, *, wider: bool = False) -> Rows:
        """Distinct block rows near ``query``: at least ``k`` when the graph has them (the
        best ``max(OVERFETCH * k, RESCORE_MIN)`` of an ``ef_search``-wide walk); ``wider``:
        the second search's breadth (``retry_ef``), all it walked."""
        ef = self.retry_ef if wider else self.ef_search
        walk = max(OVERFETCH * k, ef)
        # The second search (opt-in) proposes its whole walk, as it was measured.
        count = min(self.nodes, walk if wider else min(walk, max(OVERFETCH * k, RESCORE_MIN)))
        if count <= 0:
            return np.zeros(0, np.int64)
        with self._search_lock:
            if wider:
                self.retries += 1
            else:
                self.searches += 1
            self._index.expansion_search = walk
            # One query on the calling thread: usearch's default (``threads=0``, every
            # core) starts a thread pool for it on each call, and on a busy machine the
            # search then waits for its threads to be scheduled (docs/benchmarks.md,
            # "the stages beyond the model, session twenty-two"). Same keys either way.
            found = self._index.search(
                np.asarray(query, dtype=np.float32), count, threads=SEARCH_THREADS
            ).keys
        nodes = np.asarray(found, dtype=np.int64)
        nodes = nodes[(nodes >= 0) & (nodes < self.nodes)]
        rows: Rows = np.unique(self.labels[nodes])
        return rows


class Builder:
    """Builds one block's graph from a snapshot, on a worker thread or in the caller.

    ``on_done(graph)`` is called with the finished graph; the caller installs it under
    its own lock (and may persist it).
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
            graph = HnswGraph.build(self._rows, self._data, self._settings)
        except Exception as exc:  # a failed build leaves exact search answering
            self.error = f"{type(exc).__name__}: {exc}"
            return
        self._on_done(graph)

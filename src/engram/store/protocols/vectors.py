"""The vectors part of a store, and the dense search that reads it.

The store keeps one vector per memory, with the model and the content hash it was made
from, and a vector epoch: a counter that moves whenever a vector is written or a
memory's liveness or content changes, so a derived index can tell it is stale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord
from engram.store.protocols.memories import MemoryFacts


@dataclass(frozen=True, slots=True)
class VectorRow:
    """One stored vector and what it was made from."""

    memory_id: str
    model: str
    vector: npt.NDArray[np.float32]
    content_hash: str


@dataclass(frozen=True, slots=True)
class NamespaceVectors:
    """All live vectors of one namespace for one model, as a matrix."""

    ids: list[str]
    matrix: npt.NDArray[np.float32]
    epoch: int
    """The store's vector epoch when these were read (see ``VectorStore.epoch``)."""


@dataclass(frozen=True, slots=True)
class AnnSettings:
    """When and how a derived in-memory index switches a namespace to approximate
    (HNSW) search; a database that runs its own ANN index ignores them.

    Measured on 1M LoCoMo vectors (docs/benchmarks.md, "Scale"): M = 32 and
    ef_search = 128 reach recall@10 0.966 against exact search on their own; the index
    proposes more rows than asked and re-scores them exactly, which lifts it above 0.97
    (0.986 at 100k with usearch: "ANN by default (issue 29)").
    """

    min_vectors: int = 20_000
    """Namespaces with at least this many live vectors are searched by HNSW."""
    ef_search: int = 128
    """The search breadth of a graph of up to ``ef_rows`` nodes; a larger graph searches
    wider (``ef_growth``)."""
    ef_growth: float = 0.5
    """The share of ``ef_search`` added each time a graph doubles past ``ef_rows``: at a
    fixed breadth recall@10 sinks as the graph grows (after the re-score, at 128: 0.985 at
    100k, 0.9745 at 200k, 0.95 at 500k, 0.935 at 1M). 0: a fixed breadth (docs/benchmarks.md, "The
    graph's recall at 200k-1M"). A graph built wider (``ef_construction_large``) grows by
    this share times ``ef_construction / ef_construction_large`` (half, by default: 235 at
    1M; docs/benchmarks.md, "The dense stage at 1M")."""
    ef_rows: int = 100_000
    """The graph size up to which ``ef_search`` is used as it is (where it was measured)."""
    m: int = 32
    ef_construction: int = 80
    """The build breadth of a graph of up to ``ef_construction_rows`` nodes."""
    ef_construction_large: int = 160
    """The build breadth of a larger graph: at 80, no search breadth reached recall@10
    0.98 at 500k or 1M (the graph strands rows: 1.6 % at 1M); at 160 the ``ef_growth``
    rule's breadth does (docs/benchmarks.md, "The graph's build breadth at 500k-1M")."""
    ef_construction_rows: int = 200_000
    """Graphs of more nodes than this are built with ``ef_construction_large``."""
    retry_below: float = 0.45
    """A first search whose best candidate's exact cosine is below this is unsure and
    searches again ``retry_factor`` times wider; the candidates are merged. Short
    generic queries ("the vet") have low cosines and miss their nearest memory at
    ``ef_search`` 128 (docs/benchmarks.md, "Short queries, round two")."""
    retry_factor: int = 1
    """1: no second search (the default: at 4 it missed its pre-registered bar)."""
    background: bool = True
    """Build the graph on a worker thread (exact search answers meanwhile); False builds
    it in the searching call."""


@runtime_checkable
class VectorSearch(Protocol):
    """Dense top-k for one embedding model, namespace by namespace.

    The SQLite backend's ``VectorIndex`` (an exact in-memory matrix derived from the
    store) and the PostgreSQL backend's ``PgVectorSearch`` (pgvector HNSW in the
    database) implement it; ``VectorStore.index`` hands out the right one. The write
    hooks let a derived index follow this process's writes; a database-side search
    ignores them.
    """

    model: str
    dimension: int

    def search(
        self, namespace: str, query: npt.NDArray[np.float32], k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` nearest live memories of ``namespace``: (id, cosine), best first."""
        ...

    def scores(
        self, namespace: str, query: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> dict[str, float]:
        """Cosine similarity of specific live memories; ids without a vector are absent."""
        ...

    def added(
        self,
        namespace: str,
        ids: Sequence[str],
        vectors: npt.NDArray[np.float32],
        epoch_after: int,
    ) -> None:
        """This process stored vectors; ``epoch_after`` is what ``VectorStore.put``
        returned."""
        ...

    def removed(self, namespace: str, memory_id: str) -> None:
        """This process tombstoned a memory."""
        ...

    def invalidate(self, namespace: str | None = None) -> None:
        """Forget anything cached (of one namespace, or all)."""
        ...

    def state(self) -> dict[str, object]:
        """What ``doctor`` shows about the search."""
        ...


@runtime_checkable
class FactsAlong(Protocol):
    """A dense search that reads other memories' cosines and ``MemoryFacts`` with one
    statement, or in its own round trip (PostgreSQL: recall's keyword leg's top ids,
    read where they are found; issue 29, round 11). Facts of an id that is not a live
    memory of the namespace are absent, as ``MemoryStore.facts`` leaves them out."""

    def search_facts(
        self,
        namespace: str,
        query: npt.NDArray[np.float32],
        k: int,
        others: Sequence[str] = (),
    ) -> tuple[list[tuple[str, float]], dict[str, float], dict[str, MemoryFacts]]:
        """``VectorSearch.search``'s answer, and ``scores_facts`` of ``others``, in one
        round trip."""
        ...

    def scores_facts(
        self, namespace: str, query: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> tuple[dict[str, float], dict[str, MemoryFacts]]:
        """``VectorSearch.scores``' answer, and the facts of ``ids``."""
        ...


@dataclass(frozen=True, slots=True)
class Gathered:
    """Vectors of some memories copied out of a derived index before the query vector
    exists (``VectorsAhead``): of the ids ``asked``, the live ones (``ids``), one row
    each of ``matrix``; ``current()`` says whether the index still holds those rows as
    they were (nothing written since), so their cosines are the ones ``scores`` gives."""

    asked: frozenset[str]
    ids: list[str]
    matrix: npt.NDArray[np.float32]
    current: Callable[[], bool]

    def scores(self, query: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """``VectorSearch.scores`` of those of ``ids`` that were gathered: the same rows
        in the same order (``ids``'), so the same product and the same floats."""
        at = {memory_id: n for n, memory_id in enumerate(self.ids)}
        found = [i for i in ids if i in at]
        if not found:
            return {}
        sims = self.matrix[[at[i] for i in found]] @ np.asarray(query, dtype=np.float32)
        return dict(zip(found, sims.tolist(), strict=True))


@runtime_checkable
class VectorsAhead(Protocol):
    """A derived in-memory index (SQLite's) that copies some memories' vectors out
    without the query: recall's keyword leg gathers its top ids' on its worker while
    the model runs, and the calling thread then only multiplies (docs/benchmarks.md,
    "Recall's fuse stage at 100k")."""

    def gather(self, namespace: str, ids: Sequence[str]) -> Gathered:
        """The live vectors of ``ids`` in ``namespace``."""
        ...


@runtime_checkable
class VectorStore(Protocol):
    """Vector rows: the source of truth a dense search is derived from or runs on."""

    def put(self, rows: Iterable[VectorRow]) -> int:
        """Upsert vectors in one transaction; returns the vector epoch after the write."""
        ...

    def load(self, namespace: str, model: str) -> NamespaceVectors:
        """Every live, current vector of ``namespace`` made by ``model``."""
        ...

    def epoch(self) -> int:
        """A counter that changes whenever a vector is written or a memory's liveness or
        content changes."""
        ...

    def dimensions(self) -> dict[str, int]:
        """Dimension per model among stored vectors."""
        ...

    def missing(self, model: str, *, limit: int) -> list[MemoryRecord]:
        """Live memories with no vector by ``model`` or a stale one (content changed)."""
        ...

    def count_missing(self, model: str) -> int:
        """How many live memories ``missing`` would return without a limit."""
        ...

    def unembedded(self, namespace: str) -> int:
        """How many live memories of ``namespace`` have no vector of their current
        content (``embedding_model`` is NULL): a cheap count recall warns with."""
        ...

    def delete(self, model: str | None = None) -> int:
        """Drop vectors (of one model, or all) so they can be rebuilt."""
        ...

    def index(self, model: str, dimension: int, *, ann: AnnSettings | None = None) -> VectorSearch:
        """Dense top-k over this store's vectors of ``model``: an in-memory index derived
        from the store (SQLite; HNSW above ``ann.min_vectors``, persisted beside the file)
        or a search run by the database itself (PostgreSQL, always pgvector HNSW)."""
        ...


@dataclass(frozen=True, slots=True)
class IndexRebuild:
    """One vector index brought to the configured build (``mem.maintenance.reindex_vectors``).

    ``before`` and ``after`` are the index's build parameters (``m``,
    ``ef_construction``); ``before`` is None when the index was missing."""

    model: str
    dimension: int
    index: str
    before: dict[str, int] | None
    after: dict[str, int]
    rebuilt: bool
    """False: the index already had the configured build and was left alone."""
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@runtime_checkable
class RebuildsIndexes(Protocol):
    """A vectors part whose database keeps its own ANN index, built once with the
    settings of the day (PostgreSQL's HNSW); SQLite's derived graph is rebuilt on its
    own when its build settings change, so it has no such part."""

    def rebuild_indexes(
        self, *, work_mem: str | None = None, force: bool = False
    ) -> list[IndexRebuild]:
        """Rebuild every vector index whose build differs from the configured one (all
        with ``force``), without blocking reads or writes; ``work_mem`` is the build's
        ``maintenance_work_mem``."""
        ...

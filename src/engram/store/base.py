"""The ``Store`` protocol: the one contract every storage backend implements.

A store holds memories, their vectors, the audit history and the feedback log, always
scoped by namespace. Every method is one short transaction; no model or network call
ever happens inside one (architecture principle 3). Backends return typed records and
never leak their driver's types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.records import HistoryEntry, MemoryRecord


@dataclass(frozen=True, slots=True)
class InsertResult:
    """What happened to one record handed to ``Store.insert``."""

    record: MemoryRecord
    created: bool
    """False when an identical memory already existed and ``record`` is that memory."""


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
    """The store's vector epoch when these were read (see ``Store.vector_epoch``)."""


@dataclass(frozen=True, slots=True)
class ListQuery:
    """Filters for ``Store.list_memories``; all are ANDed."""

    type: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    session_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    min_quality: int | None = None
    max_quality: int | None = None
    include_deleted: bool = False
    limit: int = 100
    offset: int = 0
    newest_first: bool = True


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Counts that ``doctor`` shows."""

    memories: dict[str, int]
    """Live memories per namespace."""
    tombstoned: int
    vectors: dict[str, int]
    """Vector rows per model."""
    missing_vectors: int
    """Live memories without a current vector for the active model."""
    schema_version: str
    location: str


@runtime_checkable
class Store(Protocol):
    """Storage backend contract. Implementations: ``engram.store.sqlite.SQLiteStore``."""

    location: str

    # -- memories -------------------------------------------------------------------
    def insert(self, records: Sequence[MemoryRecord], *, actor: str | None = None) -> list[
        InsertResult
    ]:
        """Insert records in one transaction; an exact duplicate returns the existing one."""
        ...

    def get(self, namespace: str, memory_id: str, *, include_deleted: bool = False) -> (
        MemoryRecord | None
    ):
        """One memory of ``namespace`` or None."""
        ...

    def get_many(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Live memories of ``namespace`` by id; unknown ids are left out."""
        ...

    def list_memories(self, namespace: str, query: ListQuery) -> list[MemoryRecord]:
        """Memories of ``namespace`` matching ``query``."""
        ...

    def count(self, namespace: str, *, include_deleted: bool = False) -> int:
        """How many memories ``namespace`` holds."""
        ...

    def update(
        self,
        namespace: str,
        memory_id: str,
        changes: Mapping[str, Any],
        *,
        event: str = "update",
        actor: str | None = None,
        reason: str | None = None,
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """Apply ``changes``, audit them, and return (before, after)."""
        ...

    def delete(self, namespace: str, memory_id: str, *, actor: str | None = None) -> (
        MemoryRecord
    ):
        """Tombstone a memory; it never shows up in recall again."""
        ...

    def purge(self, namespace: str | None = None) -> int:
        """Hard-delete tombstoned memories (of one namespace or all); returns how many."""
        ...

    def record_feedback(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """Apply a +1/-1 rating to quality (clamped to [-3, 3]), log it, audit it."""
        ...

    def feedback_log(self, namespace: str, memory_id: str | None = None) -> list[
        dict[str, Any]
    ]:
        """Rows of the feedback log, oldest first."""
        ...

    def history(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """The audit trail of one memory, oldest first."""
        ...

    def namespaces(self) -> dict[str, int]:
        """Live memory counts per namespace."""
        ...

    def recent(self, namespace: str, limit: int) -> list[MemoryRecord]:
        """The newest live memories of ``namespace``."""
        ...

    # -- keyword search -------------------------------------------------------------
    def keyword_search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """(id, bm25 relevance >= 0, higher is better) for live memories matching ``match``."""
        ...

    # -- vectors --------------------------------------------------------------------
    def put_vectors(self, rows: Iterable[VectorRow]) -> int:
        """Upsert vectors in one transaction; returns the vector epoch after the write."""
        ...

    def load_vectors(self, namespace: str, model: str) -> NamespaceVectors:
        """Every live, current vector of ``namespace`` made by ``model``."""
        ...

    def vector_epoch(self) -> int:
        """A counter that changes whenever any vector or memory liveness changes."""
        ...

    def vector_dimensions(self) -> dict[str, int]:
        """Dimension per model among stored vectors."""
        ...

    def missing_vectors(
        self, model: str, *, limit: int, namespace: str | None = None
    ) -> list[MemoryRecord]:
        """Live memories with no vector by ``model`` or a stale one (content changed)."""
        ...

    def delete_vectors(self, model: str | None = None) -> int:
        """Drop vectors (of one model, or all) so they can be rebuilt."""
        ...

    # -- housekeeping ---------------------------------------------------------------
    def stats(self, model: str | None) -> StoreStats:
        """Counts for diagnostics."""
        ...

    def close(self) -> None:
        """Release the connection; further calls raise ``StoreClosedError``."""
        ...

"""The ``Store`` protocol: the one contract every storage backend implements.

A store holds memories, their vectors, the audit history and the feedback log, always
scoped by namespace. Every method is one short transaction; no model or network call
ever happens inside one (architecture principle 3). Backends return typed records and
never leak their driver's types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.records import ApiKey, HistoryEntry, MemoryRecord


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
    created_after: datetime | None = None
    """Only memories created at or after this time."""
    created_before: datetime | None = None
    """Only memories created before this time."""
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


@dataclass(frozen=True, slots=True)
class FeedbackRow:
    """One row of the feedback log (seed 000's labelled preference data)."""

    memory_id: str
    namespace: str
    rating: int
    comment: str | None
    created_at: datetime
    id: int | None = None
    """The row's local id; None for a row about to be imported (the store assigns one)."""


@dataclass(frozen=True, slots=True)
class MemoryBundle:
    """A memory with every row that hangs off it: the unit of export, import and
    store-to-store copy. Moving bundles whole keeps a copy consistent and resumable."""

    record: MemoryRecord
    history: tuple[HistoryEntry, ...] = ()
    """Oldest first. On import the target assigns new local row ids."""
    feedback: tuple[FeedbackRow, ...] = ()
    """Oldest first."""
    vector: VectorRow | None = None


@dataclass(frozen=True, slots=True)
class TranscriptRow:
    """A session's raw transcript (seed 004), as stored."""

    namespace: str
    session_key: str
    content: str
    agent_id: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ImportCounts:
    """What ``Store.import_bundles`` / ``import_transcripts`` did."""

    memories: int = 0
    """Memories inserted."""
    existing: int = 0
    """Skipped: a memory with that id is already stored (any namespace)."""
    duplicates: int = 0
    """Skipped: live, and a live memory of its namespace has the same content hash."""
    history: int = 0
    feedback: int = 0
    vectors: int = 0
    transcripts: int = 0

    def __add__(self, other: ImportCounts) -> ImportCounts:
        return ImportCounts(
            *(getattr(self, f) + getattr(other, f) for f in self.__dataclass_fields__)
        )


@runtime_checkable
class VectorSearch(Protocol):
    """Dense top-k for one embedding model, namespace by namespace.

    ``engram.vectors.VectorIndex`` (an exact in-memory matrix derived from the store,
    used with SQLite) and ``engram.store.postgres.PgVectorSearch`` (pgvector HNSW in the
    database) implement it; ``Store.vector_search`` picks the right one. The write hooks
    let a derived index follow this process's writes; a database-side search ignores them.
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
        """This process stored vectors; ``epoch_after`` is what ``put_vectors`` returned."""
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
class Store(Protocol):
    """Storage backend contract. Implementations: ``engram.store.sqlite.SQLiteStore``,
    ``engram.store.postgres.PostgresStore``."""

    location: str

    # -- memories -------------------------------------------------------------------
    def insert(
        self, records: Sequence[MemoryRecord], *, actor: str | None = None
    ) -> list[InsertResult]:
        """Insert records in one transaction; an exact duplicate returns the existing one."""
        ...

    def get(
        self, namespace: str, memory_id: str, *, include_deleted: bool = False
    ) -> MemoryRecord | None:
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

    def delete(self, namespace: str, memory_id: str, *, actor: str | None = None) -> MemoryRecord:
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

    def feedback_log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
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

    def session_members(
        self, namespace: str, memory_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        """The sessions of ``memory_ids``: session id -> its live member ids, oldest
        first (``created_at``, then insertion order). Memories without a session, and
        sessions with more than ``max_members`` live members, are left out."""
        ...

    def timestamps(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, datetime]:
        """``created_at`` of live memories of ``namespace`` by id; unknown ids left out."""
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

    # -- session transcripts (seed 004) ---------------------------------------------
    def put_transcript(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        """Store a session's raw transcript once (INSERT OR IGNORE on (namespace, key)).

        Returns True when stored, False when that session already had a transcript (the
        first one is kept: a transcript is the verbatim record, never rewritten).
        """
        ...

    def transcripts(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        """Transcripts of ``namespace`` by session key; keys without one are left out."""
        ...

    # -- API keys (HTTP API) --------------------------------------------------------
    # Keys are global, not per namespace: a key names the user whose namespaces it
    # reaches. Only the SHA-256 hash of the secret is stored, never the secret.
    def add_api_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hex SHA-256 ``key_hash`` of its secret."""
        ...

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The non-revoked key whose secret hashes to ``key_hash``, or None."""
        ...

    def list_api_keys(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        ...

    def revoke_api_key(self, key_id: str) -> ApiKey:
        """Revoke a key (idempotent) and return it; ``NotFoundError`` if unknown."""
        ...

    def touch_api_key(self, key_id: str, when: datetime) -> None:
        """Record that a key was used at ``when`` (sets ``last_used_at``)."""
        ...

    def export_api_keys(self) -> list[tuple[ApiKey, str]]:
        """Every key with the hash of its secret, oldest first (for ``migrate-store``;
        re-added elsewhere with ``add_api_key``)."""
        ...

    # -- bulk copy: export, import, migrate-store ----------------------------------
    # Keyset-paged and ordered, so a copy can stop and resume: memories by id,
    # transcripts by (namespace, session_key). A bundle moves a memory with its
    # history, feedback and vector, in one transaction on the importing side.
    def export_bundles(
        self,
        *,
        after: str | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
        vectors: bool = False,
    ) -> list[MemoryBundle]:
        """Up to ``limit`` memories with id > ``after`` (all when None), ordered by id,
        tombstoned ones included, of ``namespaces`` (every namespace when None), each
        with its history and feedback rows and, if ``vectors``, its vector row."""
        ...

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        """Insert bundles in one transaction, keeping every field (ids, timestamps,
        quality, tombstones) except the local row ids of history and feedback rows.

        A bundle whose memory id is already stored is skipped whole (``existing``), and
        so is a live memory whose content is live in its namespace (``duplicates``):
        importing the same bundles twice changes nothing.
        """
        ...

    def export_transcripts(
        self,
        *,
        after: tuple[str, str] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TranscriptRow]:
        """Up to ``limit`` transcripts after the key ``(namespace, session_key)``."""
        ...

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        """Insert transcripts whose (namespace, session_key) is not stored yet, keeping
        ``created_at``; the others are counted as ``existing``."""
        ...

    def vector_search(self, model: str, dimension: int) -> VectorSearch:
        """Dense top-k over this store's vectors of ``model``: an in-memory index derived
        from the store (SQLite) or a search run by the database itself (PostgreSQL)."""
        ...

    # -- housekeeping ---------------------------------------------------------------
    def stats(self, model: str | None) -> StoreStats:
        """Counts for diagnostics."""
        ...

    def close(self) -> None:
        """Release the connection; further calls raise ``StoreClosedError``."""
        ...

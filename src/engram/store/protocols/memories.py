"""The memories part of a store: rows of ``memories`` and their audit history.

Every call is scoped by namespace and is one short transaction (or joins the one the
backend's ``transaction()`` holds open). No model or network call happens inside one
(architecture principle 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.records import HistoryEntry, MemoryRecord
from engram.text import normalized_text


@dataclass(frozen=True, slots=True)
class InsertResult:
    """What happened to one record handed to ``MemoryStore.insert``."""

    record: MemoryRecord
    created: bool
    """False when an identical memory already existed and ``record`` is that memory."""


FACTS_HEAD_CHARS = 64
"""How much of a memory's opening ``MemoryStore.facts`` reads (``MemoryFacts.head``):
enough for a speaker prefix and a few words (recall/directives.py)."""


@dataclass(frozen=True, slots=True)
class MemoryFacts:
    """The few columns of a memory that recall weighs for every candidate."""

    created_at: datetime
    session_id: str | None
    chars: int
    """Length of the normalised content (seed 004's collapsed, lower-cased form) in
    characters: long memories get their own weights."""
    head: str = ""
    """The normalised content's first ``FACTS_HEAD_CHARS`` characters (standing
    instructions get their own weights)."""

    @classmethod
    def of(cls, record: MemoryRecord) -> MemoryFacts:
        """The facts of a record already read, as ``MemoryStore.facts`` gives them."""
        normalized = normalized_text(record.content)
        return cls(
            record.created_at, record.session_id, len(normalized), normalized[:FACTS_HEAD_CHARS]
        )


@dataclass(frozen=True, slots=True)
class ListQuery:
    """Filters for ``MemoryStore.select``; all are ANDed."""

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
    id_prefix: str | None = None
    """Only memories whose id starts with this (how a shortened id is resolved)."""
    include_deleted: bool = False
    limit: int = 100
    offset: int = 0
    newest_first: bool = True


@runtime_checkable
class MemoryStore(Protocol):
    """Memories: insert with content-hash dedup, read, filter, update, tombstone, purge,
    and the audit trail every change leaves."""

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

    def select(self, namespace: str, query: ListQuery) -> list[MemoryRecord]:
        """Memories of ``namespace`` matching ``query``, in its order and page."""
        ...

    def count(
        self, namespace: str, *, include_deleted: bool = False, query: ListQuery | None = None
    ) -> int:
        """How many memories ``namespace`` holds; with ``query``, how many match its
        filters (its own ``include_deleted``; its order and page are ignored)."""
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
        """Hard-delete tombstoned memories (of one namespace or all) with their rows;
        returns how many."""
        ...

    def history(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """The audit trail of one memory, oldest first."""
        ...

    def namespaces(self) -> dict[str, int]:
        """Live memory counts per namespace."""
        ...

    def facts(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryFacts]:
        """What recall weighs before it reads whole records (creation time, session,
        length, opening) of live memories of ``namespace`` by id, in one read; unknown
        ids are left out."""
        ...

    def session_members(
        self, namespace: str, session_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        """Session id -> its live member ids, oldest first (``created_at``, then
        insertion order). Sessions with more than ``max_members`` live members, and
        sessions with none, are left out."""
        ...

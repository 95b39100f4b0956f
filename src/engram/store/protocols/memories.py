"""The memories part of a store: rows of ``memories`` and their audit history.

Every call is scoped by namespace and is one short transaction (or joins the one the
backend's ``transaction()`` holds open). No model or network call happens inside one
(architecture principle 3).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import compress, repeat
from operator import is_, lt
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


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class FactColumns(Mapping[str, MemoryFacts]):
    """``MemoryStore.facts``' answer: the facts of some memories as columns, one
    position per memory in one order (ids are unique).

    Recall weighs each of its ~90 candidates by these facts (session, length, opening,
    creation time). Made one ``MemoryFacts`` at a time (a tz-aware datetime and a frozen
    dataclass each, ~1.6 us) and then read back one attribute at a time, they were
    about a fifth of the fuse stage at 100k (docs/benchmarks.md, "SQLite at 100k
    beside Chroma, session twenty"). As columns, the SQLite backend gathers them from a
    namespace's arrays in a few numpy calls (``fact_block``) and recall reads a whole
    column at once (``session_ids``, ``without_session``, ``longer_than``,
    ``openings``); a creation time is made only when asked (``created_at``).

    It is also a read-only mapping of id -> ``MemoryFacts`` (made on access), equal to a
    dict of the same facts, for every other reader. ``created`` holds datetimes, or
    microseconds since the epoch (UTC) as the SQLite arrays keep them."""

    __slots__ = ("_alone", "_at", "_created", "chars", "heads", "ids", "sessions")

    def __init__(
        self,
        ids: list[str],
        created: list[datetime] | list[int],
        sessions: list[str | None],
        chars: list[int],
        heads: list[str],
    ) -> None:
        self.ids = ids
        self._created: list[datetime | int] = list(created)
        self.sessions = sessions
        self.chars = chars
        self.heads = heads
        self._at: dict[str, int] | None = None
        self._alone: frozenset[str] | None = None  # without_session's, until an update

    @classmethod
    def of(cls, facts: Mapping[str, MemoryFacts]) -> FactColumns:
        """Columns of ``facts`` (a dict of id -> facts), in its order."""
        if isinstance(facts, FactColumns):
            return facts
        values = list(facts.values())
        return cls(
            list(facts),
            [f.created_at for f in values],
            [f.session_id for f in values],
            [f.chars for f in values],
            [f.head for f in values],
        )

    def _positions(self) -> dict[str, int]:
        if self._at is None:
            self._at = {memory_id: at for at, memory_id in enumerate(self.ids)}
        return self._at

    def _time(self, at: int) -> datetime:
        value = self._created[at]
        if isinstance(value, datetime):
            return value
        return _EPOCH + timedelta(microseconds=value)

    def __getitem__(self, memory_id: str) -> MemoryFacts:
        at = self._positions()[memory_id]
        return MemoryFacts(self._time(at), self.sessions[at], self.chars[at], self.heads[at])

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._positions()

    def created_at(self, memory_id: str) -> datetime:
        """When ``memory_id`` was created (a KeyError if it is not here)."""
        return self._time(self._positions()[memory_id])

    def update(self, other: Mapping[str, MemoryFacts]) -> None:
        """``dict.update``: ``other``'s facts replace these for the ids both hold, and
        its other ids are added after these."""
        extra = FactColumns.of(other)
        self._alone = None
        at = self._positions()
        for n, memory_id in enumerate(extra.ids):
            value = (extra._created[n], extra.sessions[n], extra.chars[n], extra.heads[n])
            where = at.get(memory_id)
            if where is None:
                at[memory_id] = len(self.ids)
                self.ids.append(memory_id)
                self._created.append(value[0])
                self.sessions.append(value[1])
                self.chars.append(value[2])
                self.heads.append(value[3])
            else:
                self._created[where], self.sessions[where] = value[0], value[1]
                self.chars[where], self.heads[where] = value[2], value[3]

    def session_ids(self) -> set[str]:
        """The sessions these memories belong to."""
        return {s for s in self.sessions if s is not None}

    def without_session(self) -> frozenset[str]:
        """The memories outside any session (kept until ``update``: recall asks twice).
        The columns are walked by ``compress`` and ``map`` over C functions: a Python
        step per candidate in each of recall's passes was most of their cost (lat39)."""
        if self._alone is None:
            self._alone = frozenset(compress(self.ids, map(is_, self.sessions, repeat(None))))
        return self._alone

    def longer_than(self, chars: int) -> frozenset[str]:
        """The memories whose normalised content is longer than ``chars``."""
        return frozenset(compress(self.ids, map(lt, repeat(chars), self.chars)))

    def openings(self) -> Iterator[tuple[str, str]]:
        """(id, ``MemoryFacts.head``) of each memory."""
        return zip(self.ids, self.heads, strict=True)


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
    has_session: bool | None = None
    """True: only memories with a session; False: only those without one."""
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

    def facts(self, namespace: str, memory_ids: Sequence[str]) -> FactColumns:
        """What recall weighs before it reads whole records (creation time, session,
        length, opening) of live memories of ``namespace`` by id, in one read, as
        columns; unknown ids are left out."""
        ...

    def session_members(
        self, namespace: str, session_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        """Session id -> its live member ids, oldest first (``created_at``, then
        insertion order). Sessions with more than ``max_members`` live members, and
        sessions with none, are left out."""
        ...

"""Typed records that go in and out of engram.

``MemoryRecord`` is the C1 record: verbatim content plus the observation fields
(title, narrative, facts), classification, quality signals, provenance and timestamps.
``Hit`` and ``Recall`` are what the read path returns.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, overload

if TYPE_CHECKING:
    from engram.recall.empty import EmptyAnswer

#: ``who`` of the memories the write pipeline writes (seed 004 uses "pipeline-v2").
PIPELINE_WHO = "engram-pipeline"
#: Chat roles whose words are no fact about the person a memory is for (the offline
#: rules, ``engram.pipeline.turns``, and the graph read them so, task x22).
NOT_THE_USER = frozenset({"assistant", "system", "tool", "ai", "bot", "model"})


class MemoryType(StrEnum):
    """What kind of thing a memory is (FEATURES C1)."""

    FACT = "fact"
    PREFERENCE = "preference"
    DECISION = "decision"
    PROCEDURAL = "procedural"
    SEMANTIC = "semantic"
    OBSERVATION = "observation"
    DOCUMENT_CHUNK = "document_chunk"
    MESSAGE = "message"


class MemoryCategory(StrEnum):
    """Seed 002's memory categories."""

    WORKING = "working"
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"
    SOCIAL = "social"


class RecallMode(StrEnum):
    """Which tier answered a recall (architecture principle 4: degrade loudly)."""

    HYBRID = "hybrid"
    DENSE = "dense"
    KEYWORD = "keyword"
    RECENT = "recent"


def utcnow() -> datetime:
    """The current time, timezone-aware UTC, to the microsecond."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One stored memory."""

    id: str
    namespace: str
    content: str
    content_hash: str
    type: MemoryType = MemoryType.FACT
    category: MemoryCategory | None = None
    title: str | None = None
    narrative: str | None = None
    facts: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    importance: float | None = None
    quality: int = 0
    """Accumulated human feedback, clamped to [-3, +3] (seed 000)."""
    score: float | None = None
    """An external quality score on a 0-10 scale, e.g. an evaluator's final score."""
    confidence: float | None = None
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    session_id: str | None = None
    source_memory_id: str | None = None
    document_id: str | None = None
    who: str | None = None
    why: str | None = None
    extraction_model: str | None = None
    embedding_model: str | None = None
    superseded_by: str | None = None
    """The memory that replaced this one (the write pipeline's UPDATE); recall leaves a
    superseded memory out, ``get`` and ``history`` still show it."""
    metadata: dict[str, Any] = field(default_factory=dict)
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)
    deleted_at: datetime | None = None

    @property
    def deleted(self) -> bool:
        """True once the memory is tombstoned."""
        return self.deleted_at is not None

    def embedding_text(self) -> str:
        """The text a vector is computed from: title, content, narrative and facts.

        Seed 000 embeds the concatenation of title, narrative and facts; engram keeps the
        verbatim content first because the embedder truncates long input.
        """
        parts = [self.title or "", self.content]
        if self.narrative and self.narrative != self.content:
            parts.append(self.narrative)
        parts.extend(self.facts)
        return "\n".join(p for p in parts if p)

    @property
    def other_role(self) -> str | None:
        """The role (``metadata.role``, as mining files it) of a turn that is not the
        user's, lower-cased; None for the user's own words. Not ``who``, an author: an
        agent's note about its user (``who="assistant"``) states the user's facts."""
        role = self.metadata.get("role") if isinstance(self.metadata, dict) else None
        if isinstance(role, str) and role.strip().lower() in NOT_THE_USER:
            return role.strip().lower()
        return None

    def spoken(self) -> str:
        """The content as the rules read it: a turn that is not the user's is tagged
        with its role (``"assistant: Noted: ..."``), the way a memory written from
        messages stores each one, so no reader takes its words for the user's."""
        role = self.other_role
        return self.content if role is None else f"{role}: {self.content}"

    def with_changes(self, **changes: Any) -> MemoryRecord:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; datetimes as ISO 8601 strings."""
        out: dict[str, Any] = {}
        stamp: tuple[datetime, str] | None = None  # created_at is often updated_at
        for name in _RECORD_FIELDS:
            value = getattr(self, name)
            if value is None or type(value) in _PLAIN:
                pass  # most fields: as they are (a StrEnum or a bool is not plain)
            elif isinstance(value, datetime):
                if stamp is None or stamp[0] is not value:
                    stamp = (value, iso(value))
                value = stamp[1]
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, StrEnum):
                value = value.value
            out[name] = value
        return out


_RECORD_FIELDS = tuple(MemoryRecord.__dataclass_fields__)
#: Field value types ``MemoryRecord.to_dict`` passes through without a check.
_PLAIN = frozenset({str, int, float, dict})


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data, the way ``Record`` writes a row: times as ISO 8601
    UTC with ``Z``, tuples and lists as lists of such values, mappings as plain dicts and
    nested rows as their own dicts."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


class Record:
    """Mixin for a ``@dataclass(frozen=True, slots=True)`` row: the one ``to_dict``, from
    its fields in order, less ``_hidden``, plus the properties named in ``_extra``."""

    __slots__ = ()
    _hidden: ClassVar[tuple[str, ...]] = ()
    _extra: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; times as ISO 8601 UTC with ``Z``."""
        fields = self.__dataclass_fields__  # type: ignore[attr-defined]
        names = [n for n in fields if n not in self._hidden] + list(self._extra)
        return {name: plain(getattr(self, name)) for name in names}


@dataclass(frozen=True, slots=True)
class HistoryEntry(Record):
    """One audit row of ``memory_history``: what changed, from what, to what."""

    id: int
    memory_id: str
    namespace: str
    event: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    actor: str | None
    reason: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """How a hit's score was made, stage by stage (seed 001's ``--search`` inspection)."""

    sim: float | None
    """Dense cosine similarity, or None when the dense leg did not run."""
    bm25: float | None
    """BM25 normalised to [0, 1] within the candidate set, or None without keyword match."""
    fused: float
    """The fused relevance in [0, 1] (weighted sum or min-max-normalised RRF)."""
    quality_factor: float
    """Seed 000's ``q_adjust``."""
    quality_weight: float
    """Seed 000's ``qual`` (from the external score, with the soft floor)."""
    rank_score: float
    """``(0.7*fused + 0.3*qual) * q_adjust`` (seed 000)."""
    recency: float
    """``exp(-decay_rate * age_hours)``."""
    final: float
    """What hits are sorted by."""
    dense: float | None = None
    """The dense leg after session context (neighbours and session) is blended in."""
    keyword: float | None = None
    """The keyword leg after session context is blended in."""
    dampening: float = 1.0
    """Seed 004's post-fusion dampening (gravity x hub x resolution) applied to ``fused``
    before quality weighting: ``rank_score = (0.7*fused*dampening + 0.3*qual) * q_adjust``;
    1.0 when no stage touched the hit."""
    rerank: float | None = None
    """The reranker's relevance in [0, 1] when one scored the hit; the hit's ``score`` is
    then its blend with ``final`` (``recall.rerank``), and ``final`` stays the pipeline's."""
    restates: str | None = None
    """The earlier hit this change was moved above (recall/restated.py); floored with it."""

    def to_dict(self) -> dict[str, float | str | None]:
        """A JSON-ready dict."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class Hit:
    """A recalled memory with its score and how the score was made."""

    memory: MemoryRecord
    score: float
    breakdown: ScoreBreakdown

    @property
    def id(self) -> str:
        """The memory's id."""
        return self.memory.id

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "id": self.memory.id,
            "score": self.score,
            "breakdown": self.breakdown.to_dict(),
            "memory": self.memory.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Recall:
    """What ``Memory.recall`` returns: hits, the tier that answered, and timings."""

    query: str
    hits: tuple[Hit, ...]
    mode: RecallMode
    timings: dict[str, float]
    """Milliseconds per stage, plus ``total``."""
    context: str
    """The formatted block to inject into a prompt; empty when nothing matched."""
    warnings: tuple[str, ...] = ()
    transcripts: dict[str, str] = field(default_factory=dict)
    """With ``expand=True``: session key -> raw transcript behind the hits (seed 004)."""
    abstain_reason: str | None = None
    """Why recall returned nothing although candidates were found (nothing stored is
    related enough: ``recall.abstain``); None when it did not abstain."""
    empty: EmptyAnswer | None = None
    """Why no memory reached the context (issue 24), with the numbers behind it; None
    when one did. ``empty_reason`` and ``empty_message`` read it."""
    low_confidence: bool = False
    """The abstain decision was unsure (issue 24): the context carries at most one hit,
    "Possibly related" (``recall.low_confidence``; docs/recall.md)."""
    shown: tuple[str, ...] = ()
    """Ids of the hits whose text reached ``context``, in rank order (flagged, unsure: out)."""
    standing: tuple[Hit, ...] = ()  # a request's standing items: recall/standing_items.py

    @property
    def abstained(self) -> bool:
        """True when recall judged that nothing stored matches (``abstain_reason``)."""
        return self.abstain_reason is not None

    @property
    def empty_reason(self) -> str | None:
        """Why no memory reached the context, as a code (``engram.recall.empty.
        EmptyReason``: ``empty_namespace``, ``no_match``, ``filtered``,
        ``min_relevance``, ``abstained``, ``budget``, ``flagged``); None when one did."""
        return None if self.empty is None else self.empty.reason.value

    @property
    def empty_message(self) -> str | None:
        """Why no memory reached the context, in one line naming this library's
        settings (``budget_tokens=57``); None when one did."""
        return None if self.empty is None else self.empty.message()

    def __len__(self) -> int:
        return len(self.hits)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "query": self.query,
            "mode": self.mode.value,
            "hits": [h.to_dict() for h in self.hits],
            "timings": self.timings,
            "context": self.context,
            "warnings": list(self.warnings),
            "transcripts": dict(self.transcripts),
            "abstained": self.abstained,
            "abstain_reason": self.abstain_reason,
            "empty_reason": self.empty_reason,
            "empty_message": self.empty_message,
            "empty_details": None if self.empty is None else self.empty.to_dict(),
            "low_confidence": self.low_confidence,
            "shown": list(self.shown),
            "standing": [h.to_dict() for h in self.standing],
        }


class Outcome(StrEnum):
    """What happened to one item of a batch write."""

    STORED = "stored"
    """New: written now."""
    DUPLICATE = "duplicate"
    """The same content was already stored in its namespace; the item is that memory."""
    BLOCKED = "blocked"
    """The injection scan refused it (``reasons`` says why); nothing was written."""
    INVALID = "invalid"
    """The item was not a valid memory (``reason`` says why); nothing was written."""


@dataclass(frozen=True, slots=True)
class Merged:
    """What a duplicate write (same normalised content, seed 004's hash) did to the
    memory that already held its content (issue 26): its new tags and metadata keys
    are merged in, audited by a ``merge`` history row; every other field stays as
    stored, and the ones this write gave another value are named in ``kept``."""

    tags: tuple[str, ...] = ()
    """Tags the write added to the stored memory."""
    metadata: tuple[str, ...] = ()
    """Metadata keys the write added to the stored memory."""
    kept: tuple[str, ...] = ()
    """Fields the write set differently, which the stored memory keeps: ``type``,
    ``title`` ..., ``metadata.KEY`` for a key it already had with another value."""

    def summary(self) -> str:
        """One line for people: what was added and what was kept."""
        parts = []
        if self.tags:
            parts.append(f"added tags {', '.join(self.tags)}")
        if self.metadata:
            parts.append(f"added metadata {', '.join(self.metadata)}")
        if self.kept:
            parts.append(f"kept the stored {', '.join(self.kept)}")
        return "; ".join(parts) if parts else "nothing new to merge"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"tags": list(self.tags), "metadata": list(self.metadata), "kept": list(self.kept)}


@dataclass(frozen=True, slots=True)
class ItemResult:
    """One item of ``Memory.add_many``: its position, what happened, and the memory."""

    index: int
    outcome: Outcome
    record: MemoryRecord | None = None
    """The stored memory (new, or the existing one for a duplicate); None otherwise."""
    reason: str | None = None
    """Why the item was blocked or invalid; for a duplicate, what the merge did."""
    reasons: tuple[str, ...] = ()
    """For a blocked item: each rule of the injection scan that matched."""
    jobs: tuple[str, ...] = ()
    """The write pipeline's jobs queued for a stored item (``extract``, ``hints``)."""
    warnings: tuple[str, ...] = ()
    """What went wrong after the memory was stored: "stored without a vector" when
    embedding it or storing its vector failed (the record's ``embedding_model`` is
    None; ``reindex`` or the server's filler at its next start adds the vector)."""
    duplicate_of: str | None = None
    """For a duplicate: the id of the memory that already held this content (``record``
    is that memory, with what this write added merged in)."""
    merged: Merged | None = None
    """For a duplicate: what the write added to the stored memory, and what it kept."""

    @property
    def created(self) -> bool:
        """True when this item was written now (not a duplicate, not refused)."""
        return self.outcome is Outcome.STORED

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "index": self.index,
            "outcome": self.outcome.value,
            "created": self.created,
            "id": None if self.record is None else self.record.id,
            "reason": self.reason,
            "reasons": list(self.reasons),
            "jobs": list(self.jobs),
            "warnings": list(self.warnings),
            "duplicate_of": self.duplicate_of,
            "merged": None if self.merged is None else self.merged.to_dict(),
            "memory": None if self.record is None else self.record.to_dict(),
        }


class RecordList(Sequence[MemoryRecord]):
    """A read-only sequence of memories that behaves like a list (indexing, ``len``,
    iteration, ``== [...]``), with more to say about how it was made."""

    __slots__ = ()

    @property
    def records(self) -> tuple[MemoryRecord, ...]:
        """The memories, in order."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.records)

    @overload
    def __getitem__(self, index: int) -> MemoryRecord: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[MemoryRecord]: ...

    def __getitem__(self, index: int | slice) -> MemoryRecord | Sequence[MemoryRecord]:
        return self.records[index]

    def __iter__(self) -> Iterator[MemoryRecord]:
        return iter(self.records)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list | tuple):
            return list(self.records) == list(other)
        if isinstance(other, RecordList):
            return type(self) is type(other) and self.records == other.records
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class BatchResult(RecordList):
    """What ``Memory.add_many`` did: one ``ItemResult`` per input item, in input order.

    As a sequence it holds the memories now in the store for the stored and duplicate
    items, in input order, so ``for record in mem.add_many(...)`` keeps working; the
    refused items are in ``blocked`` and ``invalid``.
    """

    __slots__ = ("items",)

    def __init__(self, items: Iterable[ItemResult]) -> None:
        self.items: tuple[ItemResult, ...] = tuple(items)

    @property
    def records(self) -> tuple[MemoryRecord, ...]:
        """The memories of the stored and duplicate items, in input order."""
        return tuple(i.record for i in self.items if i.record is not None)

    def of(self, outcome: Outcome) -> tuple[ItemResult, ...]:
        """The items with this outcome."""
        return tuple(i for i in self.items if i.outcome is outcome)

    @property
    def blocked(self) -> tuple[ItemResult, ...]:
        """Items the injection scan refused."""
        return self.of(Outcome.BLOCKED)

    @property
    def invalid(self) -> tuple[ItemResult, ...]:
        """Items that were not valid memories."""
        return self.of(Outcome.INVALID)

    @property
    def counts(self) -> dict[str, int]:
        """How many items had each outcome (every outcome is a key)."""
        return {o.value: len(self.of(o)) for o in Outcome}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the counts and every item."""
        return {"counts": self.counts, "items": [i.to_dict() for i in self.items]}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BatchResult):
            return self.items == other.items
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"BatchResult({self.counts})"


class Page(RecordList):
    """One page of ``Memory.get_all``: the memories, and where the page sits.

    ``total`` (how many memories match the filters, across all pages) is counted on
    first use, so a caller that only iterates never pays for the count.
    """

    __slots__ = ("_records", "_total", "_count", "limit", "offset")

    def __init__(
        self,
        records: Iterable[MemoryRecord],
        *,
        limit: int,
        offset: int,
        total: int | Callable[[], int],
    ) -> None:
        self._records = tuple(records)
        self.limit = limit
        self.offset = offset
        self._total: int | None = total if isinstance(total, int) else None
        self._count = None if isinstance(total, int) else total

    @property
    def records(self) -> tuple[MemoryRecord, ...]:
        """The memories of this page, in order."""
        return self._records

    @property
    def total(self) -> int:
        """How many memories match the filters, on every page."""
        if self._total is None:
            assert self._count is not None
            self._total = self._count()
        return self._total

    def to_dict(self) -> dict[str, Any]:
        """The list shape of every surface: ``{items, total, limit, offset}``."""
        return {
            "items": [r.to_dict() for r in self._records],
            "total": self.total,
            "limit": self.limit,
            "offset": self.offset,
        }

    def __repr__(self) -> str:
        return f"Page({len(self._records)} of {self._total if self._total is not None else '?'})"


@dataclass(frozen=True, slots=True)
class ApiKey(Record):
    """An API key of the HTTP API, as stored: who it is for, never the secret itself. It
    reaches its ``user``'s namespaces (``user:<user>``, ``user:<user>/...``), an ``admin``
    key every one; one with an ``agent`` acts only as that agent (``keys.Principal``)."""

    id: str
    user: str
    admin: bool = False
    name: str | None = None  # a label, e.g. which service holds the key
    created_at: datetime = field(default_factory=utcnow)
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None
    agent: str | None = None  # last: the store's columns are read in field order

    @property
    def revoked(self) -> bool:
        """True once the key is revoked; a revoked key never authenticates again."""
        return self.revoked_at is not None


def iso(value: datetime) -> str:
    """ISO 8601 in UTC with a ``Z``, the one timestamp shape of every surface (naive
    times count as UTC)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def new_id() -> str:
    """A 32-hex-char id that sorts by creation time (48-bit ms clock + 80 random bits)."""
    millis = int(utcnow().timestamp() * 1000)
    return f"{millis:012x}{secrets.token_hex(10)}"

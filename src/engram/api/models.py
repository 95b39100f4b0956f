"""Request and response models of the HTTP API: strict in, precise out.

Every request model forbids unknown fields, so a typo is a 422, not a silently ignored
option. Response models mirror the library's records (``MemoryRecord.to_dict`` and
friends) so the OpenAPI spec says exactly what comes back. The library still validates
everything again: these models describe the wire format, they hold no rules of their own
beyond types and ranges.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from engram.recall.empty import EmptyReason
from engram.records import MemoryCategory, MemoryType, RecallMode

#: Request models refuse unknown fields (a typo is a 422, not a silent default).
STRICT = ConfigDict(extra="forbid")

Namespace = Field(
    default=None,
    pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$",
    description="Explicit namespace; wins over the ids. A user key may use `user:<user>` "
    "and `user:<user>/...`.",
)
#: Ids may name a namespace (``agent:<id>``), so they use the namespace characters.
Id = Field(default=None, pattern=r"^[A-Za-z0-9_.:@/+-]{1,190}$")
Tag = Annotated[str, Field(min_length=1, max_length=200, pattern=r"\S")]
Text = Annotated[str, Field(min_length=1, pattern=r"\S")]
#: Numbers are strict: lax mode would take ``true`` as 1 and ``"9"`` as 9.0 (an int is
#: still a valid float: ``importance: 1`` is 1.0).
Ratio = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False, strict=True)


class Scope(BaseModel):
    """Who a call is for (the library's namespace rule)."""

    model_config = STRICT

    namespace: str | None = Namespace
    user_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,190}$",
        description="Names the namespace `user:<user_id>` when no namespace is given.",
    )
    agent_id: str | None = Id
    run_id: str | None = Id

    def scope_args(self) -> dict[str, str | None]:
        """The scope as keyword arguments of the library's verbs."""
        return {
            "namespace": self.namespace,
            "user_id": self.user_id,
            "agent_id": self.agent_id,
            "run_id": self.run_id,
        }


class Message(BaseModel):
    """One chat message; a list of them is stored as one memory of type ``message``."""

    model_config = STRICT

    role: str = Field(max_length=100)
    content: str


class MemoryFields(BaseModel):
    """The optional fields of a new memory (``Memory.add``'s keyword arguments)."""

    model_config = STRICT

    metadata: dict[str, Any] | None = None
    tags: list[Tag] | None = Field(default=None, max_length=1000)
    type: MemoryType | None = None
    category: MemoryCategory | None = None
    importance: float | None = Ratio
    score: float | None = Field(default=None, ge=0.0, le=10.0, allow_inf_nan=False, strict=True)
    confidence: float | None = Ratio
    title: str | None = None
    narrative: str | None = None
    facts: list[Text] | None = Field(default=None, max_length=1000)
    session_id: str | None = Field(default=None, max_length=200)
    who: str | None = None
    why: str | None = None
    created_at: datetime | None = Field(
        default=None, description="Import history with its real date (ISO 8601)."
    )

    def field_args(self) -> dict[str, Any]:
        """The fields that were given, as ``Memory.add`` keyword arguments."""
        names = MemoryFields.model_fields
        return {name: getattr(self, name) for name in names if getattr(self, name) is not None}


class MemoryIn(Scope, MemoryFields):
    """``POST /v1/memories``: text, or a chat as a list of messages."""

    # A plain ``str``, not ``Text``: blank content is the library's EmptyContentError
    # ("content is empty"), not pydantic's wording for each side of the union.
    content: str | list[Message] = Field(
        description="The text to remember verbatim, or a list of {role, content} messages "
        "stored as one memory of type `message`."
    )

    def content_arg(self) -> str | list[dict[str, str]]:
        """What ``Memory.add`` takes as content."""
        if isinstance(self.content, str):
            return self.content
        return [m.model_dump() for m in self.content]


class BatchItem(MemoryFields):
    """One item of ``POST /v1/memories/batch``."""

    content: str | list[Message]  # blank: the library's EmptyContentError, as in MemoryIn

    def item(self, scope: dict[str, str | None]) -> dict[str, Any]:
        """The dict ``Memory.add_many`` takes, in the batch's scope."""
        content = self.content
        out: dict[str, Any] = self.field_args()
        out["content"] = content if isinstance(content, str) else [m.model_dump() for m in content]
        out.update({k: v for k, v in scope.items() if v is not None})
        return out


class BatchIn(Scope):
    """``POST /v1/memories/batch``: many memories into one scope."""

    items: list[BatchItem] = Field(min_length=1, max_length=10_000)
    on_blocked: Literal["skip", "raise", "flag"] = Field(
        default="skip",
        description="An item the injection scan blocks: 'skip' stores the others and "
        "reports it; 'raise' answers 422 and stores nothing; 'flag' stores it flagged "
        "(kept out of recall's context), for a record of what was said such as a chat log.",
    )
    on_invalid: Literal["skip", "raise"] = Field(
        default="raise",
        description="An item that is not a valid memory (empty, too long, bad date...): "
        "'raise' answers 422 and stores nothing; 'skip' stores the others and reports it.",
    )


class RememberIn(MemoryIn):
    """``POST /api/memory/remember`` (seed 004): a memory, optionally with its transcript."""

    # A transcript needs a session: ``session_key`` or its seed 004 alias ``sourceId``.
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "dependentSchemas": {
                "transcript": {"anyOf": [{"required": ["session_key"]}, {"required": ["sourceId"]}]}
            }
        },
    )

    session_key: str | None = Field(
        default=None,
        max_length=200,
        description="The session the memory came from (stored as its session_id).",
    )
    source_id: str | None = Field(
        default=None,
        alias="sourceId",
        max_length=200,
        description="Seed 004's name for session_key (FEATURES S12); give one of the two.",
    )
    transcript: str | None = Field(
        default=None,
        min_length=1,
        description="The session's raw transcript; needs session_key. Kept once, verbatim.",
    )

    @model_validator(mode="after")
    def _transcript_needs_session(self) -> RememberIn:
        if self.source_id is not None:
            if self.session_key is not None and self.session_key != self.source_id:
                raise ValueError(
                    "sourceId and session_key name different sessions; sourceId is seed "
                    "004's name for session_key, so pass one of them"
                )
            self.session_key = self.source_id
        if self.session_key and self.session_id and self.session_key != self.session_id:
            raise ValueError("session_key and session_id differ; pass one of them")
        if self.transcript is not None and not self.session_key:
            raise ValueError("a transcript needs a session_key (or its alias sourceId)")
        return self

    @property
    def session(self) -> str | None:
        """The session key, from either field."""
        return self.session_key or self.session_id


class MemoryUpdate(BaseModel):
    """``PATCH /v1/memories/{id}``: the fields to change (at least one)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    content: str | None = None
    metadata: dict[str, Any] | None = None
    tags: list[Tag] | None = Field(default=None, max_length=1000)
    type: MemoryType | None = None
    category: MemoryCategory | None = None
    importance: float | None = Ratio
    score: float | None = Field(default=None, ge=0.0, le=10.0, allow_inf_nan=False, strict=True)
    title: str | None = None

    def changes(self) -> dict[str, Any]:
        """The given fields as ``Memory.update`` keyword arguments."""
        return self.model_dump(exclude_none=True)


class ListQuery(Scope):
    """Query parameters of ``GET /v1/memories``."""

    type: MemoryType | None = None
    category: MemoryCategory | None = None
    tags: list[str] = Field(default_factory=list, description="Repeat for 'all of these'.")
    session_id: str | None = Field(default=None, max_length=200)
    metadata: str | None = Field(
        default=None,
        max_length=10_000,
        description='Metadata equality filter as a JSON object, e.g. {"source":"runbook"}.',
    )
    limit: int = Field(default=100, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)
    include_deleted: bool = False


#: A palace wing or room (docs/palace.md): a name, alias or code (``W-001``), or its
#: number. Numbers are strict (``true`` is not 1) and bounded like the palace's counters.
Place = (
    Annotated[str, Field(min_length=1, max_length=200, pattern=r"\S")]
    | Annotated[int, Field(ge=1, le=2**31 - 1, strict=True)]
)


class RecallSettings(BaseModel):
    """Per-call recall overrides shared by search and recall."""

    model_config = STRICT

    filters: dict[str, Any] | None = Field(
        default=None,
        description="Record fields (type, category, user_id, agent_id, run_id, "
        "session_id), tags (all of) and metadata written as 'metadata.<key>'; a value is "
        "equality, a list or {'$in': [...]} any of these. Any other key or operator is a "
        "422 naming the supported ones.",
    )
    wing: Place | None = Field(
        default=None,
        description="Only memories filed in this palace wing (name, alias, W-001 code or "
        "number); an unknown wing is a 404.",
    )
    room: Place | None = Field(
        default=None,
        description="Only memories filed in this room of `wing` (name, alias or number); "
        "needs `wing`.",
    )
    fusion: Literal["weighted", "rrf"] | None = None
    strategy: Literal["hybrid", "dense", "bm25"] | None = None
    min_relevance: float | None = Field(
        default=None,
        ge=0.0,
        le=10.0,
        allow_inf_nan=False,
        description="A floor on hit scores for this call; set (0 included), it replaces "
        "the abstain decision, so 0 returns the nearest memories even when none is related.",
    )
    abstain: bool | None = Field(
        default=None,
        description="false: never return nothing because nothing looked related "
        "(default: the [recall] abstain setting).",
    )

    def overrides(self) -> dict[str, Any]:
        """Recall settings to override for this call."""
        chosen = {
            "fusion": self.fusion,
            "strategy": self.strategy,
            "min_relevance": self.min_relevance,
            "abstain": self.abstain,
        }
        return {k: v for k, v in chosen.items() if v is not None}


class SearchIn(Scope, RecallSettings):
    """``POST /v1/search``."""

    query: str = Field(min_length=1, max_length=100_000, pattern=r"\S")
    limit: int = Field(default=10, ge=1, le=1000, strict=True)


class RecallIn(Scope, RecallSettings):
    """``POST /v1/recall`` and ``POST /api/memory/recall`` (seed 004)."""

    query: str = Field(min_length=1, max_length=100_000, pattern=r"\S")
    limit: int | None = Field(
        default=None, ge=1, le=1000, strict=True, description="Default 4 (seed 000)."
    )
    budget_tokens: int | None = Field(default=None, ge=1, le=10_000_000, strict=True)
    expand: bool = Field(
        default=False, description="Join the raw transcripts of the hits' sessions (seed 004)."
    )
    cite: Literal["id", "pointer"] = Field(
        default="id",
        description='"pointer": the context block cites palace drawers by AAAK pointer '
        "(§ W-001/R-01/D-003 ...) instead of by id; other memories keep their id.",
    )
    session_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="Record the memories that reached the context as injected into this "
        "session (continuity scoring, docs/sessions.md).",
    )


class TranscriptIn(Scope):
    """``POST /v1/transcripts``: a session's raw transcript, kept once."""

    session_key: str = Field(min_length=1, max_length=200, pattern=r"\S")
    content: Text


def _exact_rating(value: object) -> object:
    # true, 1.0 equal 1; one message for rating's anyOf (two enums: generators drop mixed)
    if isinstance(value, bool | float) or value not in (1, -1, "up", "down"):
        raise ValueError(f"rating must be 1, -1, 'up' or 'down', got {value!r}")
    return value


class FeedbackIn(BaseModel):
    """``POST /api/memories/{id}/feedback`` (seed 000): thumbs up or down."""

    model_config = STRICT

    rating: Annotated[Literal[1, -1] | Literal["up", "down"], BeforeValidator(_exact_rating)]
    comment: str | None = Field(default=None, max_length=10_000)


class PurgeIn(Scope):
    """``POST /v1/purge``: hard-delete tombstones of a namespace (admin: of all)."""

    all_namespaces: bool = False


class ReindexIn(BaseModel):
    """``POST /v1/reindex`` (admin): embed memories lacking a current vector."""

    model_config = STRICT

    rebuild: bool = False


# -- responses -------------------------------------------------------------------------
class MemoryOut(BaseModel):
    """One stored memory (``MemoryRecord``)."""

    id: str
    namespace: str
    content: str
    content_hash: str
    type: MemoryType
    category: MemoryCategory | None
    title: str | None
    narrative: str | None
    facts: list[str]
    tags: list[str]
    importance: float | None
    quality: int
    score: float | None
    confidence: float | None
    user_id: str | None
    agent_id: str | None
    run_id: str | None
    session_id: str | None
    source_memory_id: str | None
    document_id: str | None
    who: str | None
    why: str | None
    extraction_model: str | None
    embedding_model: str | None
    superseded_by: str | None = Field(
        default=None, description="The memory that replaced this one, if any."
    )
    metadata: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None


class Page(BaseModel):
    """The shape of every list response (docs/http.md's list convention): a page of
    ``items`` and the paging that fetched it. A list model narrows ``items`` and may
    describe ``total``; a field it redeclares keeps its place, so every list's JSON
    reads items, total, limit, offset."""

    items: list[Any]
    total: int
    limit: int
    offset: int


def page(items: Iterable[Any], total: int, limit: int, offset: int) -> dict[str, Any]:
    """A ``Page``'s body: ``items`` (records as their ``to_dict()``, dicts as they
    are), ``total`` and the paging that fetched them."""
    rows = [i if isinstance(i, dict) else i.to_dict() for i in items]
    return {"items": rows, "total": total, "limit": limit, "offset": offset}


class MemoryList(Page):
    """A page of memories, newest first: the list shape of every surface."""

    items: list[MemoryOut]
    total: int = Field(description="How many memories match the filters, on every page.")


class Breakdown(BaseModel):
    """How a hit's score was made (``ScoreBreakdown``)."""

    sim: float | None
    bm25: float | None
    fused: float
    quality_factor: float
    quality_weight: float
    rank_score: float
    recency: float
    final: float
    dense: float | None = Field(
        default=None, description="The dense leg after session context, before fusion."
    )
    keyword: float | None = Field(
        default=None, description="The keyword leg after session context, before fusion."
    )
    dampening: float = Field(
        default=1.0,
        description="Post-fusion dampening multiplier on fused (gravity x hub x resolution).",
    )
    rerank: float | None = Field(
        default=None, description="The reranker's relevance in [0, 1], when one scored the hit."
    )
    restates: str | None = Field(
        default=None,
        description="The id of the earlier hit this change of it was moved above, if any.",
    )


class HitOut(BaseModel):
    """A ranked memory with its score breakdown."""

    id: str
    score: float
    breakdown: Breakdown
    memory: MemoryOut


class EmptyDetails(BaseModel):
    """The numbers behind an empty answer (``EmptyAnswer``); fields that do not apply to
    its reason are null (or empty lists)."""

    reason: EmptyReason
    namespace: str
    candidates: int = Field(
        description="Memories the stage that emptied the answer started from (filtered: "
        "what the query found before the filters; min_relevance, abstained: the hits)."
    )
    similar_namespaces: list[str] = Field(
        description="empty_namespace: namespaces this key may read whose name is near."
    )
    filters: list[str] = Field(
        description="filtered: what the recall filtered on (filters.<key>, user_id, "
        "agent_id, run_id, wing, room)."
    )
    best_score: float | None = Field(description="min_relevance: the best hit's score.")
    min_relevance: float | None = Field(description="min_relevance: the floor it fell below.")
    budget_tokens: int | None = Field(description="budget: the budget asked for.")
    needed_tokens: int | None = Field(description="budget: the tokens the best hit needs.")
    detail: str | None = Field(
        description="abstained: the decision's reason; no_match: how recall searched."
    )


class SearchOut(BaseModel):
    """Ranked hits, the tier that answered, and timings."""

    query: str
    mode: RecallMode
    hits: list[HitOut]
    timings: dict[str, float]
    warnings: list[str]
    abstained: bool = Field(
        description="True when nothing stored looked related, so hits and context are "
        "empty (the calibrated floor; docs/recall.md, 'When nothing matches')."
    )
    abstain_reason: str | None = Field(description="Why recall abstained; null when it did not.")
    empty_reason: EmptyReason | None = Field(
        default=None,
        description="Why no memory reached the answer: empty_namespace, no_match, filtered "
        "(by filters, ids, wing or room), min_relevance, abstained, budget (budget_tokens "
        "too small for the best hit) or flagged (every hit flagged by the injection scan); "
        "null when one did (docs/http.md, 'Empty answers').",
    )
    empty_message: str | None = Field(
        default=None,
        description="The same in one line, naming the request fields that would change it.",
    )
    empty_details: EmptyDetails | None = Field(
        default=None, description="The numbers behind empty_reason; null when it is null."
    )
    low_confidence: bool = Field(
        default=False,
        description="True when the abstain decision was unsure: the hits may be unrelated and "
        "the context holds at most one, under 'Possibly related' (docs/recall.md).",
    )


class RecallOut(SearchOut):
    """``Recall``: hits, the context block, and with ``expand`` the transcripts."""

    context: str
    transcripts: dict[str, str] = Field(description="Session key -> raw transcript.")
    shown: list[str] = Field(
        default_factory=list,
        description="Ids of the hits whose text reached the context, in rank order.",
    )
    standing: list[HitOut] = Field(
        default_factory=list,
        description="A request's standing block: the user's standing instructions and "
        "preferences nearest it, beside the hits (docs/recall.md).",
    )


class HistoryOut(BaseModel):
    """One audit row."""

    id: int
    memory_id: str
    namespace: str
    event: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    actor: str | None
    reason: str | None
    created_at: datetime


class TranscriptOut(BaseModel):
    """Whether the transcript was stored."""

    namespace: str
    session_key: str
    stored: bool = Field(description="False when the session already had a transcript.")


class FeedbackRow(BaseModel):
    """One row of the feedback log."""

    id: int
    memory_id: str
    rating: int
    comment: str | None
    created_at: datetime


class FeedbackLog(BaseModel):
    """The feedback log of a namespace, oldest first."""

    namespace: str
    feedback: list[FeedbackRow]


class CountOut(BaseModel):
    """How many records an operation touched."""

    count: int


class HealthOut(BaseModel):
    """Liveness."""

    status: Literal["ok"]
    engram: str


class ErrorOut(BaseModel):
    """Every error: a stable machine-readable code and a message saying what to fix."""

    error: str = Field(description="e.g. unauthorized, forbidden, not_found, invalid_input")
    detail: str
    reasons: list[str] | None = Field(
        default=None, description="For injection_blocked: what the scan found."
    )

"""What the MCP tools of ``engram.mcp.server`` return: small models an agent reads, and
their builders from the library's records."""

from typing import Any

from pydantic import BaseModel, Field

from engram.recall.empty import EmptyReason, Wording
from engram.records import Hit, MemoryRecord, Recall, iso

#: How much of a memory's content search and list results show; recall_memory has it all.
PREVIEW_CHARS = 300

#: The tools' names for recall's settings, for the messages of empty answers: a tool
#: has no floor, abstain switch or namespace to choose, so those get no advice.
WORDING = Wording(
    names={
        "min_relevance": None,
        "abstain": None,
        "namespace": None,
        "user_id": None,
        "agent_id": None,
        "run_id": None,
    },
    style="json",
    filter_key="{}",
)
#: Empty answers ``get_context`` explains in a line: related memories exist, but the
#: tool's own arguments (or the injection scan) kept them out. Any other empty answer
#: is "" (nothing related: new ground).
_NOTED = (EmptyReason.BUDGET, EmptyReason.FILTERED, EmptyReason.FLAGGED)


def context_note(result: Recall) -> str:
    """The line ``get_context`` adds when related memories were kept out; "" otherwise."""
    if result.empty is None or result.empty.reason not in _NOTED:
        return ""
    return f"(no memory shown: {result.empty.message(WORDING)})"


class Remembered(BaseModel):
    """What ``remember`` did."""

    id: str = Field(description="The memory's id.")
    created: bool = Field(
        description="True if stored now; false if the same content was already stored "
        "(then id is that memory's)."
    )
    jobs: list[str] = Field(
        default_factory=list,
        description="The write pipeline's jobs queued for the new memory (extract: facts "
        "and entities; hints: future questions it answers). They run in the background.",
    )
    duplicate_of: str | None = Field(
        default=None,
        description="For a duplicate: the id of the memory that already held this content.",
    )
    merged: str | None = Field(
        default=None,
        description="For a duplicate: the tags and metadata merged into that memory and "
        "the fields it kept as stored.",
    )


class MemorySummary(BaseModel):
    """One memory with its content shortened."""

    id: str
    title: str | None
    content: str = Field(description=f"The first {PREVIEW_CHARS} characters of the content.")
    truncated: bool = Field(description="True if content was shortened: use recall_memory.")
    type: str
    tags: list[str]
    quality: int = Field(description="Accumulated feedback, from -3 to +3.")
    created_at: str


class HitView(MemorySummary):
    """One ranked search hit."""

    score: float = Field(description="Final rank score; higher is better.")


class SearchResult(BaseModel):
    """Ranked hits and which retrieval tier answered."""

    mode: str = Field(description="hybrid, dense, keyword or recent: the tier that answered.")
    hits: list[HitView]
    warnings: list[str] = Field(description="Why recall degraded, if it did.")
    abstained: bool = Field(
        default=False,
        description="True when nothing stored looked related: hits is empty on purpose.",
    )
    abstain_reason: str | None = Field(
        default=None, description="Why nothing was returned; null when something was."
    )
    empty_reason: str | None = Field(
        default=None,
        description="Why hits is empty: empty_namespace (nothing stored here yet), no_match, "
        "filtered (type, tags, metadata, wing or room excluded every match), "
        "min_relevance, abstained (nothing looked related) or flagged; null when it is not.",
    )
    empty_message: str | None = Field(
        default=None, description="The same in one line, naming the arguments to change."
    )
    low_confidence: bool = Field(
        default=False,
        description="True when the hits are only possibly related (the decision was unsure).",
    )


class MemoryView(BaseModel):
    """One memory, whole."""

    id: str
    content: str
    title: str | None
    narrative: str | None
    facts: list[str]
    type: str
    category: str | None
    tags: list[str]
    importance: float | None
    quality: int
    score: float | None
    metadata: dict[str, Any]
    user_id: str | None
    agent_id: str | None
    run_id: str | None
    session_id: str | None
    created_at: str
    updated_at: str


class RecallResult(BaseModel):
    """The memories asked for by id."""

    memories: list[MemoryView]
    not_found: list[str] = Field(description="Ids that are not (or no longer) stored here.")


class Forgotten(BaseModel):
    """A memory ``forget`` removed from recall."""

    id: str
    forgotten: bool = True


class Rated(BaseModel):
    """A memory after ``feedback``."""

    id: str
    quality: int = Field(description="Accumulated feedback after this rating, -3 to +3.")


class MemoryPage(BaseModel):
    """One page of memories, newest first (the list shape of every surface)."""

    items: list[MemorySummary]
    total: int = Field(description="How many memories match, on every page.")
    limit: int
    offset: int
    next_offset: int | None = Field(
        description="Pass as offset for the next page; null at the end."
    )


def summary_of(record: MemoryRecord) -> MemorySummary:
    content = record.content
    truncated = len(content) > PREVIEW_CHARS
    return MemorySummary(
        id=record.id,
        title=record.title,
        content=content[:PREVIEW_CHARS] + ("…" if truncated else ""),
        truncated=truncated,
        type=record.type.value,
        tags=list(record.tags),
        quality=record.quality,
        created_at=iso(record.created_at),
    )


def hit_view(hit: Hit) -> HitView:
    return HitView(**summary_of(hit.memory).model_dump(), score=round(hit.score, 6))


def whole_view(record: MemoryRecord) -> MemoryView:
    data = record.to_dict()
    return MemoryView(**{name: data[name] for name in MemoryView.model_fields})

"""Response models of the write endpoints (``POST /v1/memories``, ``/batch``,
``/api/memory/remember``): what was stored, and for a duplicate, which memory already
held the content and what the write merged into it (``engram.dedupe``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engram.api.models import MemoryOut


class MergedOut(BaseModel):
    """What a write of already-stored content did to the stored memory."""

    tags: list[str] = Field(description="Tags the write added to the stored memory.")
    metadata: list[str] = Field(description="Metadata keys the write added.")
    kept: list[str] = Field(
        description="Fields the write set differently that the stored memory keeps (type, "
        "title ..., metadata.KEY for a key it already had with another value)."
    )


_DUPLICATE_OF = Field(
    default=None,
    description="For a duplicate: the id of the memory that already held this content "
    "(normalised, seed 004); null when stored now.",
)
_MERGED = Field(
    default=None,
    description="For a duplicate: the tags and metadata merged into the stored memory "
    "(audited by a 'merge' history row) and the fields it kept.",
)


class CreatedOut(MemoryOut):
    """A memory ``POST /v1/memories`` stored, or the one already holding its content."""

    created: bool = Field(
        description="True if stored now (201); false if the same content was already "
        "stored in the namespace and this is that memory (200)."
    )
    jobs: list[str] = Field(
        default_factory=list,
        description="The write pipeline's jobs queued for a new memory (extract, hints).",
    )
    duplicate_of: str | None = _DUPLICATE_OF
    merged: MergedOut | None = _MERGED
    warnings: list[str] = Field(default_factory=list, description="Stored, but: vector pending.")


class ItemOut(BaseModel):
    """What happened to one item of a batch."""

    index: int = Field(description="The item's position in the request.")
    outcome: Literal["stored", "duplicate", "blocked", "invalid"]
    created: bool = Field(description="True only for a stored item.")
    id: str | None = Field(description="The memory's id (stored or duplicate), else null.")
    reason: str | None = Field(
        description="Why the item was blocked or invalid; for a duplicate, what was merged."
    )
    reasons: list[str] = Field(description="The injection scan's reasons for a blocked item.")
    jobs: list[str] = Field(
        default_factory=list, description="The pipeline's jobs queued for a stored item."
    )
    duplicate_of: str | None = _DUPLICATE_OF
    merged: MergedOut | None = _MERGED
    warnings: list[str] = Field(default_factory=list, description="Stored, but: vector pending.")


class BatchCounts(BaseModel):
    """How many items had each outcome."""

    stored: int
    duplicate: int
    blocked: int
    invalid: int


class BatchOut(BaseModel):
    """Per item: stored, duplicate, blocked (with the reason) or invalid; and the
    memories now in the store for the stored and duplicate items, in input order."""

    counts: BatchCounts
    items: list[ItemOut]
    memories: list[MemoryOut]


class RememberOut(BaseModel):
    """What ``remember`` stored."""

    memory: MemoryOut
    created: bool = Field(
        description="True if the memory was stored now; false if the same content was "
        "already stored (then memory is that one)."
    )
    transcript_stored: bool | None = Field(
        description="True if the transcript was stored, False if the session already had "
        "one, null if none was sent."
    )
    duplicate_of: str | None = _DUPLICATE_OF
    merged: MergedOut | None = _MERGED
    warnings: list[str] = Field(default_factory=list, description="Stored, but: vector pending.")

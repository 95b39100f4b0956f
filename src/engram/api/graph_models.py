"""Request and response models of the graph routes (``/v1/graph/...``).

Response models mirror the graph records' ``to_dict`` (``Entity``, ``Relation``,
``Aspect``, ``Attribute``, ``Neighbor``); request models forbid unknown fields like the
rest of the API. Names and dates are passed to ``mem.graph`` as sent: the library checks
them and says what is wrong.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from engram.api import models as m

#: Entity names and aliases: the library's own bound (``engram.graph`` MAX_NAME_CHARS).
Name = Field(min_length=1, max_length=200)
#: A date (``2024-06-01``: the end of that day, UTC) or an ISO 8601 time.
Moment = Field(
    default=None,
    min_length=1,
    max_length=64,
    description="A date (YYYY-MM-DD, meaning the end of that day in UTC) or an ISO 8601 time.",
)


# -- responses ------------------------------------------------------------------------
class EntityOut(BaseModel):
    """A person, project, item ... that memories mention."""

    id: int
    namespace: str
    name: str = Field(description="The first spelling seen.")
    canonical_name: str
    entity_type: str
    mentions: int = Field(description="How many memories mention it.")
    created_at: str
    updated_at: str
    aliases: list[str] = Field(description="Other canonical names that resolve to it.")


class AspectOut(BaseModel):
    """A named facet of an entity with a weight."""

    id: int
    entity_id: int
    namespace: str
    name: str
    canonical_name: str
    weight: float
    updated_at: str


class AttributeOut(BaseModel):
    """A structural fact about an entity, from one memory."""

    id: int
    entity_id: int
    namespace: str
    aspect_id: int | None
    memory_id: str
    content: str
    kind: str = Field(description="attribute or constraint.")
    importance: float
    created_at: str


class EntityDetail(EntityOut):
    """One entity with its aspects, structural facts and the memories that mention it."""

    aspects: list[AspectOut]
    attributes: list[AttributeOut]
    memory_ids: list[str] = Field(description="Live memories that mention it, oldest first.")


class RelationOut(BaseModel):
    """A typed link between two entities, valid from ``valid_from`` until ``valid_to``."""

    id: int
    namespace: str
    source: str
    relation_type: str
    target: str
    confidence: float = Field(description="The running average of the stating memories'.")
    mentions: int = Field(description="How many memories stated it.")
    strength: float
    valid_from: str
    valid_to: str | None = Field(description="When it stopped holding; null while it holds.")
    source_memory_id: str | None
    created_at: str
    source_entity_id: int
    target_entity_id: int


class EntityList(m.Page):
    """A page of entities, most mentioned first."""

    items: list[EntityOut]
    total: int = Field(description="How many entities match, on every page.")


class RelationList(m.Page):
    """A page of relations, by ``valid_from``."""

    items: list[RelationOut]
    total: int = Field(description="How many relations match, on every page.")


class TimelineOut(BaseModel):
    """An entity's whole history."""

    entity: EntityOut
    items: list[RelationOut]


class NeighborOut(BaseModel):
    """An entity reached through relations, and how many hops away."""

    entity: EntityOut
    hops: int


class NeighborsOut(BaseModel):
    """The entities within ``hops`` relations of one, nearest first."""

    entity: EntityOut
    hops: int
    at: str | None
    items: list[NeighborOut]


class DedupePairOut(BaseModel):
    """Two entities judged to be one: ``other`` merges (or would merge) into ``keep``."""

    keep: str = Field(description="The kept entity's canonical name.")
    other: str
    similarity: float = Field(description="1.0 for the name rules; the names' cosine.")
    reason: str = Field(description="normalised name, first name or embedding.")


class DedupeOut(BaseModel):
    """What ``dedupe`` found, and merged unless ``dry_run``."""

    pairs: list[DedupePairOut]
    scanned: int = Field(description="Entities of the namespace looked at.")
    merged: int = Field(description="Entities merged away (0 on a dry run).")
    dry_run: bool


# -- requests (scope fields and unknown-field refusal come from ``m.Scope``) ----------
class EntitiesQuery(m.Scope):
    """Filters of ``GET /v1/graph/entities``."""

    query: str | None = Field(default=None, min_length=1, max_length=200)
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class RelationsQuery(m.Scope):
    """Filters of ``GET /v1/graph/relations``."""

    entity: str | None = Field(default=None, min_length=1, max_length=200)
    at: str | None = Moment
    current: bool = Field(
        default=True, description="Only relations that hold now; false: closed ones too."
    )
    limit: int = Field(default=100, ge=1, le=10_000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class NeighborsQuery(m.Scope):
    """Options of ``GET /v1/graph/neighbors/{name}``."""

    hops: int = Field(default=1, ge=1, le=4)
    at: str | None = Moment
    limit: int = Field(default=100, ge=1, le=1000)


class MergeIn(m.Scope):
    """Fold entity ``other`` into ``keep``."""

    keep: str = Name
    other: str = Name


class SplitIn(m.Scope):
    """Turn ``alias`` of ``entity`` back into an entity of its own."""

    entity: str = Name
    alias: str = Name


class InvalidateIn(m.Scope):
    """Close the relation ``source -relation_type-> target`` that holds now."""

    source: str = Name
    relation_type: str = Field(min_length=1, max_length=100)
    target: str = Name
    at: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="When it stopped holding (default now): a date or an ISO 8601 time.",
    )


class DedupeIn(m.Scope):
    """Find (and with ``dry_run: false`` merge) entities that are one under two names."""

    threshold: float = Field(default=0.9, ge=0.0, le=1.0, allow_inf_nan=False, strict=True)
    dry_run: bool = True
    entity_type: str | None = Field(
        default=None, min_length=1, max_length=200, description="Only entities of this type."
    )


class DecayIn(m.Scope):
    """Run seed 004's aspect decay in the caller's namespace."""

    now: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="The time decay runs at (default now): a date or an ISO 8601 time.",
    )


class DecayOut(BaseModel):
    """What one aspect decay run did."""

    decayed: int = Field(description="Aspects that lost weight (stale past aspect_stale_days).")

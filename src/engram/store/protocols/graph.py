"""The graph part of a store: seed 004's entities, relations and mentions, with seed
003's validity windows (FEATURES G1, G2).

Entities are matched by their canonical name (lowercased, whitespace collapsed) or an
alias, per namespace. A relation links two entities with a type, a running-average
confidence and a mention count; it holds from ``valid_from`` until ``valid_to`` (None:
it still holds). A changed fact closes the old relation and adds a new one: nothing is
overwritten, so an entity's timeline is its full history. Every write is idempotent per
memory: processing the same memory twice changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: seed 004: the type of an entity whose type nobody has named yet.
UNKNOWN_TYPE = "unknown"
#: seed 004: a structural fact is an attribute of its entity or a constraint on it.
ATTRIBUTE_KINDS = ("attribute", "constraint")

#: Relation types that hold one value at a time for a given source: a new target closes
#: the current relation instead of adding a second one (seed 003: "swap-outs and changes
#: are recorded as new relations rather than overwrites"). Everything else is
#: multi-valued (Derek may own an efoil *and* a kayak). ``Graph.single_valued`` and the
#: ``single_valued=`` argument of ``record`` replace this set.
SINGLE_VALUED = frozenset(
    {
        "has_battery",
        "owns_battery",
        "lives_in",
        "located_in",
        "works_at",
        "works_for",
        "reports_to",
        "married_to",
        "has_role",
    }
)

#: (source, relationship, target, confidence): one extracted fact.
Triple = tuple[str, str, str, float]

_RELATION_SEPARATORS = re.compile(r"[\s\-]+")
#: "'s" or a bare "'" at the end of a word ("Caroline's", "James'"), straight or curly.
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s?(?=\s|$)")
#: Anything but letters, digits and whitespace.
_PUNCTUATION = re.compile(r"[^\w\s]|_")


def canonical_name(name: str) -> str:
    """seed 004: an entity's canonical name, lowercased with whitespace collapsed."""
    return " ".join(name.split()).lower()


def normal_name(name: str) -> str:
    """A looser key than ``canonical_name``, matched after it at ``record`` time:
    possessives dropped ("Caroline's" -> "caroline") and punctuation turned into spaces
    ("Dr. Smith" -> "dr smith"). Titles and plurals are kept: "Mr Smith" and "Mrs
    Smith" are often two people, and "James" is not the plural of "Jame"."""
    text = _POSSESSIVE.sub("", canonical_name(name))
    return " ".join(_PUNCTUATION.sub(" ", text).split())


def name_keys(name: str, loose: str | None = None) -> tuple[str, ...]:
    """The keys a name is matched by, in order: its canonical name, then its
    ``normal_name`` where that differs (``loose``: the normal name, already known).
    ``GraphStore.record`` and ``GraphStore.entity`` both match in this order."""
    key = canonical_name(name)
    loose = normal_name(key) if loose is None else loose
    return (key,) if loose == key else (key, loose)


def canonical_relation(relation_type: str) -> str:
    """A relation type as stored: lowercased, spaces and hyphens as ``_`` (so "lives
    in", "Lives-In" and "lives_in" are one type)."""
    return _RELATION_SEPARATORS.sub("_", relation_type.strip().lower()).strip("_")


@dataclass(frozen=True, slots=True)
class Entity(Record):
    """A person, project, item ... that memories mention."""

    id: int
    namespace: str
    name: str
    """The first spelling seen (original casing)."""
    canonical_name: str
    entity_type: str
    mentions: int
    """How many memories mention it (once per memory)."""
    created_at: datetime
    updated_at: datetime
    aliases: tuple[str, ...] = ()
    """Other canonical names that resolve to this entity."""


@dataclass(frozen=True, slots=True)
class Relation(Record):
    """A typed, time-bounded link between two entities."""

    id: int
    namespace: str
    source: str
    """The source entity's name."""
    relation_type: str
    target: str
    """The target entity's name."""
    confidence: float
    """seed 004: the running average of every stating memory's confidence."""
    mentions: int
    """How many memories stated it."""
    strength: float
    valid_from: datetime
    valid_to: datetime | None
    """When it stopped holding; None while it still holds."""
    source_memory_id: str | None
    """The memory that first stated it (None once that memory is purged)."""
    created_at: datetime
    source_entity_id: int
    target_entity_id: int

    @property
    def current(self) -> bool:
        """True while the relation still holds (no ``valid_to``)."""
        return self.valid_to is None


@dataclass(frozen=True, slots=True)
class Mention(Record):
    """A memory that mentions an entity (seed 004's ``memory_entity_mentions``)."""

    memory_id: str
    entity_id: int
    namespace: str
    mention_text: str
    """The raw string before canonicalization."""
    confidence: float


@dataclass(frozen=True, slots=True)
class Neighbor(Record):
    """An entity reached from another through relations, and how many hops away."""

    entity: Entity
    hops: int


@dataclass(frozen=True, slots=True)
class Attribute(Record):
    """A structural fact about an entity, from one memory (seed 004)."""

    id: int
    entity_id: int
    namespace: str
    aspect_id: int | None
    """The aspect it was classified under; None until classification."""
    memory_id: str
    content: str
    kind: str
    """``attribute`` or ``constraint``."""
    importance: float
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Aspect(Record):
    """A named facet of an entity (its "battery", its "career") with a weight."""

    id: int
    entity_id: int
    namespace: str
    name: str
    canonical_name: str
    weight: float
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Statement:
    """What one memory states, for ``GraphStore.record``: its triples and the names it
    mentions (name -> type), holding from ``valid_from``, written at ``now``."""

    memory_id: str
    triples: Sequence[Triple]
    valid_from: datetime
    now: datetime
    entity_types: Mapping[str, str] = field(default_factory=dict)
    single_valued: Collection[str] | None = None
    """The relation types this statement closes (issue 28: decided per statement by
    ``engram.pipeline.closing``); None: ``record``'s ``single_valued``."""


@dataclass(frozen=True, slots=True)
class Cardinality(Record):
    """How a relation type is held in a namespace (``relation_cardinality``)."""

    sources: int
    """Entities that are the source of at least one relation of the type."""
    multi: int
    """Of them, those holding two or more current targets at once."""
    closed: int
    """Relations of the type that were closed (a changed fact)."""


@dataclass(frozen=True, slots=True)
class RecordResult(Record):
    """What ``record`` did: the relation behind each triple, and counts."""

    relations: tuple[Relation, ...]
    """The relation that holds each triple, in the triples' order."""
    new_mentions: int = 0
    """Entity mentions this memory added (0 when it was processed before)."""
    added: int = 0
    """New relations that closed nothing (a fact not seen before)."""
    reinforced: int = 0
    """Existing relations this memory stated again (mentions + 1, confidence averaged)."""
    superseded: int = 0
    """New relations that closed the one holding before (a single-valued fact
    changed)."""
    unchanged: int = 0
    """Triples this memory had stated already."""


@dataclass(frozen=True, slots=True)
class BoostLookup(Record):
    """What ``GraphStore.boost_lookup`` found for a query (seed 004's graph boost)."""

    memory_ids: tuple[str, ...]
    """Live memories that mention a matched entity or one of its neighbours; those of
    matched entities first."""
    entities: tuple[int, ...] = ()
    """The entities the query's names matched, most mentioned first."""
    neighbors: tuple[int, ...] = ()
    """Entities one current relation away from them."""
    timed_out: bool = False
    """The deadline passed before every step ran: what was found so far."""


@runtime_checkable
class GraphStore(Protocol):
    """Entities, relations with validity windows and mentions; aspects and attributes
    live in ``AspectStore`` (``store.aspects``).

    Every call takes a namespace and never reads or writes outside it. Writes join an
    open ``store.transaction()``.
    """

    def record(
        self,
        namespace: str,
        statements: Sequence[Statement],
        *,
        single_valued: Collection[str],
    ) -> list[RecordResult]:
        """Persist what each memory states, idempotently, in one transaction: the same
        rows as recording the statements one by one, in order (a batch shares its
        lookups and writes its rows in a few statements).

        Entities are upserted by canonical name or alias; each gets ``mentions + 1``
        once per memory and a mention row. Names in ``entity_types`` that are in no
        triple are recorded as mentioned too. A relation this memory stated before is
        left alone; one another memory stated is reinforced (seed 004's running
        average); a new one is added from ``valid_from``. For a type in
        ``single_valued``, a different target closes the relation that held at
        ``valid_from`` (its ``valid_to`` becomes ``valid_from``). Relation types are
        stored by ``canonical_relation``. Returns one result per statement, its
        relations as they are once the whole batch is written. ``NotFoundError``
        (nothing written) if a memory is not a live memory of ``namespace``."""
        ...

    def add_alias(self, namespace: str, entity_id: int, alias: str) -> bool:
        """Make the canonical ``alias`` resolve to the entity; False if it already
        does. ``InvalidInputError`` if it names another entity."""
        ...

    def merge(self, namespace: str, keep_id: int, other_id: int, *, now: datetime) -> Entity:
        """Fold entity ``other_id`` into ``keep_id``: its mentions, relations (either
        end; a relation that then duplicates one of ``keep`` with an overlapping window
        is folded into it, mentions summed and confidence averaged; a self-relation is
        dropped), its canonical name and aliases (which become aliases of ``keep``).
        ``other`` is deleted. Attributes and aspects are the aspect store's
        (``AspectStore.reassign``): call both in one ``store.transaction()``.
        ``NotFoundError`` if either is missing, ``InvalidInputError`` if they are the
        same entity. Returns ``keep`` as it now is."""
        ...

    def split(self, namespace: str, entity_id: int, alias: str, *, now: datetime) -> Entity:
        """Turn the canonical ``alias`` of the entity back into an entity of its own,
        the inverse of a wrong ``merge`` as far as rows can be attributed: the mentions
        whose ``mention_text`` canonicalises (or normalises) to the alias move to it,
        and so do the relation ends of this entity in relations first stated by those
        memories. Returns the new entity. ``NotFoundError`` if the entity or the alias
        is missing (a canonical name is not an alias)."""
        ...

    def invalidate(
        self,
        namespace: str,
        source_id: int,
        relation_type: str,
        target_id: int,
        *,
        at: datetime,
        now: datetime,
    ) -> Relation:
        """Close the current (``valid_to`` NULL) relation ``source -type-> target`` at
        ``at`` and return it; ``NotFoundError`` if none holds, ``InvalidInputError`` if
        ``at`` is before its ``valid_from``."""
        ...

    def entities(
        self, namespace: str, *, limit: int, offset: int, query: str | None
    ) -> list[Entity]:
        """Entities, most mentioned first; ``query`` keeps canonical names containing
        it."""
        ...

    def entity(self, namespace: str, name: str) -> Entity | None:
        """The entity whose canonical name or alias is ``canonical_name(name)``."""
        ...

    def relations(
        self,
        namespace: str,
        *,
        entity_id: int | None,
        current_only: bool,
        at: datetime | None,
        limit: int,
        offset: int,
        without: Sequence[str] = (),
        newest_first: bool = False,
        stated_by: str | None = None,
    ) -> list[Relation]:
        """Relations (of one entity, either end, if given) ordered by ``valid_from``:
        those valid at ``at`` when it is given, else the current ones or all; none of
        the types in ``without``; the newest first when ``newest_first`` (a bounded
        read of a busy entity then keeps what it was told last); only those one memory
        stated (their ``source_memory_id``) when ``stated_by`` is given."""
        ...

    def timeline(self, namespace: str, entity_id: int) -> list[Relation]:
        """Every relation of the entity, closed ones included, by ``valid_from``."""
        ...

    def neighbors(
        self, namespace: str, entity_id: int, *, hops: int, at: datetime | None, limit: int
    ) -> list[Neighbor]:
        """Entities within ``hops`` relations of the entity, either direction, nearest
        first; through current relations, or those valid at ``at``."""
        ...

    def mentions(self, namespace: str, entity_id: int) -> list[Mention]:
        """The entity's mentions by live memories, oldest memory first."""
        ...

    def boost_lookup(
        self,
        namespace: str,
        names: Sequence[str],
        *,
        entity_limit: int,
        neighbor_limit: int,
        memory_limit: int,
        hub_mentions: int,
        deadline: float,
    ) -> BoostLookup:
        """seed 004's graph boost lookup (FEATURES G4), in SQL: the entities whose
        canonical name or alias is one of ``names`` (most mentioned first, at most
        ``entity_limit``), the live memories that mention them, then their neighbours
        one current relation away in either direction (strongest relations first, at
        most ``neighbor_limit``) and the memories that mention those, at most
        ``memory_limit`` memories in all. An entity mentioned by more than
        ``hub_mentions`` memories (0: no cap) is a hub: it neither adds its own
        mentions nor is expanded, since a name in every turn singles out nothing and
        links to everything. ``deadline`` is a
        ``time.monotonic()`` value checked after each step; once it has passed, what
        was found so far comes back with ``timed_out``."""
        ...

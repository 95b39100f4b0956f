"""``mem.graph``: the temporal knowledge graph (FEATURES G1, G2; seeds 003 and 004).

Entities (people, projects, items) and typed relations between them, each relation
valid from ``valid_from`` until ``valid_to`` (None while it still holds). The write
pipeline calls ``record`` with the triples it extracted from a memory; a changed
single-valued fact ("Derek swapped the battery for a 48V one") closes the old relation
and adds a new one, so ``timeline`` shows the whole history and ``as_of`` the graph on
any given day. Every verb is scoped like the everyday ones (``namespace``, ``user_id``,
``agent_id``, ``run_id``) and never reads outside that namespace.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextlib import suppress
from datetime import UTC, date, datetime, time

from engram.core import Part, Scope
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.records import utcnow
from engram.store.protocols.graph import (
    ATTRIBUTE_KINDS,
    SINGLE_VALUED,
    Aspect,
    Attribute,
    Entity,
    Neighbor,
    RecordResult,
    Relation,
    Triple,
    canonical_name,
    canonical_relation,
)
from engram.validate import no_nul, offset_value, optional_float, positive_int, timestamp

#: Longest entity, alias or aspect name accepted; longer "names" are sentences.
MAX_NAME_CHARS = 200
#: Longest relation type accepted.
MAX_RELATION_CHARS = 100
#: A neighbour walk goes at most this far: beyond it, everything is a neighbour.
MAX_HOPS = 4


def _name(what: str, value: object, limit: int = MAX_NAME_CHARS) -> str:
    """A non-blank name of at most ``limit`` characters, as given (not canonical)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{what} must be a non-empty string, got {shown(value)}")
    if len(value) > limit:
        raise InvalidInputError(f"{what} is {len(value)} characters, over {limit}")
    return no_nul(what, " ".join(value.split()))


def _relation_type(value: object) -> str:
    kind = canonical_relation(_name("relation type", value, MAX_RELATION_CHARS))
    if not kind:
        raise InvalidInputError(f"relation type must name a relation, got {shown(value)}")
    return kind


def _triples(triples: object) -> list[Triple]:
    """(source, relationship, target[, confidence]) items, checked; confidence 1.0 when
    left out."""
    if isinstance(triples, str | bytes) or not isinstance(triples, Sequence):
        raise InvalidInputError(f"triples must be a list of triples, got {shown(triples)}")
    out: list[Triple] = []
    for item in triples:
        shaped = isinstance(item, Sequence) and not isinstance(item, str | bytes)
        if not shaped or len(item) not in (3, 4):
            raise InvalidInputError(
                f"a triple is (source, relationship, target[, confidence]), got {shown(item)}"
            )
        confidence = optional_float("confidence", item[3] if len(item) == 4 else 1.0, 0.0, 1.0)
        out.append(
            (
                _name("source", item[0]),
                _relation_type(item[1]),
                _name("target", item[2]),
                1.0 if confidence is None else confidence,
            )
        )
    return out


def _moment(what: str, value: object) -> datetime:
    """A datetime (naive = UTC), an ISO 8601 string, or a date meaning the end of that
    day in UTC: "as of 2024-06-01" includes what changed on June 1."""
    if isinstance(value, str) and len(value.strip()) == 10:  # "2024-06-01": a day
        with suppress(ValueError):  # if not, ``timestamp`` below says what is wrong
            value = date.fromisoformat(value.strip())
    if isinstance(value, date) and not isinstance(value, datetime):
        return datetime.combine(value, time.max, UTC)
    when = timestamp(what, value)
    if when is None:
        raise InvalidInputError(f"{what} is required")
    return when


class Graph(Part):
    """The knowledge graph of a ``Memory``: record facts, read entities, relations,
    timelines and neighbourhoods."""

    single_valued: frozenset[str] = SINGLE_VALUED
    """Relation types that hold one target at a time per source (a new target closes
    the old relation). Replace it per ``Memory``, or pass ``single_valued=`` to
    ``record``."""

    # -- writes -----------------------------------------------------------------------
    def record(
        self,
        memory_id: str,
        triples: Sequence[Triple] | Sequence[tuple[str, str, str]],
        *,
        entity_types: Mapping[str, str] | None = None,
        single_valued: Collection[str] | None = None,
        valid_from: datetime | str | None = None,
        now: datetime | str | None = None,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> RecordResult:
        """Persist the (source, relationship, target, confidence) triples one memory
        states; idempotent, so processing the memory again changes nothing.

        ``entity_types`` names entity types (a name in no triple is still recorded as
        mentioned). Facts hold from ``valid_from``, by default the memory's
        ``created_at`` (when it was told, not when it was processed); ``now`` stamps the
        rows. For a relation type in ``single_valued`` (default ``self.single_valued``)
        a new target closes the relation that held then.
        """
        core = self._core
        core.check_open()
        scope = core.scope(namespace, user_id, agent_id, run_id)
        memory = core.get(scope, memory_id)
        checked = _triples(triples)
        types: dict[str, str] = {}
        if entity_types is not None:
            if not isinstance(entity_types, Mapping):
                raise InvalidInputError(
                    f"entity_types must map names to types, got {shown(entity_types)}"
                )
            for name, kind in entity_types.items():
                types[_name("entity name", name)] = _name("entity type", kind).lower()
        single = self.single_valued if single_valued is None else single_valued
        if isinstance(single, str):
            raise InvalidInputError("single_valued must be a collection of relation types")
        start = memory.created_at if valid_from is None else _moment("valid_from", valid_from)
        return core.store.graph.record(
            scope.namespace,
            memory.id,
            checked,
            entity_types=types,
            single_valued={_relation_type(k) for k in single},
            valid_from=start,
            now=utcnow() if now is None else _moment("now", now),
        )

    def supersede(
        self,
        source: str,
        relation_type: str,
        new_target: str,
        *,
        valid_from: datetime | str,
        memory_id: str,
        confidence: float = 1.0,
        now: datetime | str | None = None,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Relation:
        """State that ``source``'s ``relation_type`` is ``new_target`` from
        ``valid_from`` on, whatever the type's configuration: the relation that held
        then gets ``valid_to = valid_from`` and the new one is returned. Idempotent per
        memory, like ``record``."""
        result = self.record(
            memory_id,
            [(source, relation_type, new_target, confidence)],
            single_valued={relation_type},
            valid_from=_moment("valid_from", valid_from),
            now=now,
            namespace=namespace,
            user_id=user_id,
            agent_id=agent_id,
            run_id=run_id,
        )
        return result.relations[0]

    def add_alias(
        self,
        entity: str,
        alias: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Entity:
        """Make ``alias`` another name of ``entity`` (``entity()``, ``record`` and the
        other reads then resolve it); returns the entity with its aliases.
        ``InvalidInputError`` if the alias already names another entity."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        key = canonical_name(_name("alias", alias))
        self._core.store.graph.add_alias(scope.namespace, found.id, key)
        return self._resolve(scope, found.canonical_name)

    def upsert_aspect(
        self,
        entity: str,
        name: str,
        *,
        weight: float = 0.5,
        now: datetime | str | None = None,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Aspect:
        """The entity's aspect ``name`` (matched by canonical name), created with
        ``weight`` in [0, 1] if new; an existing aspect keeps its weight (feedback owns
        it)."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        checked = optional_float("weight", weight, 0.0, 1.0)
        return self._core.store.graph.upsert_aspect(
            scope.namespace,
            found.id,
            _name("aspect name", name),
            weight=0.5 if checked is None else checked,
            now=utcnow() if now is None else _moment("now", now),
        )

    def add_attribute(
        self,
        entity: str,
        content: str,
        *,
        memory_id: str,
        aspect: str | None = None,
        kind: str = "attribute",
        importance: float = 0.5,
        now: datetime | str | None = None,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Attribute:
        """Record a structural fact about ``entity`` from a memory (seed 004's
        ``entity_attributes``), under ``aspect`` (upserted) if given. The same content
        from the same memory again updates its aspect, kind and importance."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        memory = self._core.get(scope, memory_id)
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError("attribute content must be a non-empty string")
        if kind not in ATTRIBUTE_KINDS:
            raise InvalidInputError(f"kind must be one of {', '.join(ATTRIBUTE_KINDS)}")
        weight = optional_float("importance", importance, 0.0, 1.0)
        stamp = utcnow() if now is None else _moment("now", now)
        store = self._core.store
        with store.transaction():  # the aspect and its attribute land together
            aspect_id = None
            if aspect is not None:
                made = store.graph.upsert_aspect(
                    scope.namespace, found.id, _name("aspect name", aspect), weight=0.5, now=stamp
                )
                aspect_id = made.id
            return store.graph.add_attribute(
                scope.namespace,
                found.id,
                memory.id,
                no_nul("attribute content", content.strip()),
                aspect_id=aspect_id,
                kind=kind,
                importance=0.5 if weight is None else weight,
                now=stamp,
            )

    # -- reads ------------------------------------------------------------------------
    def entities(
        self,
        limit: int = 50,
        offset: int = 0,
        query: str | None = None,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Entity]:
        """Entities, most mentioned first; ``query`` keeps those whose canonical name
        contains it."""
        core = self._core
        core.check_open()
        scope = core.scope(namespace, user_id, agent_id, run_id)
        needle = None if query is None else canonical_name(_name("query", query))
        return core.store.graph.entities(
            scope.namespace,
            limit=positive_int("limit", limit, upper=1000),
            offset=offset_value(offset),
            query=needle,
        )

    def entity(
        self,
        name: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Entity:
        """The entity called ``name`` (canonical name or alias); ``NotFoundError`` if
        there is none."""
        return self._entity(name, namespace, user_id, agent_id, run_id)[1]

    def relations(
        self,
        entity: str | None = None,
        current_only: bool = True,
        *,
        limit: int = 100,
        offset: int = 0,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Relation]:
        """Relations (of ``entity``, at either end, if given) by ``valid_from``: only
        those that still hold unless ``current_only`` is False."""
        scope, found = self._optional_entity(entity, namespace, user_id, agent_id, run_id)
        return self._core.store.graph.relations(
            scope.namespace,
            entity_id=None if found is None else found.id,
            current_only=bool(current_only),
            at=None,
            limit=positive_int("limit", limit, upper=10_000),
            offset=offset_value(offset),
        )

    def timeline(
        self,
        entity: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Relation]:
        """The entity's full history: every relation it is part of, closed ones
        included, ordered by ``valid_from``, each with its validity window."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        return self._core.store.graph.timeline(scope.namespace, found.id)

    def neighbors(
        self,
        entity: str,
        hops: int = 1,
        *,
        at: datetime | date | str | None = None,
        limit: int = 100,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Neighbor]:
        """Entities within ``hops`` relations of ``entity`` (either direction), nearest
        first, through the relations that hold now, or at ``at``."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        return self._core.store.graph.neighbors(
            scope.namespace,
            found.id,
            hops=positive_int("hops", hops, upper=MAX_HOPS),
            at=None if at is None else _moment("at", at),
            limit=positive_int("limit", limit, upper=1000),
        )

    def as_of(
        self,
        when: datetime | date | str,
        *,
        entity: str | None = None,
        limit: int = 1000,
        offset: int = 0,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Relation]:
        """The relations that held at ``when`` (of ``entity`` if given): valid_from <=
        when < valid_to. A date means the end of that day (UTC)."""
        scope, found = self._optional_entity(entity, namespace, user_id, agent_id, run_id)
        return self._core.store.graph.relations(
            scope.namespace,
            entity_id=None if found is None else found.id,
            current_only=False,
            at=_moment("when", when),
            limit=positive_int("limit", limit, upper=10_000),
            offset=offset_value(offset),
        )

    def memories_of(
        self,
        entity: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[str]:
        """Ids of the live memories that mention ``entity``, oldest first."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        return [m.memory_id for m in self._core.store.graph.mentions(scope.namespace, found.id)]

    def aspects(
        self,
        entity: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Aspect]:
        """The entity's aspects, heaviest first."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        return self._core.store.graph.aspects(scope.namespace, found.id)

    def attributes(
        self,
        entity: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[Attribute]:
        """The entity's structural facts, oldest first."""
        scope, found = self._entity(entity, namespace, user_id, agent_id, run_id)
        return self._core.store.graph.attributes(scope.namespace, found.id)

    # -- helpers ----------------------------------------------------------------------
    def _entity(
        self,
        name: object,
        namespace: str | None,
        user_id: str | None,
        agent_id: str | None,
        run_id: str | None,
    ) -> tuple[Scope, Entity]:
        core = self._core
        core.check_open()
        scope = core.scope(namespace, user_id, agent_id, run_id)
        return scope, self._resolve(scope, _name("entity", name))

    def _optional_entity(
        self,
        name: object,
        namespace: str | None,
        user_id: str | None,
        agent_id: str | None,
        run_id: str | None,
    ) -> tuple[Scope, Entity | None]:
        if name is None:
            self._core.check_open()
            return self._core.scope(namespace, user_id, agent_id, run_id), None
        return self._entity(name, namespace, user_id, agent_id, run_id)

    def _resolve(self, scope: Scope, name: str) -> Entity:
        found = self._core.store.graph.entity(scope.namespace, name)
        if found is None:
            raise NotFoundError(f"no entity {name!r} in namespace {scope.namespace!r}")
        return found

"""The reads of ``mem.graph``: entities, relations, timelines, neighbourhoods, what
an entity is made of, and how many entities and relations a listing has in all.

``Graph`` (``engram.graph``) inherits them and adds the writes; the split keeps each
module one job and a readable size.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Unpack

from engram.core import Part, Scope
from engram.errors import NotFoundError, shown
from engram.graph.args import MAX_HOPS, moment_arg, name_arg
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols.graph import (
    Aspect,
    Attribute,
    Entity,
    Neighbor,
    Relation,
    canonical_name,
)
from engram.validate import offset_value, positive_int


class GraphReads(Part):
    """The read verbs of ``Memory.graph``, each scoped like the everyday ones."""

    # -- reads ------------------------------------------------------------------------
    @scoped
    def entities(
        self, limit: int = 50, offset: int = 0, query: str | None = None, **who: Unpack[ScopeArgs]
    ) -> list[Entity]:
        """Entities, most mentioned first; ``query`` keeps those whose canonical name
        contains it."""
        core = self._core
        scope = self._core.open_scope(**who)
        needle = None if query is None else canonical_name(name_arg("query", query))
        return core.store.graph.entities(
            scope.namespace,
            limit=positive_int("limit", limit, upper=1000),
            offset=offset_value(offset),
            query=needle,
        )

    @scoped
    def entity(self, name: str, **who: Unpack[ScopeArgs]) -> Entity:
        """The entity called ``name`` (canonical name or alias); ``NotFoundError`` if
        there is none."""
        return self._entity(name, who)[1]

    @scoped
    def relations(
        self,
        entity: str | None = None,
        current_only: bool = True,
        *,
        limit: int = 100,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> list[Relation]:
        """Relations (of ``entity``, at either end, if given) by ``valid_from``: only
        those that still hold unless ``current_only`` is False."""
        scope, found = self._optional_entity(entity, who)
        return self._core.store.graph.relations(
            scope.namespace,
            entity_id=None if found is None else found.id,
            current_only=bool(current_only),
            at=None,
            limit=positive_int("limit", limit, upper=10_000),
            offset=offset_value(offset),
        )

    @scoped
    def timeline(self, entity: str, **who: Unpack[ScopeArgs]) -> list[Relation]:
        """The entity's full history: every relation it is part of, closed ones
        included, ordered by ``valid_from``, each with its validity window."""
        scope, found = self._entity(entity, who)
        return self._core.store.graph.timeline(scope.namespace, found.id)

    @scoped
    def neighbors(
        self,
        entity: str,
        hops: int = 1,
        *,
        at: datetime | date | str | None = None,
        limit: int = 100,
        **who: Unpack[ScopeArgs],
    ) -> list[Neighbor]:
        """Entities within ``hops`` relations of ``entity`` (either direction), nearest
        first, through the relations that hold now, or at ``at``."""
        scope, found = self._entity(entity, who)
        return self._core.store.graph.neighbors(
            scope.namespace,
            found.id,
            hops=positive_int("hops", hops, upper=MAX_HOPS),
            at=None if at is None else moment_arg("at", at),
            limit=positive_int("limit", limit, upper=1000),
        )

    @scoped
    def as_of(
        self,
        when: datetime | date | str,
        *,
        entity: str | None = None,
        limit: int = 1000,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> list[Relation]:
        """The relations that held at ``when`` (of ``entity`` if given): valid_from <=
        when < valid_to. A date means the end of that day (UTC)."""
        scope, found = self._optional_entity(entity, who)
        return self._core.store.graph.relations(
            scope.namespace,
            entity_id=None if found is None else found.id,
            current_only=False,
            at=moment_arg("when", when),
            limit=positive_int("limit", limit, upper=10_000),
            offset=offset_value(offset),
        )

    @scoped
    def memories_of(self, entity: str, **who: Unpack[ScopeArgs]) -> list[str]:
        """Ids of the live memories that mention ``entity``, oldest first."""
        scope, found = self._entity(entity, who)
        return [m.memory_id for m in self._core.store.graph.mentions(scope.namespace, found.id)]

    @scoped
    def aspects(self, entity: str, **who: Unpack[ScopeArgs]) -> list[Aspect]:
        """The entity's aspects, heaviest first."""
        scope, found = self._entity(entity, who)
        return self._core.store.aspects.aspects(scope.namespace, found.id)

    @scoped
    def attributes(self, entity: str, **who: Unpack[ScopeArgs]) -> list[Attribute]:
        """The entity's structural facts, oldest first."""
        scope, found = self._entity(entity, who)
        return self._core.store.aspects.attributes(scope.namespace, found.id)

    @scoped
    def count_entities(self, query: str | None = None, **who: Unpack[ScopeArgs]) -> int:
        """How many entities ``entities`` lists with this ``query`` over all its pages
        (one ``COUNT``, whatever the graph's size)."""
        core = self._core
        scope = self._core.open_scope(**who)
        needle = None if query is None else canonical_name(name_arg("query", query))
        return core.store.graph_counts.count_entities(scope.namespace, query=needle)

    @scoped
    def count_relations(
        self,
        entity: str | None = None,
        *,
        current_only: bool = True,
        at: datetime | date | str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> int:
        """How many relations (of ``entity``, at either end, if given) ``relations``
        lists with ``current_only``, or ``as_of(at)`` when ``at`` is given (then
        ``current_only`` is not used). ``NotFoundError`` for an unknown entity, as the
        listings."""
        scope, found = self._optional_entity(entity, who)
        return self._core.store.graph_counts.count_relations(
            scope.namespace,
            entity_id=None if found is None else found.id,
            current_only=bool(current_only),
            at=None if at is None else moment_arg("at", at),
        )

    # -- helpers ----------------------------------------------------------------------
    def _entity(self, name: object, who: ScopeArgs) -> tuple[Scope, Entity]:
        scope = self._core.open_scope(**who)
        return scope, self._resolve(scope, name_arg("entity", name))

    def _optional_entity(self, name: object, who: ScopeArgs) -> tuple[Scope, Entity | None]:
        if name is None:
            return self._core.open_scope(**who), None
        return self._entity(name, who)

    def _resolve(self, scope: Scope, name: str) -> Entity:
        found = self._core.store.graph.entity(scope.namespace, name)
        if found is None:
            raise NotFoundError(f"no entity {shown(name)} in namespace {shown(scope.namespace)}")
        return found

"""``mem.graph``: the temporal knowledge graph (FEATURES G1, G2, G5; seeds 003 and 004).

Entities (people, projects, items) and typed relations between them, each relation
valid from ``valid_from`` until ``valid_to`` (None while it still holds). The write
pipeline calls ``record`` with the triples it extracted from a memory; a changed
single-valued fact ("Derek swapped the battery for a 48V one") closes the old relation
and adds a new one, so ``timeline`` shows the whole history and ``as_of`` the graph on
any given day. Entities can be merged, split and deduplicated (``engram.graph.merge``);
aspects carry weights that feedback raises and time decays (``engram.graph.aspects``).
Every verb is scoped like the everyday ones (``namespace``, ``user_id``, ``agent_id``,
``run_id``) and never reads outside that namespace.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Unpack

from engram.core import Core
from engram.errors import InvalidInputError, shown
from engram.graph import aspects as _aspects
from engram.graph import merge as _merge
from engram.graph.args import (
    moment_arg,
    name_arg,
    now_arg,
    relation_type_arg,
    triples_arg,
)
from engram.graph.aspects import AspectTelemetry
from engram.graph.merge import DedupePair, DedupeResult
from engram.graph.reads import GraphReads
from engram.records import utcnow
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols.aspects import AspectFeedback
from engram.store.protocols.graph import (
    SINGLE_VALUED,
    Aspect,
    Attribute,
    Entity,
    Neighbor,
    RecordResult,
    Relation,
    Statement,
    Triple,
    canonical_name,
)
from engram.validate import optional_float, text_value

__all__ = [
    "Aspect",
    "AspectFeedback",
    "AspectTelemetry",
    "Attribute",
    "DedupePair",
    "DedupeResult",
    "Entity",
    "Graph",
    "GraphReads",
    "Neighbor",
    "RecordResult",
    "Relation",
    "Triple",
]


class Graph(GraphReads):
    """The knowledge graph of a ``Memory``: record facts, read entities, relations,
    timelines and neighbourhoods."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self.telemetry = AspectTelemetry()
        """seed 004's feedback counters, in-process (``feedback_telemetry``)."""

    single_valued: frozenset[str] = SINGLE_VALUED
    """Relation types that hold one target at a time per source (a new target closes
    the old relation). Replace it per ``Memory``, or pass ``single_valued=`` to
    ``record``."""

    # -- writes -----------------------------------------------------------------------
    @scoped
    def record(
        self,
        memory_id: str,
        triples: Sequence[Triple] | Sequence[tuple[str, str, str]],
        *,
        entity_types: Mapping[str, str] | None = None,
        single_valued: Collection[str] | None = None,
        valid_from: datetime | str | None = None,
        now: datetime | str | None = None,
        **who: Unpack[ScopeArgs],
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
        scope = self._core.open_scope(**who)
        memory = core.get(scope, memory_id)
        checked = triples_arg(triples)
        types: dict[str, str] = {}
        if entity_types is not None:
            if not isinstance(entity_types, Mapping):
                raise InvalidInputError(
                    f"entity_types must map names to types, got {shown(entity_types)}"
                )
            for name, kind in entity_types.items():
                types[name_arg("entity name", name)] = name_arg("entity type", kind).lower()
        single = self.single_valued if single_valued is None else single_valued
        if isinstance(single, str):
            raise InvalidInputError("single_valued must be a collection of relation types")
        start = memory.created_at if valid_from is None else moment_arg("valid_from", valid_from)
        moment = now_arg(now)
        [result] = core.store.graph.record(
            scope.namespace,
            [Statement(memory.id, checked, start, moment, types)],
            single_valued={relation_type_arg(k) for k in single},
        )
        return result

    @scoped
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
        **who: Unpack[ScopeArgs],
    ) -> Relation:
        """State that ``source``'s ``relation_type`` is ``new_target`` from
        ``valid_from`` on, whatever the type's configuration: the relation that held
        then gets ``valid_to = valid_from`` and the new one is returned. Idempotent per
        memory, like ``record``."""
        relation_type = text_value("relation_type", relation_type)
        result = self.record(
            memory_id,
            [(source, relation_type, new_target, confidence)],
            single_valued={relation_type},
            valid_from=moment_arg("valid_from", valid_from),
            now=now,
            **who,
        )
        return result.relations[0]

    @scoped
    def add_alias(self, entity: str, alias: str, **who: Unpack[ScopeArgs]) -> Entity:
        """Make ``alias`` another name of ``entity`` (``entity()``, ``record`` and the
        other reads then resolve it); returns the entity with its aliases.
        ``InvalidInputError`` if the alias already names another entity."""
        scope, found = self._entity(entity, who)
        key = canonical_name(name_arg("alias", alias))
        self._core.store.graph.add_alias(scope.namespace, found.id, key)
        return self._resolve(scope, found.canonical_name)

    @scoped
    def upsert_aspect(
        self,
        entity: str,
        name: str,
        *,
        weight: float = 0.5,
        now: datetime | str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> Aspect:
        """The entity's aspect ``name`` (matched by canonical name), created with
        ``weight`` in [0, 1] if new; an existing aspect keeps its weight (feedback owns
        it)."""
        scope, found = self._entity(entity, who)
        stamp = now_arg(now)
        return _aspects.upsert_aspect(self._core, scope.namespace, found, name, weight, stamp)

    @scoped
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
        **who: Unpack[ScopeArgs],
    ) -> Attribute:
        """Record a structural fact about ``entity`` from a memory (seed 004's
        ``entity_attributes``), under ``aspect`` (upserted) if given. The same content
        from the same memory again updates its aspect, kind and importance."""
        scope, found = self._entity(entity, who)
        memory = self._core.get(scope, memory_id)
        return _aspects.add_attribute(
            self._core,
            scope.namespace,
            found,
            memory.id,
            content,
            aspect=aspect,
            kind=kind,
            importance=importance,
            now=now_arg(now),
        )

    @scoped
    def aspect_feedback(
        self,
        memory_hits: Mapping[str, int] | Iterable[str],
        *,
        now: datetime | str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> AspectFeedback:
        """seed 004's aspect feedback: each confirmed memory (``{id: confirmations}``,
        or ids, one confirmation per occurrence) raises the weight of the aspects its
        attributes are filed under by ``[graph] aspect_delta`` per confirmation,
        clamped to [``aspect_min_weight``, ``aspect_max_weight``]. A positive
        ``mem.feedback`` calls it; sessions will call it at session end with their
        search hits."""
        core = self._core
        scope = self._core.open_scope(**who)
        stamp = now_arg(now)
        return _aspects.confirm(core, self.telemetry, scope.namespace, memory_hits, stamp)

    @scoped
    def decay_aspects(self, *, now: datetime | str | None = None, **who: Unpack[ScopeArgs]) -> int:
        """seed 004: aspects not confirmed (or created) for ``[graph]
        aspect_stale_days`` lose ``aspect_decay_rate``, floored at
        ``aspect_min_weight``; returns how many decayed. Each decays at most once per
        stale period, however often this runs."""
        core = self._core
        scope = self._core.open_scope(**who)
        stamp = None if now is None else moment_arg("now", now)
        return _aspects.decay(core, self.telemetry, scope.namespace, stamp)

    @scoped
    def feedback_telemetry(self, **who: Unpack[ScopeArgs]) -> dict[str, int]:
        """seed 004's feedback counters since this ``Memory`` opened: aspects updated,
        confirmations, decayed aspects, propagated attributes; of the scope's
        namespace, or of every namespace when no scope is given (as
        ``mem.jobs.status``)."""
        core = self._core
        core.check_open()
        if all(value is None for value in who.values()):
            return self.telemetry.to_dict()
        return self.telemetry.to_dict(core.scope(**who).namespace)

    @scoped
    def merge(self, keep: str, other: str, **who: Unpack[ScopeArgs]) -> Entity:
        """Merge entity ``other`` into ``keep``: its mentions, relations, attributes and
        aspects move over, its name and aliases become aliases of ``keep``, and it is
        deleted. Returns ``keep`` as it now is. ``InvalidInputError`` if both name the
        same entity; ``split`` undoes it as far as rows can be attributed."""
        scope, kept = self._entity(keep, who)
        gone = self._resolve(scope, name_arg("other", other))
        return _merge.merge_entities(self._core, scope.namespace, kept, gone, utcnow())

    @scoped
    def split(self, entity: str, alias: str, **who: Unpack[ScopeArgs]) -> Entity:
        """Turn ``alias`` of ``entity`` back into an entity of its own (the inverse of
        a wrong merge) and return it: the mentions spelled as the alias, the relations
        those memories first stated and those memories' attributes move to it."""
        scope, found = self._entity(entity, who)
        key = canonical_name(name_arg("alias", alias))
        return _merge.split_entity(self._core, scope.namespace, found, key, utcnow())

    @scoped
    def invalidate(
        self,
        source: str,
        relation_type: str,
        target: str,
        *,
        at: datetime | date | str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> Relation:
        """Close the relation ``source -relation_type-> target`` that holds now: its
        ``valid_to`` becomes ``at`` (default now) and it stays in the timeline.
        ``NotFoundError`` if no such relation holds."""
        scope, head = self._entity(source, who)
        tail = self._resolve(scope, name_arg("target", target))
        kind = relation_type_arg(relation_type)
        stamp = utcnow()
        return self._core.store.graph.invalidate(
            scope.namespace,
            head.id,
            kind,
            tail.id,
            at=stamp if at is None else moment_arg("at", at),
            now=stamp,
        )

    @scoped
    def dedupe(
        self,
        threshold: float = 0.9,
        dry_run: bool = True,
        *,
        entity_type: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> DedupeResult:
        """Find entities of one type that name the same thing (equal normalised names,
        an unambiguous first name, or, with an embedder, names whose embeddings'
        cosine is at least ``threshold``, compared within blocks) and, unless
        ``dry_run``, merge each group into its most mentioned entity."""
        core = self._core
        scope = self._core.open_scope(**who)
        cut = optional_float("threshold", threshold, 0.0, 1.0)
        if not isinstance(dry_run, bool):
            raise InvalidInputError(f"dry_run must be true or false, got {shown(dry_run)}")
        kind = None if entity_type is None else name_arg("entity type", entity_type).lower()
        return _merge.dedupe(
            core,
            scope.namespace,
            threshold=0.9 if cut is None else cut,
            dry_run=dry_run,
            entity_type=kind,
            now=utcnow(),
        )

"""The graph's counts: how many entities and relations a listing has in all, and how
often the entities recall's candidates mention are mentioned (hub dampening).

A read-side part of its own (``store.graph_counts``) rather than two more methods on
``GraphStore``, which already holds the graph's twelve verbs. It also reads what
changed facts left behind (issue 28): how each relation type is held, and which
memories stated a fact since closed. The surfaces page through
``mem.graph.entities`` and ``relations`` and show a ``total``: one ``COUNT`` under the
listing's own filter instead of reading every page (165 ms of 285 ms for one 5 000-entity
page before).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.graph import Cardinality, Relation

#: The relation types that hold only a time: a memory whose closed facts are all of
#: them still says the rest (who, where) truly (``retimed_memories``).
TIME_TYPES = frozenset(("scheduled",))
#: The relation types that hold only where an event is (round twenty-three): "the team
#: dinner is at Rosa's Kitchen now" leaves the first statement's day and hour standing.
PLACE_TYPES = frozenset(("venue",))


@runtime_checkable
class GraphCountStore(Protocol):
    """Counts under exactly the filters of ``GraphStore.entities`` and ``relations``, so
    a total always matches the pages; never outside ``namespace``."""

    def count_entities(self, namespace: str, *, query: str | None) -> int:
        """How many entities ``GraphStore.entities`` lists with this ``query`` (canonical
        names containing it; None: all)."""
        ...

    def count_relations(
        self,
        namespace: str,
        *,
        entity_id: int | None,
        current_only: bool,
        at: datetime | None,
    ) -> int:
        """How many relations ``GraphStore.relations`` lists with these filters: of one
        entity (either end) if given; valid at ``at`` when it is given, else the
        current ones or all."""
        ...

    def hub_mentions(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """seed 004's hub dampening input: for each of ``memory_ids`` that mentions an
        entity (``memory_entity_mentions``), the entities it mentions (canonical name)
        with each one's ``mentions`` count. A memory that mentions none is absent. One
        query per batch of ids, never outside ``namespace``."""
        ...

    def relation_cardinality(
        self, namespace: str, relation_types: Sequence[str]
    ) -> dict[str, Cardinality]:
        """Per relation type (as stored), how its sources hold it: the data
        ``engram.pipeline.closing`` learns a type's cardinality from. Types with no
        relation are left out."""
        ...

    def stale_memories(self, namespace: str, memory_ids: Sequence[str]) -> set[str]:
        """Those of ``memory_ids`` that stated a fact since closed (a relation with a
        ``valid_to``), or were written by the pipeline from a memory that did (their
        ``source_memory_id``): what they say no longer holds."""
        ...

    def retimed_memories(
        self, namespace: str, memory_ids: Sequence[str], kinds: frozenset[str] = TIME_TYPES
    ) -> set[str]:
        """Those of ``memory_ids`` (memories of ``stale_memories``) whose closed facts
        are all of ``kinds``, by default times (a ``scheduled`` day or hour): the rest of
        what they say, who and where, still holds (new-user round twenty-two: "the
        dentist moved to Thursday" leaves "with Dr. Okafor" standing)."""
        ...

    def entity_names(self, namespace: str, limit: int) -> frozenset[str] | None:
        """Every canonical name and alias of the namespace's entities, in one read; None
        when there are more than ``limit``. A name outside them has no entity
        (``GraphStore.entity`` finds none): ``BatchReads`` answers it without a read."""
        ...

    def closed_by(self, namespace: str, memory_id: str) -> list[tuple[str, str, str, str]]:
        """The facts ``memory_id`` changed: for each relation it states that closed the
        one holding before (same source and type, the old one's ``valid_to`` the new
        one's ``valid_from``), a row (a memory that stated the old relation, the
        source's name, the old target's name, the new target's name). What a
        statement's derived facts supersede
        (``engram.pipeline.supersession.supersede_derived``)."""
        ...

    def current_relations(
        self, namespace: str, source_id: int, relation_type: str
    ) -> list[Relation]:
        """The relations of type ``relation_type`` (as stored) from entity
        ``source_id`` that hold now, oldest first: what a new fact of that type would
        close."""
        ...

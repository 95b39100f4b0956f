"""``mem.browse``: what the dashboard (and any browsing surface) reads — the namespaces a
key reaches, pages of memories filtered by type and quality, and the read-only settings
that shape recall.

Every verb is a read. Paging happens in the store (``LIMIT``/``OFFSET`` and a count), so a
100k-memory namespace is browsed one page at a time.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Protocol, Unpack, runtime_checkable

from engram.core import Part
from engram.errors import EngramError, InvalidInputError, shown
from engram.filters import list_query
from engram.records import MemoryType, Page
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols.graph import Entity, Relation
from engram.validate import positive_int, timestamp

#: Seed 000's thumbs move ``quality`` in [-3, +3]: the dashboard's three quality bands.
QUALITY_BANDS: dict[str, tuple[int | None, int | None]] = {
    "positive": (1, None),
    "neutral": (0, 0),
    "negative": (None, -1),
}

#: The most memories one page may hold (the HTTP list route's own cap).
MAX_PAGE = 1000


@runtime_checkable
class Reach(Protocol):
    """Who is browsing: an API key's ``engram.keys.Principal`` fits."""

    @property
    def home(self) -> str | None:
        """The caller's own namespace, if any."""
        ...

    @property
    def admin(self) -> bool:
        """Whether the caller reaches every namespace (an admin key)."""
        ...

    def may_reach(self, namespace: str) -> bool:
        """Whether the caller may read ``namespace``."""
        ...


class Browse(Part):
    """Read-only views for browsing a store (``mem.browse``)."""

    def namespaces(self, principal: Reach | None = None) -> list[dict[str, Any]]:
        """``[{namespace, memories}]`` for the namespaces ``principal`` may reach (all of
        them without one), sorted by name: those that hold memories, and the one the
        principal's unscoped writes go to even while it is empty, so a new user has
        somewhere to start: a user key's ``user:<user>``, an admin key's default
        namespace. (An admin key's ``user:<user>`` was listed, empty, beside a full
        store: the first admin key's ``user:admin``, which nothing writes to.)"""
        core = self._core
        core.check_open()
        if principal is not None and not isinstance(principal, Reach):
            raise InvalidInputError(
                "principal must be who browses (a home and may_reach, like an API key's "
                f"Principal), got {type(principal).__name__}"
            )
        counts = core.store.memories.namespaces()
        if principal is not None:
            start = core.scope().namespace if principal.admin else principal.home
            if start is not None:
                counts.setdefault(start, 0)
        return [
            {"namespace": name, "memories": count}
            for name, count in sorted(counts.items())
            if principal is None or principal.may_reach(name)
        ]

    @scoped
    def memories(
        self,
        *,
        type: str | None = None,
        quality: str | None = None,
        tag: str | None = None,
        from_run: str | None = None,
        since: str | datetime | None = None,
        until: str | datetime | None = None,
        limit: int = 50,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> Page:
        """One page of a namespace's live memories, newest first: of one ``type``, one
        ``quality`` band (``positive`` > 0, ``neutral`` = 0, ``negative`` < 0), carrying
        ``tag``, written by the run ``from_run``, and created from ``since`` through
        ``until`` (a date ``YYYY-MM-DD`` counts the whole day), each when given.
        ``Page.total`` counts every match."""
        core = self._core
        scope = core.open_scope(**who)
        positive_int("limit", limit, upper=MAX_PAGE)
        filters: dict[str, Any] = {}
        if type is not None:
            if not isinstance(type, str) or type not in {t.value for t in MemoryType}:
                kinds = ", ".join(t.value for t in MemoryType)
                raise InvalidInputError(f"unknown memory type {shown(type)}; use one of: {kinds}")
            filters["type"] = type
        if tag is not None:
            filters["tags"] = [tag]
        if from_run is not None:
            filters["run_id"] = from_run
        low, high = _band(quality)
        after, before = _day("since", since, end=False), _day("until", until, end=True)
        if after is not None and before is not None and before <= after:
            raise InvalidInputError(
                f"until ({until}) is before since ({since}): swap them, or leave one out"
            )
        query = replace(
            list_query(scope, filters, limit, offset, False),
            min_quality=low,
            max_quality=high,
            created_after=after,
            created_before=before,
        )
        memories = core.store.memories
        records = memories.select(scope.namespace, query)
        if offset == 0 and len(records) < limit:
            return Page(records, limit=limit, offset=offset, total=len(records))
        total = memories.count(scope.namespace, query=query)
        return Page(records, limit=limit, offset=offset, total=total)

    @scoped
    def graph_of(
        self, memory_id: str, **who: Unpack[ScopeArgs]
    ) -> tuple[list[Entity], list[Relation]]:
        """The entities a live memory mentions (by name) and the relations it first
        stated, with their validity windows (closed ones included), by ``valid_from``;
        ``NotFoundError`` when the memory is not in this namespace.

        Composed from the graph's reads (the mention counts recall's hub dampening reads,
        then each entity and its timeline), so the store needs no verb of its own for a
        detail view: a memory mentions a handful of entities."""
        core = self._core
        scope = core.open_scope(**who)
        core.get(scope, memory_id)  # refuses another namespace's memory, or a deleted one
        store = core.store
        names = store.graph_counts.hub_mentions(scope.namespace, [memory_id]).get(memory_id, {})
        found = (store.graph.entity(scope.namespace, name) for name in sorted(names))
        entities = [e for e in found if e is not None]
        stated: dict[int, Relation] = {}
        for entity in entities:
            for relation in store.graph.timeline(scope.namespace, entity.id):
                if relation.source_memory_id == memory_id:
                    stated[relation.id] = relation
        relations = sorted(stated.values(), key=lambda r: (r.valid_from, r.id))
        return sorted(entities, key=lambda e: e.name.casefold()), relations

    def settings(self) -> dict[str, Any]:
        """The server-side settings that shape recall, for display: recall's top-k
        (``[recall] limit``), the reranker, the embedding model and auto-mining
        (``[pipeline] enabled``). Change them in the config file or ``ENGRAM_*``."""
        core = self._core
        core.check_open()
        config = core.config
        embedder = core.embedder
        dimension = None
        if embedder is not None:
            try:
                dimension = embedder.dimension
            except EngramError:  # a remote embedder that cannot be reached right now
                dimension = config.embedder.dimension
        return {
            "recall": {
                "limit": config.recall.limit,
                "strategy": config.recall.strategy,
                "rerank": config.recall.rerank,
                "rerank_top_n": config.recall.rerank_top_n,
                "rerank_model": config.recall.rerank_model or None,
            },
            "embedder": {
                "configured": config.embedder.name,
                "name": embedder.name if embedder is not None else None,
                "dimension": dimension,
            },
            "auto_mine": config.pipeline.enabled,
        }


def _day(name: str, value: str | datetime | None, *, end: bool) -> datetime | None:
    """A date-time bound; a bare date ``YYYY-MM-DD`` starts that day, or with ``end``
    ends it (the next midnight, exclusive), so ``until=2024-06-01`` keeps June 1."""
    moment = timestamp(name, value)
    if end and isinstance(value, str) and len(value.strip()) == 10 and moment is not None:
        moment += timedelta(days=1)
    return moment


def _band(quality: str | None) -> tuple[int | None, int | None]:
    if quality is None:
        return None, None
    if not isinstance(quality, str) or quality not in QUALITY_BANDS:
        bands = ", ".join(QUALITY_BANDS)
        raise InvalidInputError(f"unknown quality band {shown(quality)}; use one of: {bands}")
    return QUALITY_BANDS[quality]


__all__ = ["MAX_PAGE", "QUALITY_BANDS", "Browse"]

"""The knowledge graph over HTTP (FEATURES G1, G2, G5): entities, relations with their
validity windows, timelines, neighbourhoods, the repairs (merge, split, invalidate,
dedupe) and seed 004's aspect decay.

Every route resolves the caller's scope like every other route (``Caller.scope``): GET
routes take it in the query string, POST routes in the JSON body, so a key reaches only
its own namespaces' graph, and an entity of another namespace is a 404 like any unknown
one. Entity names are path segments that may hold ``/`` ("AC/DC"), hence ``{name:path}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from engram.api import graph_models as g
from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, ScopeQuery, _ids
from engram.keys import Principal
from engram.memory import Memory

EntityName = Annotated[
    str, Path(min_length=1, max_length=200, description="An entity's name or alias.")
]

router = APIRouter(responses=_ERRORS, tags=["graph"])


def _scope(caller: Principal, mem: Memory, asked: dict[str, str | None]) -> dict[str, Any]:
    """The library's scope arguments for the namespace the caller may use."""
    return _ids(caller.scope(mem, **asked))


@router.get("/v1/graph/entities", response_model=g.EntityList, summary="List entities")
def list_entities(
    query: Annotated[g.EntitiesQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Entities, most mentioned first; ``query`` keeps names containing it."""
    mem = state.memory
    ids = _scope(caller, mem, query.scope_args())
    items = mem.graph.entities(query.limit, query.offset, query.query, **ids)
    total = mem.graph.count_entities(query.query, **ids)
    return m.page(items, total, query.limit, query.offset)


@router.get("/v1/graph/entities/{name:path}", response_model=g.EntityDetail, summary="An entity")
def get_entity(
    name: EntityName, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """One entity (by name or alias) with its aliases, mention count, aspects,
    structural facts and the ids of the memories that mention it."""
    mem = state.memory
    ids = _scope(caller, mem, scope_in.scope_args())
    found = mem.graph.entity(name, **ids)
    return {
        **found.to_dict(),
        "aspects": [a.to_dict() for a in mem.graph.aspects(name, **ids)],
        "attributes": [a.to_dict() for a in mem.graph.attributes(name, **ids)],
        "memory_ids": mem.graph.memories_of(name, **ids),
    }


@router.get("/v1/graph/relations", response_model=g.RelationList, summary="List relations")
def list_relations(
    query: Annotated[g.RelationsQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Relations (of ``entity``, either end, if given) by ``valid_from``: those that
    hold now, all of them with ``current=false``, or those that held at ``at`` (then
    ``current`` is not used)."""
    mem = state.memory
    ids = _scope(caller, mem, query.scope_args())
    limit, offset = query.limit, query.offset
    if query.at is not None:
        items = mem.graph.as_of(query.at, entity=query.entity, limit=limit, offset=offset, **ids)
    else:
        items = mem.graph.relations(query.entity, query.current, limit=limit, offset=offset, **ids)
    total = mem.graph.count_relations(query.entity, current_only=query.current, at=query.at, **ids)
    return m.page(items, total, query.limit, query.offset)


@router.get("/v1/graph/timeline/{name:path}", response_model=g.TimelineOut, summary="Timeline")
def timeline(
    name: EntityName, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Every relation the entity was part of, closed ones included, by ``valid_from``."""
    mem = state.memory
    ids = _scope(caller, mem, scope_in.scope_args())
    found = mem.graph.entity(name, **ids)
    return {
        "entity": found.to_dict(),
        "items": [r.to_dict() for r in mem.graph.timeline(name, **ids)],
    }


@router.get("/v1/graph/neighbors/{name:path}", response_model=g.NeighborsOut, summary="Neighbours")
def neighbors(
    name: EntityName, query: Annotated[g.NeighborsQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Entities within ``hops`` relations of the entity, either direction, nearest
    first, through the relations that hold now (or held at ``at``)."""
    mem = state.memory
    ids = _scope(caller, mem, query.scope_args())
    found = mem.graph.entity(name, **ids)
    near = mem.graph.neighbors(name, query.hops, at=query.at, limit=query.limit, **ids)
    return {
        "entity": found.to_dict(),
        "hops": query.hops,
        "at": query.at,
        "items": [n.to_dict() for n in near],
    }


@router.post("/v1/graph/merge", response_model=g.EntityOut, summary="Merge two entities")
def merge(body: g.MergeIn, caller: Caller, state: State) -> dict[str, Any]:
    """Fold entity ``other`` into ``keep``: its mentions, relations and names (which
    become aliases of ``keep``) move over and ``other`` is gone. Returns ``keep``."""
    mem = state.memory
    ids = _scope(caller, mem, body.scope_args())
    return mem.graph.merge(body.keep, body.other, **ids).to_dict()


@router.post("/v1/graph/split", response_model=g.EntityOut, summary="Split an alias off")
def split(body: g.SplitIn, caller: Caller, state: State) -> dict[str, Any]:
    """Turn ``alias`` of ``entity`` back into an entity of its own (undoing a wrong
    merge); returns the new entity."""
    mem = state.memory
    ids = _scope(caller, mem, body.scope_args())
    return mem.graph.split(body.entity, body.alias, **ids).to_dict()


@router.post("/v1/graph/invalidate", response_model=g.RelationOut, summary="End a relation")
def invalidate(body: g.InvalidateIn, caller: Caller, state: State) -> dict[str, Any]:
    """Close the relation ``source -relation_type-> target`` that holds now, at ``at``
    (default now); returns it with its ``valid_to``. 404 if no such relation holds."""
    mem = state.memory
    ids = _scope(caller, mem, body.scope_args())
    closed = mem.graph.invalidate(body.source, body.relation_type, body.target, at=body.at, **ids)
    return closed.to_dict()


@router.post("/v1/graph/dedupe", response_model=g.DedupeOut, summary="Find duplicate entities")
def dedupe(body: g.DedupeIn, caller: Caller, state: State) -> dict[str, Any]:
    """Entities of the namespace that are one under two names (by normalised name, a
    lone first name, or names' embeddings at least ``threshold`` alike); with
    ``dry_run: false`` each is merged into the kept one."""
    mem = state.memory
    ids = _scope(caller, mem, body.scope_args())
    found = mem.graph.dedupe(body.threshold, body.dry_run, entity_type=body.entity_type, **ids)
    return found.to_dict()


@router.post("/v1/graph/aspects/decay", response_model=g.DecayOut, summary="Decay stale aspects")
def decay_aspects(body: g.DecayIn, caller: Caller, state: State) -> dict[str, Any]:
    """seed 004's aspect decay in the caller's namespace: aspects not confirmed for
    ``[graph] aspect_stale_days`` lose ``aspect_decay_rate``, floored at
    ``aspect_min_weight``; each at most once per stale period."""
    mem = state.memory
    ids = _scope(caller, mem, body.scope_args())
    return {"decayed": mem.graph.decay_aspects(now=body.now, **ids)}

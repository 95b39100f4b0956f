"""The graph's and the palace's verbs over HTTP, each written once as the ``Call`` it
makes.

They return the HTTP API's response models (``engram.api.graph_models``, the palace
route models): the graph's pages carry ``total``, where the library has separate count
verbs. Every verb takes the scope keywords like the library's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any, TypeVar, Unpack

from pydantic import BaseModel

from engram.api import graph_models as g
from engram.api import palace_routes as palace_api
from engram.client import decode
from engram.client.call import (
    Call,
    Params,
    given,
    json_body,
    name_path,
    page_params,
    query_value,
    scope_given,
)
from engram.scoping import ScopeArgs

Moment = datetime | date | str | None
#: A response model.
M = TypeVar("M", bound=BaseModel)


def _moment(value: Moment) -> str | None:
    return value.isoformat() if isinstance(value, date) else value


# -- graph -----------------------------------------------------------------------------
def graph_entities(
    limit: int = 50, offset: int = 0, query: str | None = None, **scope: Unpack[ScopeArgs]
) -> Call[g.EntityList]:
    """``GET /v1/graph/entities``: entities, most mentioned first, with ``total``."""
    params = {
        **scope_given(scope),
        **given(query=query),
        **page_params(limit, offset),
    }
    return Call("GET", "/v1/graph/entities", decode.model(g.EntityList), params=params)


def _of_entity(route: str, name: str, what: str, out: type[M], params: Params) -> Call[M]:
    """``GET /v1/graph/{route}/{name}``: what the graph holds of one entity (``what``:
    the name's parameter, for the error a bad name gets)."""
    path = f"/v1/graph/{route}/{name_path(name, what)}"
    return Call("GET", path, decode.model(out), params=params)


def graph_entity(name: str, **scope: Unpack[ScopeArgs]) -> Call[g.EntityDetail]:
    """``GET /v1/graph/entities/{name}``: an entity with aspects, attributes, memories."""
    return _of_entity("entities", name, "name", g.EntityDetail, scope_given(scope))


def graph_relations(
    entity: str | None = None,
    current_only: bool = True,
    *,
    at: Moment = None,
    limit: int = 100,
    offset: int = 0,
    **scope: Unpack[ScopeArgs],
) -> Call[g.RelationList]:
    """``GET /v1/graph/relations``: relations that hold now (all: ``current_only=False``;
    those that held at ``at``)."""
    params = {
        **scope_given(scope),
        **given(entity=entity, at=_moment(at)),
        "current": current_only,
        **page_params(limit, offset),
    }
    return Call("GET", "/v1/graph/relations", decode.model(g.RelationList), params=params)


def graph_timeline(entity: str, **scope: Unpack[ScopeArgs]) -> Call[g.TimelineOut]:
    """``GET /v1/graph/timeline/{name}``: every relation of the entity, closed ones too."""
    return _of_entity("timeline", entity, "entity", g.TimelineOut, scope_given(scope))


def graph_neighbors(
    entity: str, hops: int = 1, *, at: Moment = None, limit: int = 100, **scope: Unpack[ScopeArgs]
) -> Call[g.NeighborsOut]:
    """``GET /v1/graph/neighbors/{name}``: entities within ``hops`` relations."""
    params = {
        **scope_given(scope),
        **given(at=_moment(at)),
        "hops": query_value("hops", hops),
        "limit": query_value("limit", limit),
    }
    return _of_entity("neighbors", entity, "entity", g.NeighborsOut, params)


def _graph_post(path: str, out: type[Any], body: Mapping[str, Any]) -> Call[Any]:
    return Call("POST", path, decode.model(out), body=json_body(body))


def graph_merge(keep: str, other: str, **scope: Unpack[ScopeArgs]) -> Call[g.EntityOut]:
    """``POST /v1/graph/merge``: fold ``other`` into ``keep``."""
    body = {"keep": keep, "other": other, **scope_given(scope)}
    return _graph_post("/v1/graph/merge", g.EntityOut, body)


def graph_split(entity: str, alias: str, **scope: Unpack[ScopeArgs]) -> Call[g.EntityOut]:
    """``POST /v1/graph/split``: turn an alias back into an entity of its own."""
    body = {"entity": entity, "alias": alias, **scope_given(scope)}
    return _graph_post("/v1/graph/split", g.EntityOut, body)


def graph_invalidate(
    source: str, relation_type: str, target: str, *, at: Moment = None, **scope: Unpack[ScopeArgs]
) -> Call[g.RelationOut]:
    """``POST /v1/graph/invalidate``: close a relation that holds now."""
    body = {
        "source": source,
        "relation_type": relation_type,
        "target": target,
        **given(at=_moment(at)),
        **scope_given(scope),
    }
    return _graph_post("/v1/graph/invalidate", g.RelationOut, body)


def graph_dedupe(
    threshold: float = 0.9,
    dry_run: bool = True,
    *,
    entity_type: str | None = None,
    **scope: Unpack[ScopeArgs],
) -> Call[g.DedupeOut]:
    """``POST /v1/graph/dedupe``: entities that are one under two names (merged when
    ``dry_run`` is False)."""
    body = {
        "threshold": threshold,
        "dry_run": dry_run,
        **given(entity_type=entity_type),
        **scope_given(scope),
    }
    return _graph_post("/v1/graph/dedupe", g.DedupeOut, body)


def graph_decay_aspects(*, now: Moment = None, **scope: Unpack[ScopeArgs]) -> Call[g.DecayOut]:
    """``POST /v1/graph/aspects/decay``: seed 004's aspect decay in the namespace
    (``decayed``: how many aspects lost weight)."""
    body = {**given(now=_moment(now)), **scope_given(scope)}
    return _graph_post("/v1/graph/aspects/decay", g.DecayOut, body)


# -- palace ----------------------------------------------------------------------------
def palace_tree(wing: str | None = None, **scope: Unpack[ScopeArgs]) -> Call[list[dict[str, Any]]]:
    """``GET /v1/palace``: wings -> rooms -> closets, with drawer counts."""
    params = {**scope_given(scope), **given(wing=wing)}
    read = decode.model(palace_api.TreeOut)
    return Call("GET", "/v1/palace", lambda d: read(d).wings, params=params)


def palace_mine_conversation(
    messages: Sequence[Mapping[str, Any]],
    *,
    wing: str,
    session: str | None = None,
    kind: str = "topic",
    graph: bool = False,
    **scope: Unpack[ScopeArgs],
) -> Call[palace_api.MineOut]:
    """``POST /v1/palace/mine``: file a conversation, one drawer per message."""
    body = {
        "messages": list(messages),
        "wing": wing,
        "kind": kind,
        "graph": graph,
        **given(session=session),
        **scope_given(scope),
    }
    return Call("POST", "/v1/palace/mine", decode.model(palace_api.MineOut), body=json_body(body))


def palace_resolve(pointer: str, **scope: Unpack[ScopeArgs]) -> Call[palace_api.ResolveOut]:
    """``GET /v1/palace/resolve``: the drawer an AAAK pointer names, with its memory."""
    params = {**scope_given(scope), "pointer": pointer}
    return Call("GET", "/v1/palace/resolve", decode.model(palace_api.ResolveOut), params=params)

"""The calls of mem0's hosted client (``mem0.MemoryClient``) under ``/mem0`` (pass42).

``MemoryClient(api_key=<engram key>, host="http://<engram>/mem0")`` sends its requests
to mem0's platform paths below ``host``: ``GET /v1/ping/`` when it is built, then
``POST /v3/memories/add/``, ``POST /v3/memories/`` (``get_all``), ``POST
/v3/memories/search/``, ``GET``/``PUT``/``DELETE /v1/memories/{id}/``, ``DELETE
/v1/memories/`` (``delete_all``) and ``GET /v1/memories/{id}/history/``. Each is one
call of the mem0 door, as the open-source routes (``mem0_routes``) are, over the same
confinement to the key's namespaces.

The client authenticates with ``Authorization: Token <key>``; these routes take that
scheme (and ``Bearer``) with an engram key. The platform's organisations, projects,
webhooks, exports, batch calls and feedback are not here (404): engram has no such
objects, and a 404 says so where a stand-in would pretend. Entities (``users()``,
``delete_users()``, ``reset()``) are the ids the key's memories carry (docs/compat-mem0.md,
"mem0's hosted MemoryClient").
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api.auth import State, authenticate
from engram.api.mem0_routes import Mem0Create, QueryIds, _door, added
from engram.api.routes import _ERRORS, MemoryId
from engram.compat.mem0_entities import TYPES, entities
from engram.errors import NotFoundError
from engram.keys import Principal

#: The most memories one listing counts and pages through.
LIST_CAP = 10_000

router = APIRouter(prefix="/mem0", tags=["mem0"], responses=_ERRORS)


def token_caller(state: State, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The caller of an ``Authorization: Token <key>`` (mem0's client) or ``Bearer``."""
    if authorization:
        scheme, _, key = authorization.partition(" ")
        if scheme.lower() == "token":
            authorization = f"Bearer {key.strip()}"
    return authenticate(state, authorization)


TokenCaller = Annotated[Principal, Depends(token_caller)]


class PlatformAdd(Mem0Create):
    """``POST /v3/memories/add/``: the client's ``add``."""

    async_mode: bool | None = Field(
        default=None, description="Accepted; engram stores before it answers."
    )


class PlatformList(BaseModel):
    """``POST /v3/memories/``: the client's ``get_all`` (ids in ``filters``)."""

    model_config = ConfigDict(extra="forbid")

    filters: dict[str, Any] = Field(description="mem0's filter; at least one id.")
    show_expired: bool = False


class PlatformSearch(BaseModel):
    """``POST /v3/memories/search/``: the client's ``search`` (ids in ``filters``)."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    filters: dict[str, Any] = Field(description="mem0's filter; at least one id.")
    top_k: int | None = Field(default=None, ge=0, le=1000)
    threshold: float | None = Field(default=None, ge=0, le=1)
    rerank: bool = False
    show_expired: bool = False


class PlatformUpdate(BaseModel):
    """``PUT /v1/memories/{id}/``: the client's ``update``."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = None
    metadata: dict[str, Any] | None = None
    expiration_date: str | None = None


@router.get("/v1/ping/", summary="mem0 client: check the key")
def client_ping(caller: TokenCaller) -> dict[str, Any]:
    """What the client reads when it is built. It refuses to start without an
    organisation and a project, which engram has not: ``engram`` and the key's user
    stand for them (the client's project calls then get 404). No e-mail."""
    return {"status": "ok", "user_email": None, "org_id": "engram", "project_id": caller.user}


@router.post("/v3/memories/add/", summary="mem0 client: add memories")
def client_add(body: PlatformAdd, caller: TokenCaller, state: State) -> dict[str, Any]:
    """The client's ``add``, stored before the answer (``async_mode`` or not)."""
    return added(body, _door(caller, state))


@router.post("/v3/memories/", summary="mem0 client: list memories")
def client_get_all(
    body: PlatformList,
    caller: TokenCaller,
    state: State,
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    """The client's ``get_all``: the platform's page (``count``, ``next``,
    ``previous``, ``results``), newest first; ``count`` counts up to ``LIST_CAP``."""
    listed = _door(caller, state).get_all(
        filters=body.filters, top_k=LIST_CAP, show_expired=body.show_expired
    )["results"]
    start = (page - 1) * page_size
    more = len(listed) > start + page_size
    return {
        "count": len(listed),
        "next": f"?page={page + 1}&page_size={page_size}" if more else None,
        "previous": f"?page={page - 1}&page_size={page_size}" if page > 1 else None,
        "results": listed[start : start + page_size],
    }


@router.post("/v3/memories/search/", summary="mem0 client: search memories")
def client_search(body: PlatformSearch, caller: TokenCaller, state: State) -> dict[str, Any]:
    """The client's ``search``: ``{"results": [...]}`` with scores."""
    return _door(caller, state).search(
        body.query,
        filters=body.filters,
        top_k=body.top_k,
        threshold=body.threshold,
        rerank=body.rerank,
        show_expired=body.show_expired,
    )


@router.get("/v1/memories/{memory_id}/", summary="mem0 client: get a memory")
def client_get(memory_id: MemoryId, caller: TokenCaller, state: State) -> dict[str, Any]:
    """The client's ``get``: the item; 404 for an unknown id (the client raises its
    ``MemoryNotFoundError``)."""
    item = _door(caller, state).get(memory_id)
    if item is None:
        raise NotFoundError(f"Memory with id {memory_id} not found")
    return item


@router.put("/v1/memories/{memory_id}/", summary="mem0 client: update a memory")
def client_update(
    memory_id: MemoryId, body: PlatformUpdate, caller: TokenCaller, state: State
) -> dict[str, Any]:
    """The client's ``update`` (``expiration_date: null`` clears the expiry)."""
    given = body.model_fields_set
    expiry: Any = body.expiration_date if "expiration_date" in given else ...
    return _door(caller, state).update(
        memory_id, body.text, metadata=body.metadata, expiration_date=expiry
    )


@router.delete("/v1/memories/{memory_id}/", summary="mem0 client: delete a memory")
def client_delete(memory_id: MemoryId, caller: TokenCaller, state: State) -> dict[str, Any]:
    """The client's ``delete``; 404 for an unknown id."""
    return _door(caller, state).delete(memory_id)


@router.delete("/v1/memories/", summary="mem0 client: delete a scope's memories")
def client_delete_all(caller: TokenCaller, state: State, ids: QueryIds) -> dict[str, Any]:
    """The client's ``delete_all`` (``?user_id=``...); refused without an id."""
    return _door(caller, state).delete_all(**ids)


@router.get("/v1/memories/{memory_id}/history/", summary="mem0 client: a memory's history")
def client_history(memory_id: MemoryId, caller: TokenCaller, state: State) -> list[dict[str, Any]]:
    """The client's ``history``: ADD/UPDATE/DELETE rows."""
    return _door(caller, state).history(memory_id)


@router.get("/v1/entities/", summary="mem0 client: the users, agents and runs")
def client_entities(caller: TokenCaller, state: State) -> dict[str, Any]:
    """The client's ``users()``: every user, agent and run id the key's memories carry
    (``compat.mem0_entities``)."""
    return {"results": entities(state.memory, caller.may_reach)}


@router.delete("/v2/entities/{kind}/{name}/", summary="mem0 client: delete an entity")
def client_delete_entity(
    kind: Annotated[str, Path(pattern="^(user|agent|run)$")],
    name: Annotated[str, Path(min_length=1, max_length=190)],
    caller: TokenCaller,
    state: State,
) -> dict[str, Any]:
    """The client's ``delete_users`` (and ``reset``): the door's ``delete_all`` of the
    id. mem0's ``app`` entities have no engram counterpart (422)."""
    _door(caller, state).delete_all(**{TYPES[kind]: name})
    return {"message": "Entity deleted successfully!"}

"""mem0's REST shape under ``/mem0`` (issue 27): the routes of mem0's open-source
server (``POST /memories`` with ``{"messages": [...]}``, ``GET /memories``,
``GET/PUT/DELETE /memories/{id}``, ``GET /memories/{id}/history``, ``DELETE
/memories``, ``POST /search``, ``POST /reset``), each one call of the mem0 door
(``engram.compat.mem0``).

Authentication is engram's: a bearer key, and the door reads and writes only the
namespaces the key reaches (``Principal.scope``/``may_reach``): a user key works in its
own ``user:<user>`` namespace, where mem0's ``agent_id``/``run_id`` (and a
``user_id``, which must be the key's own) are fields. ``POST /reset`` erases every
namespace, so it needs an admin key (403 otherwise).
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api.auth import Caller, ServerState, State
from engram.api.routes import _ERRORS, MemoryId
from engram.compat.mem0 import Memory as Door
from engram.keys import Principal

log = logging.getLogger("engram.api")

#: mem0's ids in a query string (its server's ``GET``/``DELETE /memories``).
IdQuery = Annotated[str | None, Query(min_length=1, max_length=190)]

router = APIRouter(prefix="/mem0", tags=["mem0"], responses=_ERRORS)


class Mem0Message(BaseModel):
    """One chat message; ``name`` becomes the memory's ``actor_id``."""

    model_config = ConfigDict(extra="forbid")

    role: str = Field(max_length=100)
    content: str
    name: str | None = Field(default=None, max_length=190)


class Mem0Ids(BaseModel):
    """mem0's scope ids: at least one is needed (as on mem0)."""

    model_config = ConfigDict(extra="forbid")

    user_id: str | None = Field(default=None, min_length=1, max_length=190)
    agent_id: str | None = Field(default=None, min_length=1, max_length=190)
    run_id: str | None = Field(default=None, min_length=1, max_length=190)

    def given(self) -> dict[str, str]:
        """The ids that are set."""
        ids = {"user_id": self.user_id, "agent_id": self.agent_id, "run_id": self.run_id}
        return {k: v for k, v in ids.items() if v is not None}


class Mem0Create(Mem0Ids):
    """``POST /memories``: mem0's ``add``."""

    messages: list[Mem0Message] = Field(min_length=1, max_length=1000)
    metadata: dict[str, Any] | None = None
    infer: bool = Field(
        default=True,
        description="False: one memory per message, verbatim. True (mem0's default): "
        "engram's extraction pipeline run on the conversation now, and the facts it kept "
        "returned; the conversation is kept as their source.",
    )
    expiration_date: str | None = Field(default=None, description="YYYY-MM-DD.")


class Mem0Search(Mem0Ids):
    """``POST /search``: mem0's ``search``; the ids join ``filters``."""

    query: str = Field(min_length=1)
    filters: dict[str, Any] | None = None
    top_k: int | None = Field(default=None, ge=0, le=1000)
    threshold: float | None = Field(default=None, ge=0, le=1)
    rerank: bool = False
    explain: bool = False
    show_expired: bool = False


class Mem0Update(BaseModel):
    """``PUT /memories/{id}``: the new text (``text``, or mem0's older ``data``) and
    metadata merged into the memory's own."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = None
    data: str | None = None
    metadata: dict[str, Any] | None = None


def _door(caller: Principal, state: ServerState) -> Door:
    """The mem0 door over the server's store, confined to the caller's namespaces."""
    mem = state.memory
    return Door(
        memory=mem,
        scope=lambda u, a, r, ns: caller.scope(mem, namespace=ns, user_id=u, agent_id=a, run_id=r),
        reaches=caller.may_reach,
        # an agent's key adds as its agent, as every other write route does (left39)
        writes=lambda u, a, r, ns: caller.acting_scope(
            mem, namespace=ns, user_id=u, agent_id=a, run_id=r
        ),
        notice=log.warning,
    )


def _query_ids(
    user_id: IdQuery = None, agent_id: IdQuery = None, run_id: IdQuery = None
) -> dict[str, str]:
    """mem0's ids in a query string (its server's ``GET``/``DELETE /memories``)."""
    return Mem0Ids(user_id=user_id, agent_id=agent_id, run_id=run_id).given()


QueryIds = Annotated[dict[str, str], Depends(_query_ids)]


def _filters(ids: dict[str, str], filters: dict[str, Any] | None = None) -> dict[str, Any]:
    """mem0's server passes the ids with the filters; the door takes them in filters."""
    return {**(filters or {}), **ids}


@router.post("/memories", summary="mem0: add memories")
def create_memory(body: Mem0Create, caller: Caller, state: State) -> dict[str, Any]:
    """Store ``messages`` (mem0's ``add``): ``{"results": [{"id", "memory", "event",
    "actor_id", "role"}]}``."""
    return added(body, _door(caller, state))


def added(body: Mem0Create, door: Door) -> dict[str, Any]:
    """``body``'s messages stored through the door (the REST route's and the hosted
    client's ``add`` alike)."""
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    return door.add(
        messages,
        **body.given(),
        metadata=body.metadata,
        infer=body.infer,
        expiration_date=body.expiration_date,
    )


@router.get("/memories", summary="mem0: list memories")
def list_memories(
    caller: Caller,
    state: State,
    ids: QueryIds,
    top_k: Annotated[int | None, Query(ge=0, le=1000)] = None,
) -> dict[str, Any]:
    """mem0's ``get_all`` of a scope: ``{"results": [...]}``."""
    return _door(caller, state).get_all(filters=_filters(ids), top_k=top_k)


@router.get("/memories/{memory_id}", summary="mem0: get a memory")
def get_memory(memory_id: MemoryId, caller: Caller, state: State) -> dict[str, Any] | None:
    """mem0's ``get``: the item, or ``null`` when there is none (as mem0's server)."""
    return _door(caller, state).get(memory_id)


@router.put("/memories/{memory_id}", summary="mem0: update a memory")
def update_memory(
    memory_id: MemoryId, body: Mem0Update, caller: Caller, state: State
) -> dict[str, Any]:
    """mem0's ``update``; 404 for an unknown id."""
    return _door(caller, state).update(memory_id, body.text, metadata=body.metadata, data=body.data)


@router.get("/memories/{memory_id}/history", summary="mem0: a memory's history")
def memory_history(memory_id: MemoryId, caller: Caller, state: State) -> list[dict[str, Any]]:
    """mem0's ``history``: ADD/UPDATE/DELETE/NONE rows, ``[]`` for an unknown id."""
    return _door(caller, state).history(memory_id)


@router.delete("/memories/{memory_id}", summary="mem0: delete a memory")
def delete_memory(memory_id: MemoryId, caller: Caller, state: State) -> dict[str, Any]:
    """mem0's ``delete``; 404 for an unknown id."""
    return _door(caller, state).delete(memory_id)


@router.delete("/memories", summary="mem0: delete a scope's memories")
def delete_memories(caller: Caller, state: State, ids: QueryIds) -> dict[str, Any]:
    """mem0's ``delete_all`` (``?user_id=``...): 422 without an id."""
    return _door(caller, state).delete_all(**ids)


@router.post("/search", summary="mem0: search memories")
def search_memories(body: Mem0Search, caller: Caller, state: State) -> dict[str, Any]:
    """mem0's ``search``: ``{"results": [...]}`` with scores."""
    return _door(caller, state).search(
        body.query,
        filters=_filters(body.given(), body.filters),
        top_k=body.top_k,
        threshold=body.threshold,
        rerank=body.rerank,
        explain=body.explain,
        show_expired=body.show_expired,
    )


@router.post("/reset", summary="mem0: erase every memory")
def reset_memories(caller: Caller, state: State) -> dict[str, Any]:
    """mem0's ``reset``: every namespace erased (audited). Admin keys only."""
    caller.require_admin("mem0 reset (it erases every namespace)")
    _door(caller, state).reset()
    return {"message": "Reset all memories"}

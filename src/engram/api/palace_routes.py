"""The palace over HTTP: the tree, mining a conversation, resolving an AAAK pointer
(FEATURES G6, G7, G8; seed 003).

Each route resolves the caller's scope like every other route (``Caller.scope``), so a
key reaches only its own namespaces' palace; another user's pointer is a 404.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, _ids, _scoped

router = APIRouter(responses=_ERRORS, tags=["palace"])


class TreeQuery(m.Scope):
    """``GET /v1/palace``: the whole tree, or one wing's."""

    wing: str | None = Field(
        default=None, max_length=200, description="A wing's name, alias or code (W-001)."
    )


class TreeOut(BaseModel):
    """Wings with their rooms, each room's drawer count and closets."""

    wings: list[dict[str, Any]]


class MineMessage(BaseModel):
    """One message of the conversation: stored verbatim as one drawer."""

    model_config = ConfigDict(extra="forbid")

    role: str | None = Field(default=None, max_length=200)
    content: str
    created_at: datetime | None = None


class MineIn(m.Scope):
    """``POST /v1/palace/mine``: a conversation to file in a wing's room."""

    messages: list[MineMessage] = Field(max_length=100_000)
    wing: str = Field(min_length=1, max_length=200)
    session: str | None = Field(
        default=None, max_length=200, description="The room; default: from the first message."
    )
    kind: Literal["person", "project", "topic", "agent"] = "topic"
    graph: bool = Field(default=False, description="Also record the relations found.")


class MineOut(BaseModel):
    """What mining filed."""

    wing: dict[str, Any] | None
    room: dict[str, Any] | None
    turns: int
    added: list[dict[str, Any]] = Field(description="New drawers, each with its pointer.")
    kept: int = Field(description="Turns the room already held.")
    blocked: int
    invalid: int
    closets: list[dict[str, Any]]
    relations: int
    llm_windows: list[int] = Field(
        description="Windows (0-based) whose topic and entities the LLM gave; the rules "
        "read the rest."
    )
    warnings: list[str] = Field(description="What was wrong with the LLM's answers, if any.")


class DrawersQuery(m.Scope):
    """``GET /v1/palace/drawers``: the drawers of one room."""

    wing: str = Field(min_length=1, max_length=200, description="A wing's name, alias or code.")
    room: str = Field(min_length=1, max_length=200, description="A room's name, alias or number.")


class DrawersOut(BaseModel):
    """A room's drawers in order, each with its AAAK pointer."""

    drawers: list[dict[str, Any]]


class ResolveQuery(m.Scope):
    """``GET /v1/palace/resolve``: the drawer an AAAK pointer names."""

    pointer: str = Field(min_length=1, max_length=1000, examples=["§ W-001/R-01/D-003"])


class ResolveOut(BaseModel):
    """The drawer and the memory it holds."""

    drawer: dict[str, Any]
    memory: m.MemoryOut


@router.get("/v1/palace", response_model=TreeOut, summary="The palace tree")
def palace_tree(query: Annotated[TreeQuery, Query()], caller: Caller, state: State) -> Any:
    """Wings → rooms → closets, with drawer counts."""
    mem, scope = _scoped(caller, state, query)
    return {"wings": [n.to_dict() for n in mem.palace.tree(query.wing, **_ids(scope))]}


@router.post("/v1/palace/mine", response_model=MineOut, summary="Mine a conversation")
def mine_conversation(body: MineIn, caller: Caller, state: State) -> Any:
    """File a conversation: one drawer per message, idempotent when sent again."""
    mem, scope = _scoped(caller, state, body)
    messages = [msg.model_dump(exclude_none=True) for msg in body.messages]
    result = mem.palace.mine_conversation(
        messages,
        wing=body.wing,
        session=body.session,
        kind=body.kind,
        graph=body.graph,
        **_ids(scope),
    )
    return result.to_dict()


@router.get("/v1/palace/resolve", response_model=ResolveOut, summary="Resolve a pointer")
def resolve_pointer(query: Annotated[ResolveQuery, Query()], caller: Caller, state: State) -> Any:
    """The drawer an AAAK pointer names, with its memory (422 if malformed, 404 if
    there is no such drawer in the namespace)."""
    mem, scope = _scoped(caller, state, query)
    return mem.palace.resolve(query.pointer, **_ids(scope)).to_dict()


@router.get("/v1/palace/drawers", response_model=DrawersOut, summary="A room's drawers")
def room_drawers(query: Annotated[DrawersQuery, Query()], caller: Caller, state: State) -> Any:
    """The drawers of a room, in order, with their AAAK pointers (404 for an unknown
    wing or room)."""
    mem, scope = _scoped(caller, state, query)
    room: str | int = int(query.room) if query.room.isdigit() else query.room
    drawers = mem.palace.drawers(query.wing, room, **_ids(scope))
    return {"drawers": [d.to_dict() for d in drawers]}

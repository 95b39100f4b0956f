"""Sessions over HTTP (seed 004's checkpoints and continuity scoring; FEATURES S11, S13).

A harness reports what happens in a session (``track``, ``injected``), asks for
checkpoints, recovers a digest after compaction, and ends the session to have it scored.
Each route resolves the caller's scope like every other route (``Caller.scope``), so a
key reaches only its own namespaces' sessions.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from pydantic import BaseModel, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS, ScopeQuery, _namespace, _scoped
from engram.errors import NotFoundError
from engram.records import iso

SessionKey = Annotated[str, Path(min_length=1, max_length=200, description="The session key.")]
Trigger = Literal["periodic", "pre_compaction", "session_end", "agent", "explicit"]

router = APIRouter(responses=_ERRORS, tags=["sessions"])


class CheckpointOut(BaseModel):
    """One stored checkpoint."""

    id: int
    namespace: str
    session_key: str
    trigger: str
    digest: str
    prompt_count: int
    memory_queries: list[str]
    recent_remembers: list[str]
    harness: str | None
    project: str | None
    project_normalized: str | None
    created_at: str
    agent_id: str | None = Field(
        default=None, description="The agent whose session it is, when one was named."
    )


class CheckpointResult(BaseModel):
    """The checkpoint written by this call, or null while it waits out the debounce."""

    checkpoint: CheckpointOut | None


class CheckpointList(BaseModel):
    """A session's checkpoints, newest first."""

    items: list[CheckpointOut]


class ScoreOut(BaseModel):
    """A session's continuity score."""

    namespace: str
    session_key: str
    score: float
    confidence: float
    memories_recalled: int
    memories_used: int
    novel_context_count: int
    reasoning: str
    method: Literal["llm", "offline"]
    per_memory: dict[str, float]
    scored_at: str


class SessionRow(BaseModel):
    """A session with checkpoints."""

    session_key: str
    checkpoints: int
    last_checkpoint_at: str


class SessionList(BaseModel):
    """The namespace's sessions, most recent first."""

    items: list[SessionRow]
    limit: int
    offset: int


class TrackIn(BaseModel):
    """What happened in the session since the last call."""

    model_config = STRICT

    prompt: str | None = Field(default=None, max_length=100_000)
    query: str | None = Field(default=None, max_length=10_000)
    remembered: str | None = Field(default=None, max_length=100_000)
    harness: str | None = Field(default=None, max_length=200)
    project: str | None = Field(default=None, max_length=1000)


class InjectedIn(BaseModel):
    """Memories recall put in front of the session, in rank order."""

    model_config = STRICT

    memory_ids: list[str] = Field(min_length=1, max_length=1000)


class InjectedOut(BaseModel):
    """How many of them were new to the session."""

    added: int


class CheckpointIn(BaseModel):
    """Ask for a checkpoint."""

    model_config = STRICT

    trigger: Trigger = "explicit"
    context: str | None = Field(default=None, max_length=100_000)


class RecoverOut(BaseModel):
    """The recovery digest (empty without checkpoints)."""

    session_key: str
    digest: str


class EndIn(BaseModel):
    """Close the session; the transcript (else the stored one) is what scoring reads."""

    model_config = STRICT

    transcript: str | None = Field(default=None, max_length=5_000_000)


class CheckpointQuery(m.Scope):
    limit: int = Field(default=50, ge=1, le=1000)
    trigger: Trigger | None = None


class RecoverQuery(m.Scope):
    budget: int | None = Field(default=None, ge=1, le=100_000)


class ListQuery(m.Scope):
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


@router.get("/v1/sessions", response_model=SessionList, summary="Sessions")
def list_sessions(
    query: Annotated[ListQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Sessions of the namespace with checkpoints, most recent first."""
    rows = state.memory.sessions.list(
        limit=query.limit, offset=query.offset, **_owner(caller, state, query)
    )
    return {
        "items": [
            {"session_key": k, "checkpoints": n, "last_checkpoint_at": iso(at)} for k, n, at in rows
        ],
        "limit": query.limit,
        "offset": query.offset,
    }


def _owner(
    caller: Caller, state: State, given: m.Scope, session_key: str | None = None
) -> dict[str, str | None]:
    """The namespace and agent of a call: the agent a session is tracked for (its
    checkpoints carry it) and whose sessions a listing keeps. With ``session_key``,
    an agent's key must own that session (``_mine``)."""
    _, scope = _scoped(caller, state, given, acts=True)
    if session_key is not None:
        _mine(caller, state, scope.namespace, session_key)
    return {"namespace": scope.namespace, "agent_id": scope.agent_id}


def _mine(caller: Caller, state: State, namespace: str, session_key: str) -> str:
    """``namespace``, once an agent's key is known to own the session there
    (``Sessions.require_agent``); a key of no agent reaches every session of its
    namespaces, as before."""
    if caller.agent is not None:
        state.memory.sessions.require_agent(session_key, caller.agent, namespace=namespace)
    return namespace


@router.post("/v1/sessions/{session_key}/track", response_model=CheckpointResult, summary="Track")
def track(
    session_key: SessionKey, body: TrackIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Note a prompt, a memory query and/or a remember; a periodic checkpoint falls due
    every ``prompt_interval`` prompts or ``time_interval_s``."""
    who = _owner(caller, state, scope_in, session_key)
    written = state.memory.sessions.track(session_key, **who, **body.model_dump())
    return {"checkpoint": None if written is None else written.to_dict()}


@router.post(
    "/v1/sessions/{session_key}/injected", response_model=InjectedOut, summary="Injected memories"
)
def injected(
    session_key: SessionKey, body: InjectedIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Record the memories recall put in front of the session."""
    who = _owner(caller, state, scope_in, session_key)
    return {"added": state.memory.sessions.injected(session_key, body.memory_ids, **who)}


@router.post(
    "/v1/sessions/{session_key}/checkpoints", response_model=CheckpointResult, summary="Checkpoint"
)
def checkpoint(
    session_key: SessionKey,
    scope_in: ScopeQuery,
    caller: Caller,
    state: State,
    body: Annotated[CheckpointIn | None, Body()] = None,
) -> dict[str, Any]:
    """Queue a checkpoint (an explicit one without a body); written once its debounce
    window closes."""
    who = _owner(caller, state, scope_in, session_key)
    body = body or CheckpointIn()
    written = state.memory.sessions.checkpoint(
        session_key, body.trigger, context=body.context, **who
    )
    return {"checkpoint": None if written is None else written.to_dict()}


@router.get(
    "/v1/sessions/{session_key}/checkpoints", response_model=CheckpointList, summary="Checkpoints"
)
def checkpoints(
    session_key: SessionKey,
    query: Annotated[CheckpointQuery, Query()],
    caller: Caller,
    state: State,
) -> dict[str, Any]:
    """The session's stored checkpoints, newest first."""
    ns = _mine(caller, state, _namespace(caller, state, query), session_key)
    rows = state.memory.sessions.checkpoints(
        session_key, limit=query.limit, trigger=query.trigger, namespace=ns
    )
    return {"items": [c.to_dict() for c in rows]}


@router.get("/v1/sessions/{session_key}/recover", response_model=RecoverOut, summary="Recover")
def recover(
    session_key: SessionKey, query: Annotated[RecoverQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """The recovery digest: where the session was, newest first, within the budget."""
    ns = _mine(caller, state, _namespace(caller, state, query), session_key)
    digest = state.memory.sessions.recover(session_key, budget=query.budget, namespace=ns)
    return {"session_key": session_key, "digest": digest}


@router.post("/v1/sessions/{session_key}/end", response_model=ScoreOut, summary="End and score")
def end(
    session_key: SessionKey,
    scope_in: ScopeQuery,
    caller: Caller,
    state: State,
    body: Annotated[EndIn | None, Body()] = None,
) -> dict[str, Any]:
    """Write the session_end checkpoint and score how well the injected memories
    served the session (the body is optional)."""
    ns = _mine(caller, state, _namespace(caller, state, scope_in), session_key)
    body = body or EndIn()
    scored = state.memory.sessions.end(session_key, transcript=body.transcript, namespace=ns)
    return scored.to_dict()


@router.get("/v1/sessions/{session_key}/score", response_model=ScoreOut, summary="Score")
def score(
    session_key: SessionKey, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """The session's continuity score, once it ended."""
    ns = _mine(caller, state, _namespace(caller, state, scope_in), session_key)
    found = state.memory.sessions.score(session_key, namespace=ns)
    if found is None:
        raise NotFoundError(f"session {session_key!r} has not been scored; end it first")
    return found.to_dict()

"""The backend, agent levels and shared knowledge over HTTP (FEATURES S1-S3).

- ``GET /v1/backend``: the store's name, connection, health and capabilities (any key).
- ``GET /v1/agents/{agent_id}/level`` (any key) and ``PUT``/``DELETE`` (admin keys only:
  an agent id is the same in every namespace, so its level is the operator's choice).
- ``POST /v1/agents/{agent_id}/sessions/{session_id}/end``: tombstone the agent's
  session-level memories of that session, in the caller's namespace only.
- ``/v1/shared``: publish, search (leaving out the caller's agent), list, retract. A
  key's shared space is ``user:<its user>/shared`` unless it names another namespace it
  may reach (an admin key may name any, ``shared:default`` say); a server started with
  ``--no-auth`` defaults to ``shared:default``. So agents of one user share with each
  other, and no user key reads or writes another user's space.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query
from pydantic import BaseModel, Field

from engram.agents import AgentProfile, MemoryLevel
from engram.api import models as m
from engram.api.auth import Caller, ServerState, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS, ScopeQuery, _namespace
from engram.errors import InvalidInputError
from engram.keys import Principal
from engram.records import iso
from engram.shared import DEFAULT_SPACE

AgentId = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9_.:@/+-]{1,190}$", description="The agent's id.")
]
SessionId = Annotated[str, Path(min_length=1, max_length=200, description="The session id.")]
MemoryId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=200,
        description="The publication's whole id, as the API returned it (a prefix is not "
        "looked up).",
    ),
]

router = APIRouter(responses=_ERRORS)


class CapabilitiesOut(BaseModel):
    """Seed 002's capability discovery."""

    backend_name: str
    supported_categories: list[str]
    supports_graph: bool
    supports_temporal: bool
    supports_vector_search: bool
    supports_shared_access: bool
    max_memories_per_agent: int | None
    supports_reconnect: bool


class BackendOut(BaseModel):
    """The store behind this server."""

    backend: str
    connected: bool
    healthy: bool
    capabilities: CapabilitiesOut


class LevelOut(BaseModel):
    """An agent's memory level; ``stored`` is False when it never set one."""

    agent_id: str
    level: MemoryLevel
    project: str | None
    stored: bool
    updated_at: str | None


class LevelIn(BaseModel):
    """Set an agent's memory level (``project`` only, and required, at ``project``)."""

    model_config = STRICT

    level: MemoryLevel
    project: str | None = Field(default=None, min_length=1, max_length=200)


class EndedOut(BaseModel):
    """How many session-level memories were tombstoned."""

    agent_id: str
    session_id: str
    removed: int


class PublishIn(BaseModel):
    """A publication."""

    model_config = STRICT

    agent_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,190}$",
        description="The publisher; an agent's key publishes as its agent (then optional).",
    )
    content: m.Text = Field(max_length=1_000_000)
    tags: list[m.Tag] | None = Field(default=None, max_length=100)
    metadata: dict[str, Any] | None = None
    category: str | None = Field(default=None, max_length=50)
    type: str | None = Field(default=None, max_length=50)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)


class SpaceQuery(BaseModel):
    """Which shared namespace (default: the key's ``user:<user>/shared``)."""

    model_config = STRICT

    namespace: str | None = m.Namespace


class SharedSearchQuery(SpaceQuery):
    q: str = Field(min_length=1, max_length=10_000, description="The query.")
    exclude_agent: str | None = Field(
        default=None, max_length=190, description="Leave out this agent's publications."
    )
    limit: int | None = Field(default=None, ge=1, le=1000)


class PublicationsQuery(SpaceQuery):
    agent_id: str | None = Field(default=None, max_length=190)
    limit: int = Field(default=100, ge=1, le=10_000)


class SharedRetractIn(BaseModel):
    """Who retracts (only the publisher may), and why."""

    model_config = STRICT

    agent_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,190}$",
        description="The publisher; an agent's key retracts as its agent (then optional).",
    )
    reason: str | None = Field(default=None, max_length=2000)


class SharedHitsOut(BaseModel):
    """Ranked shared publications."""

    hits: list[m.HitOut]


class PublicationsOut(BaseModel):
    """Live publications, newest first."""

    items: list[m.MemoryOut]


def publisher(caller: Principal, agent_id: str | None) -> str:
    """Who publishes or retracts: an agent's key its own agent (403 if the body names
    another: the "only its publisher" rule must not trust the body), any other key the
    body's ``agent_id``, which it must then give."""
    who = caller.acting(agent_id)
    if who is None:
        raise InvalidInputError("agent_id is required: the publishing agent's id")
    return who


def space_for(caller: Principal, state: ServerState, namespace: str | None) -> str:
    """The shared namespace of a request, checked against the key's reach."""
    if namespace is None:
        namespace = DEFAULT_SPACE if caller.home is None else f"{caller.home}/shared"
    return str(caller.scope(state.memory, namespace=namespace).namespace)


def _level(agent_id: str, found: AgentProfile | None, default: MemoryLevel) -> dict[str, Any]:
    if found is None:
        return {
            "agent_id": agent_id,
            "level": default,
            "project": None,
            "stored": False,
            "updated_at": None,
        }
    return {
        "agent_id": found.agent_id,
        "level": found.level,
        "project": found.project,
        "stored": True,
        "updated_at": iso(found.updated_at),
    }


@router.get("/v1/backend", response_model=BackendOut, tags=["backend"], summary="Backend")
def backend(caller: Caller, state: State) -> dict[str, Any]:
    """The store's name, whether it is connected and answers, and what it can do."""
    return state.memory.backend.status()


@router.get(
    "/v1/agents/{agent_id}/level", response_model=LevelOut, tags=["agents"], summary="Level"
)
def get_level(agent_id: AgentId, caller: Caller, state: State) -> dict[str, Any]:
    """The agent's memory level (``persistent`` when it never set one)."""
    agents = state.memory.agents
    return _level(agent_id, agents.profile(agent_id), agents.level(agent_id))


@router.put(
    "/v1/agents/{agent_id}/level", response_model=LevelOut, tags=["agents"], summary="Set level"
)
def set_level(agent_id: AgentId, body: LevelIn, caller: Caller, state: State) -> dict[str, Any]:
    """Set the agent's memory level (admin keys only)."""
    caller.require_admin("setting an agent's memory level")
    found = state.memory.agents.set_level(agent_id, body.level, project=body.project)
    return _level(agent_id, found, found.level)


@router.delete(
    "/v1/agents/{agent_id}/level", response_model=LevelOut, tags=["agents"], summary="Reset level"
)
def reset_level(agent_id: AgentId, caller: Caller, state: State) -> dict[str, Any]:
    """Forget the agent's level: it is ``persistent`` again (admin keys only)."""
    caller.require_admin("resetting an agent's memory level")
    agents = state.memory.agents
    agents.reset(agent_id)
    return _level(agent_id, None, agents.level(agent_id))


@router.post(
    "/v1/agents/{agent_id}/sessions/{session_id}/end",
    response_model=EndedOut,
    tags=["agents"],
    summary="End a session-level session",
)
def end_session(
    agent_id: AgentId, session_id: SessionId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Tombstone the agent's session-level memories of the session in the caller's
    namespace."""
    ns = _namespace(caller, state, scope_in)
    caller.acting(agent_id)  # an agent's key ends only its own agent's sessions
    removed = state.memory.agents.end_session(agent_id, session_id, namespace=ns)
    return {"agent_id": agent_id, "session_id": session_id, "removed": removed}


@router.post(
    "/v1/shared", response_model=m.MemoryOut, status_code=201, tags=["shared"], summary="Publish"
)
def publish(
    body: PublishIn, query: Annotated[SpaceQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Publish knowledge for the other agents of the shared space."""
    space = space_for(caller, state, query.namespace)
    fields = body.model_dump(exclude={"agent_id", "content"})
    return state.memory.shared.publish(
        publisher(caller, body.agent_id), body.content, namespace=space, **fields
    ).to_dict()


@router.get(
    "/v1/shared/search", response_model=SharedHitsOut, tags=["shared"], summary="Search shared"
)
def search_shared(
    query: Annotated[SharedSearchQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Ranked publications of the shared space, leaving out ``exclude_agent``'s own."""
    space = space_for(caller, state, query.namespace)
    hits = state.memory.shared.search_shared(
        query.q, exclude_agent=query.exclude_agent, namespace=space, limit=query.limit
    )
    return {"hits": [h.to_dict() for h in hits]}


@router.get("/v1/shared", response_model=PublicationsOut, tags=["shared"], summary="Publications")
def publications(
    query: Annotated[PublicationsQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """The shared space's live publications, newest first."""
    space = space_for(caller, state, query.namespace)
    found = state.memory.shared.publications(
        namespace=space, agent_id=query.agent_id, limit=query.limit
    )
    return {"items": [r.to_dict() for r in found]}


@router.post(
    "/v1/shared/{memory_id}/retract",
    response_model=m.MemoryOut,
    tags=["shared"],
    summary="Retract a publication",
)
def retract(
    memory_id: MemoryId,
    query: Annotated[SpaceQuery, Query()],
    caller: Caller,
    state: State,
    body: Annotated[SharedRetractIn, Body()],
) -> dict[str, Any]:
    """Withdraw a publication; only its publisher may. Audited."""
    space = space_for(caller, state, query.namespace)
    return state.memory.shared.retract(
        publisher(caller, body.agent_id), memory_id, namespace=space, reason=body.reason
    ).to_dict()

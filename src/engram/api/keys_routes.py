"""API keys over HTTP: ``POST /v1/keys`` creates one (left39), as ``engram keys create``
does, for a deployment that provisions its agents' keys from a running server rather
than a shell on its host.

Admin only (a user key that could mint keys could mint one of another user, or one
without its own agent binding). The secret is in the answer once; the store keeps its
hash (``Keys.create``). Listing and revoking stay with the CLI and the library.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, status
from pydantic import BaseModel, Field

from engram.api.auth import Caller, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS
from engram.records import iso

router = APIRouter(tags=["keys"], responses=_ERRORS)


class KeyIn(BaseModel):
    """The key to create: whose (``user``), bound to one of its agents (``agent``), or an
    admin key."""

    model_config = STRICT

    user: str = Field(min_length=1, max_length=190, description="Whose namespaces it reaches.")
    agent: str | None = Field(
        default=None,
        min_length=1,
        max_length=190,
        description="Bind the key to this agent of the user: it acts only as the agent.",
    )
    admin: bool = Field(default=False, description="Reach every namespace and admin route.")
    name: str | None = Field(default=None, max_length=200, description="A label.")


class KeyOut(BaseModel):
    """The created key; ``key`` is its secret, shown this once."""

    id: str
    user: str
    agent: str | None
    admin: bool
    name: str | None
    created_at: str
    key: str


@router.post(
    "/v1/keys",
    response_model=KeyOut,
    status_code=status.HTTP_201_CREATED,
    summary="Create an API key",
)
def create_key(body: KeyIn, caller: Caller, state: State) -> dict[str, Any]:
    """Create a key (admin only) and return it with its secret, once: only its hash is
    stored. ``agent`` binds a user's key to that agent (see "Keys bound to an agent")."""
    caller.require_admin("creating an API key")
    key, plaintext = state.memory.keys.create(
        body.user, admin=body.admin, name=body.name, agent=body.agent
    )
    return {
        "id": key.id,
        "user": key.user,
        "agent": key.agent,
        "admin": key.admin,
        "name": key.name,
        "created_at": iso(key.created_at),
        "key": plaintext,
    }

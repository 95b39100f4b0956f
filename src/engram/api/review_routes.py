"""The review queue over HTTP: list, read, approve and reject held-back proposals.

Each route resolves the caller's scope like every other route (``Caller.scope``), so a
key reaches only its own namespaces' review items; another user's item is a 404.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api import models as m
from engram.api.auth import Caller, ServerState, State
from engram.api.routes import _ERRORS, ScopeQuery, _ids, _scoped, row_id_path
from engram.keys import Principal

ItemId = Annotated[int, row_id_path("A review item id.")]

router = APIRouter(responses=_ERRORS)


class ClaimSide(BaseModel):
    """One side of a contradiction: the memory and what it says."""

    memory_id: str | None = Field(description="The memory this side comes from.")
    text: str | None = Field(default=None, description="Its text.")
    claim: str | None = Field(default=None, description="The clause that conflicts.")


class Sides(BaseModel):
    """The old claim beside the new one, and why they conflict."""

    old: ClaimSide
    new: ClaimSide
    reason: str


class ReviewOut(BaseModel):
    """A proposal held back for review."""

    id: int
    namespace: str
    memory_id: str = Field(description="The memory the fact was extracted from.")
    target_id: str | None = Field(description="The memory the proposal would change.")
    action: str
    proposal: dict[str, Any]
    reason: str = Field(description="The contradiction that held it back.")
    status: Literal["pending", "approved", "rejected"]
    created_at: str
    resolved_by: str | None
    note: str | None
    resolved_at: str | None
    sides: Sides = Field(description="The old claim beside the new one, with both memory ids.")


class ReviewList(m.Page):
    """A page of review items, oldest first."""

    items: list[ReviewOut]


class ReviewQuery(m.Scope):
    """Filters of ``GET /v1/review``."""

    status: Literal["pending", "approved", "rejected", "all"] = "pending"
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class ResolveIn(BaseModel):
    """Why a reviewer decided as they did (kept in the audit trail)."""

    model_config = ConfigDict(extra="forbid")

    note: str | None = Field(default=None, max_length=2000)


@router.get("/v1/review", response_model=ReviewList, tags=["review"], summary="Review queue")
def list_review(
    query: Annotated[ReviewQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Proposals contradiction detection held back, oldest first."""
    mem, scope = _scoped(caller, state, query)
    status = None if query.status == "all" else query.status
    items = mem.review.list(status=status, limit=query.limit, offset=query.offset, **_ids(scope))
    total = mem.review.count(status=status, **_ids(scope))
    return m.page(items, total, query.limit, query.offset)


@router.get("/v1/review/{item_id}", response_model=ReviewOut, tags=["review"], summary="An item")
def get_review(
    item_id: ItemId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """One review item of the namespace."""
    mem, scope = _scoped(caller, state, scope_in)
    return mem.review.get(item_id, **_ids(scope)).to_dict()


def _resolve(
    approve: bool,
    item_id: int,
    body: ResolveIn,
    scope_in: m.Scope,
    caller: Principal,
    state: ServerState,
) -> dict[str, Any]:
    """Approve or reject the item as the calling key (``http`` without one)."""
    mem = state.memory
    scope = _ids(caller.scope(mem, **scope_in.scope_args()))
    actor = f"key:{caller.key_id}" if caller.key_id else "http"
    verdict = mem.review.approve if approve else mem.review.reject
    return verdict(item_id, note=body.note, actor=actor, **scope).to_dict()


@router.post(
    "/v1/review/{item_id}/approve", response_model=ReviewOut, tags=["review"], summary="Approve"
)
def approve_review(
    item_id: ItemId, body: ResolveIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Apply the held-back proposal, then mark it approved."""
    return _resolve(True, item_id, body, scope_in, caller, state)


@router.post(
    "/v1/review/{item_id}/reject", response_model=ReviewOut, tags=["review"], summary="Reject"
)
def reject_review(
    item_id: ItemId, body: ResolveIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Drop the held-back proposal; nothing changes but the audit trail."""
    return _resolve(False, item_id, body, scope_in, caller, state)

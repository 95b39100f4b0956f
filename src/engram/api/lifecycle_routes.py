"""The memory lifecycle over HTTP (seed 002's consolidation and retention, seed 004's
retention worker; FEATURES S8, S9).

Reads (status, the archival index, the rules) and ``restore`` work in the namespace the
caller's scope resolves to, like every route. What changes the store across namespaces
or sets policy (``consolidate``, a retention sweep, retention overrides) needs an admin
key.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from pydantic import BaseModel, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS, ScopeQuery, _namespace

Category = Literal["working", "episodic", "semantic", "procedural", "social"]

router = APIRouter(responses=_ERRORS, tags=["lifecycle"])

#: Restore resolves a prefix, as the CLI does (``Lifecycle.restore``; docs/http.md#ids).
ArchivedId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=200,
        description="An archived memory's or a summary's id, or a unique prefix of it "
        "(8 or more characters).",
    ),
]


class ArchiveEntryOut(BaseModel):
    """seed 002's ArchivalIndexEntry: an archived original and its summary."""

    archive_id: str
    namespace: str
    original_id: str
    summary_id: str
    mode: Literal["abstractive", "extractive"]
    category: str | None
    original_created_at: str
    archived_at: str


class ConsolidationOut(BaseModel):
    """What a consolidation archived and the summaries it wrote."""

    at: str
    archived: int
    summaries: list[str]
    modes: dict[str, str]
    archival_index: list[ArchiveEntryOut]


class ConsolidateIn(m.Scope):
    """Which namespaces to consolidate."""

    all_namespaces: bool = Field(default=False, description="Every namespace over the cap.")


class ArchiveQuery(m.Scope):
    """A page of the archival index."""

    summary_id: str | None = Field(default=None, max_length=200)
    limit: int = Field(default=100, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class ArchiveList(BaseModel):
    """The archival index, newest first."""

    items: list[ArchiveEntryOut]


class RestoreOut(BaseModel):
    """The memories restored, exactly as archived."""

    restored: list[m.MemoryOut]


class SweepOut(BaseModel):
    """One retention sweep: rows removed per step, in the order they ran."""

    at: str
    steps: dict[str, int]
    total: int


class RulesIn(BaseModel):
    """An agent retention override; ``days`` null clears it."""

    model_config = STRICT

    days: int | None = Field(ge=1, le=36_500)
    category: Category | None = Field(default=None, description="None: the agent default.")


class RulesOut(BaseModel):
    """Effective retention days per category (``*``: uncategorised); null = forever."""

    namespace: str
    rules: dict[str, int | None]


class StatusOut(BaseModel):
    """The namespace's live and archived memories, rules and the schedule; rows per
    table of the whole store for an admin key."""

    namespace: str
    live: int
    archived: int
    max_memories_per_agent: int
    archive_max_per_agent: int | None
    rules: dict[str, int | None]
    sizes: dict[str, int]
    consolidation_interval: str
    retention_interval_s: float
    last_consolidation: str | None
    last_retention: str | None
    due: dict[str, bool]


@router.get("/v1/lifecycle/status", response_model=StatusOut, summary="Lifecycle status")
def status(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """Live and archived memories of the namespace, its rules and the schedule."""
    info = state.memory.lifecycle.status(namespace=_namespace(caller, state, scope_in))
    if not caller.admin:
        info["sizes"] = {}  # rows of every tenant's tables: an admin's view
    return info


@router.get("/v1/lifecycle/archive", response_model=ArchiveList, summary="Archival index")
def archive(
    query: Annotated[ArchiveQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """The namespace's archival index (original -> summary), newest first."""
    entries = state.memory.lifecycle.archived(
        summary_id=query.summary_id,
        limit=query.limit,
        offset=query.offset,
        namespace=_namespace(caller, state, query),
    )
    return {"items": [e.to_dict() for e in entries]}


@router.post("/v1/lifecycle/restore/{memory_id}", response_model=RestoreOut, summary="Restore")
def restore(memory_id: ArchivedId, scope_in: ScopeQuery, caller: Caller, state: State) -> Any:
    """Restore an archived memory, or every original of a summary, exactly as it was."""
    ns = _namespace(caller, state, scope_in)
    records = state.memory.lifecycle.restore(memory_id, namespace=ns)
    return {"restored": [r.to_dict() for r in records]}


@router.post("/v1/lifecycle/consolidate", response_model=ConsolidationOut, summary="Consolidate")
def consolidate(
    caller: Caller, state: State, body: Annotated[ConsolidateIn | None, Body()] = None
) -> dict[str, Any]:
    """Archive the oldest memories over ``max_memories_per_agent`` into summaries
    (admin key: it rewrites what recall sees)."""
    caller.require_admin("consolidation")
    body = body or ConsolidateIn()
    if body.all_namespaces:
        result = state.memory.lifecycle.consolidate()
    else:
        result = state.memory.lifecycle.consolidate(namespace=_namespace(caller, state, body))
    return result.to_dict()


@router.post("/v1/lifecycle/retention", response_model=SweepOut, summary="Retention sweep")
def retention(caller: Caller, state: State) -> dict[str, Any]:
    """One retention sweep over every namespace (admin key: it deletes)."""
    caller.require_admin("a retention sweep")
    return state.memory.lifecycle.retention().to_dict()


@router.get("/v1/lifecycle/rules", response_model=RulesOut, summary="Retention rules")
def rules(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """The namespace's effective retention days per category."""
    ns = _namespace(caller, state, scope_in)
    return {"namespace": ns, "rules": state.memory.lifecycle.rules(namespace=ns)}


@router.put("/v1/lifecycle/rules", response_model=RulesOut, summary="Set a retention override")
def set_rules(body: RulesIn, scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """Set or clear the namespace's retention override (admin key: it is policy)."""
    caller.require_admin("setting retention")
    ns = _namespace(caller, state, scope_in)
    out = state.memory.lifecycle.set_retention(body.days, category=body.category, namespace=ns)
    return {"namespace": ns, "rules": out}

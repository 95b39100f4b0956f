"""The job queue over HTTP: list and read jobs, retry one, and seed 004's pipeline status.

A non-admin key works in the namespace its scope resolves to (``Caller.scope``, its own
``user:<user>`` by default), so it sees only its own jobs and another user's job is a
404. An admin key that names no scope sees every namespace's jobs.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, ScopeQuery, _ids, row_id_path
from engram.keys import Principal
from engram.memory import Memory

JobId = Annotated[int, row_id_path("A job id.")]

router = APIRouter(responses=_ERRORS)


class JobOut(BaseModel):
    """One queued piece of pipeline work."""

    id: int
    kind: str = Field(description="extract, hints, document_ingest or classify.")
    namespace: str
    status: Literal["pending", "leased", "completed", "dead"]
    attempts: int
    max_attempts: int
    created_at: str
    memory_id: str | None
    document_id: str | None
    payload: dict[str, Any]
    result: dict[str, Any] | None
    error: str | None = Field(description="The latest failure, as 'Type: message'.")
    run_after: str | None = Field(description="A failed job waits until then (its backoff).")
    leased_at: str | None
    completed_at: str | None
    failed_at: str | None


class JobList(m.Page):
    """A page of jobs, newest first."""

    items: list[JobOut]


class JobsQuery(m.Scope):
    """Filters of ``GET /v1/jobs``."""

    status: Literal["pending", "leased", "completed", "dead", "all"] = "all"
    kind: str | None = Field(default=None, max_length=64)
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class PipelineStatus(BaseModel):
    """Queue counts per status and per kind, the worker, and the latest failure."""

    namespace: str | None = Field(description="None: every namespace (an admin key).")
    counts: dict[str, int]
    kinds: dict[str, dict[str, int]]
    handlers: list[str] = Field(description="The job kinds this server can run.")
    worker: dict[str, Any]
    last_error: dict[str, Any] | None
    aspect_feedback: dict[str, int] = Field(
        default_factory=dict,
        description="seed 004's aspect feedback counters since the server started "
        "(aspects_updated, confirmations, decayed_aspects, propagated_attributes), "
        "for the caller's namespace or every namespace.",
    )


def _scope(caller: Principal, mem: Memory, scope_in: m.Scope) -> dict[str, Any]:
    """The library's scope arguments: none (every namespace) for an admin key that names
    no scope, else the namespace the caller's scope resolves to."""
    asked = scope_in.scope_args()
    if caller.admin and all(v is None for v in asked.values()):
        return {}
    return _ids(caller.scope(mem, **asked))


@router.get("/v1/jobs", response_model=JobList, tags=["jobs"], summary="List jobs")
def list_jobs(query: Annotated[JobsQuery, Query()], caller: Caller, state: State) -> dict[str, Any]:
    """Jobs, newest first, filtered by status and kind."""
    mem = state.memory
    status = None if query.status == "all" else query.status
    page = mem.jobs.list(
        status=status,
        kind=query.kind,
        limit=query.limit,
        offset=query.offset,
        **_scope(caller, mem, query),
    )
    return page.to_dict()


@router.get("/v1/jobs/{job_id}", response_model=JobOut, tags=["jobs"], summary="A job")
def get_job(job_id: JobId, scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """One job (404 outside the caller's namespace)."""
    mem = state.memory
    return mem.jobs.get(job_id, **_scope(caller, mem, scope_in)).to_dict()


@router.post("/v1/jobs/{job_id}/retry", response_model=JobOut, tags=["jobs"], summary="Retry")
def retry_job(job_id: JobId, scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """Send a dead (or waiting) job back to the queue with its attempts reset."""
    mem = state.memory
    return mem.jobs.retry(job_id, **_scope(caller, mem, scope_in)).to_dict()


@router.get(
    "/api/pipeline/status",
    response_model=PipelineStatus,
    tags=["jobs"],
    summary="Pipeline status",
)
def pipeline_status(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """seed 004's pipeline status: queue counts per status and kind, whether the server
    runs a worker, and the latest failure."""
    mem = state.memory
    scope = _scope(caller, mem, scope_in)
    return {**mem.jobs.status(**scope), "aspect_feedback": mem.graph.feedback_telemetry(**scope)}

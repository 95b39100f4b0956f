"""Runs and observations over HTTP (FEATURES H1, H2): the run log, ``compress_and_store``
and the provenance chain in both directions, each route one call of ``mem.runs``.

Every route resolves the caller's scope like every other route (``Caller.scope``), so a
key reaches only its own namespaces' runs; another user's run or memory is a 404. A
run's id is its own (``/v1/runs/{run_id}``), so the scope here is ``namespace``,
``user_id`` and ``agent_id`` only: ``run_id`` names the run, never the namespace.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, status
from pydantic import BaseModel, ConfigDict, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, MemoryId
from engram.memory import Memory

RunId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$", description="A run's id.")]
Score = Field(default=None, ge=0.0, le=10.0, allow_inf_nan=False, strict=True)
Tokens = Field(default=None, ge=0, strict=True)
Issues = Field(default=None, max_length=100, description="The evaluator's issues.")

router = APIRouter(responses=_ERRORS)


class RunScope(BaseModel):
    """Whose runs: the library's namespace rule without ``run_id``."""

    model_config = ConfigDict(extra="forbid")

    namespace: str | None = m.Namespace
    user_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:@/+-]{1,190}$")
    agent_id: str | None = m.Id


ScopeQuery = Annotated[RunScope, Query()]


def _scope(mem: Memory, caller: Caller, scope_in: RunScope, acts: bool = False) -> dict[str, Any]:
    """The run verbs' scope keywords; ``acts``: the call records as its agent (an
    agent's key stamps its own, ``Principal.scope``)."""
    resolve = caller.acting_scope if acts else caller.scope
    scope = resolve(
        mem,
        namespace=scope_in.namespace,
        user_id=scope_in.user_id,
        agent_id=scope_in.agent_id,
    )
    return {"namespace": scope.namespace, "user_id": scope.user_id, "agent_id": scope.agent_id}


# -- models ------------------------------------------------------------------------------
class RunIn(RunScope):
    """``POST /v1/runs``: record a run, or update the fields given of a recorded one."""

    run_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$",
        description="The harness's id for the run; a new id is made when left out.",
    )
    task: str | None = Field(default=None, max_length=100_000)
    task_type: str | None = Field(default=None, max_length=200)
    status: Literal["running", "completed", "failed"] | None = None
    output: str | None = None
    output_path: str | None = Field(default=None, max_length=4096)
    score: float | None = Score
    issues: list[str] | None = Issues
    tokens_in: int | None = Tokens
    tokens_out: int | None = Tokens
    metadata: dict[str, Any] | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


class RunOut(BaseModel):
    """One run of the run log (``output`` is null in listings)."""

    run_id: str
    namespace: str
    task: str | None
    task_type: str | None
    status: str
    score: float | None = Field(description="The evaluator's final score, 0-10.")
    tokens_in: int | None
    tokens_out: int | None
    output: str | None
    output_chars: int
    output_path: str | None
    issues: list[str]
    metadata: dict[str, Any]
    started_at: datetime | None
    finished_at: datetime | None
    created_at: datetime | None
    updated_at: datetime | None
    agent_id: str | None = Field(
        default=None, description="The agent that recorded the run, when one did."
    )


class RunList(m.Page):
    """A page of runs, newest first."""

    items: list[RunOut]


class RunsQuery(RunScope):
    """Filters of ``GET /v1/runs``."""

    status: Literal["running", "completed", "failed"] | None = None
    task_type: str | None = Field(default=None, max_length=200)
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class RunHitOut(BaseModel):
    """One memory injected into a run."""

    run_id: str
    namespace: str
    memory_id: str
    rank: int
    score: float | None
    title: str | None
    at: datetime


class RunViewOut(BaseModel):
    """A run with what it produced and what was injected into it."""

    run: RunOut
    observations: list[m.MemoryOut] = Field(description="Observations this run produced.")
    injected: list[m.MemoryOut] = Field(description="Live memories injected into it, by rank.")
    hits: list[RunHitOut] = Field(description="The injection log (kept for purged memories).")


class HitIn(BaseModel):
    """One injected memory."""

    model_config = ConfigDict(extra="forbid")

    memory_id: str = Field(min_length=1, max_length=200)
    score: float | None = Field(default=None, allow_inf_nan=False, strict=True)


class HitsIn(RunScope):
    """``POST /v1/runs/{run_id}/hits``: the memories injected into the run, by rank."""

    hits: list[HitIn] = Field(max_length=1000)
    task: str | None = Field(default=None, max_length=100_000)


class RunHitsOut(BaseModel):
    """How many hits were logged."""

    run_id: str
    logged: int


class ObserveIn(RunScope):
    """``POST /v1/observations``: compress a completed run into an observation."""

    task: m.Text = Field(max_length=100_000)
    output: str
    task_type: str | None = Field(default=None, max_length=200)
    queries: list[str] | None = Field(default=None, max_length=100)
    score: float | None = Score
    issues: list[str] | None = Issues
    run_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$")
    tokens_in: int | None = Tokens
    tokens_out: int | None = Tokens
    output_path: str | None = Field(default=None, max_length=4096)


class BlockedIssueOut(BaseModel):
    """An evaluator issue the injection scan kept out of the facts."""

    issue: str
    reasons: list[str]


class ObservedOut(BaseModel):
    """What ``compress_and_store`` did."""

    memory: m.MemoryOut
    created: bool
    run: RunOut
    summarizer: str = Field(description='"llm:<provider>:<model>" or "offline".')
    blocked_issues: list[BlockedIssueOut]
    warnings: list[str]


class ContextIn(RunScope):
    """``POST /v1/context``: the "Prior work on related topics" block for a task."""

    task: m.Text = Field(max_length=100_000)
    run_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$",
        description="Log the memories in the block as injected into this run.",
    )
    limit: int | None = Field(default=None, ge=1, le=50, strict=True)
    budget_tokens: int | None = Field(default=None, ge=1, le=100_000, strict=True)


class ContextOut(BaseModel):
    """The block; "" when nothing related is stored."""

    context: str


# -- routes ------------------------------------------------------------------------------
@router.post(
    "/v1/runs",
    response_model=RunOut,
    status_code=status.HTTP_201_CREATED,
    tags=["runs"],
    summary="Record a run",
)
def record_run(body: RunIn, caller: Caller, state: State) -> dict[str, Any]:
    """Record a run of the run log, or update the fields given of a recorded one."""
    mem = state.memory
    fields = body.model_dump(exclude={"namespace", "user_id", "agent_id"})
    return mem.runs.record_run(**fields, **_scope(mem, caller, body, True)).to_dict()


@router.get("/v1/runs", response_model=RunList, tags=["runs"], summary="List runs")
def list_runs(query: Annotated[RunsQuery, Query()], caller: Caller, state: State) -> dict[str, Any]:
    """Runs of the namespace, newest first, without their output."""
    mem = state.memory
    scope = _scope(mem, caller, query)
    filters = {"status": query.status, "task_type": query.task_type}
    runs = mem.runs.list(limit=query.limit, offset=query.offset, **filters, **scope)
    return m.page(runs, mem.runs.count(**filters, **scope), query.limit, query.offset)


@router.get("/v1/runs/{run_id}", response_model=RunViewOut, tags=["runs"], summary="A run")
def get_run(run_id: RunId, scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """A run with the observations it produced and the memories injected into it."""
    mem = state.memory
    return mem.runs.get(run_id, **_scope(mem, caller, scope_in)).to_dict()


@router.post(
    "/v1/runs/{run_id}/hits", response_model=RunHitsOut, tags=["runs"], summary="Log memory hits"
)
def log_hits(run_id: RunId, body: HitsIn, caller: Caller, state: State) -> dict[str, Any]:
    """Record which memories were injected into the run, in rank order."""
    mem = state.memory
    hits = [h.model_dump() for h in body.hits]
    logged = mem.runs.log_memory_hits(
        run_id, hits, task=body.task, **_scope(mem, caller, body, True)
    )
    return {"run_id": run_id, "logged": logged}


@router.post(
    "/v1/observations",
    response_model=ObservedOut,
    status_code=status.HTTP_201_CREATED,
    tags=["runs"],
    summary="Compress and store a run",
)
def observe(body: ObserveIn, caller: Caller, state: State) -> dict[str, Any]:
    """Compress a completed run into one observation memory and record the run."""
    mem = state.memory
    fields = body.model_dump(exclude={"namespace", "user_id", "agent_id", "task", "output"})
    observed = mem.runs.compress_and_store(
        body.task, body.output, **fields, **_scope(mem, caller, body, True)
    )
    return observed.to_dict()


@router.get(
    "/v1/memories/{memory_id}/run",
    response_model=RunViewOut,
    tags=["runs"],
    summary="The run of an observation",
)
def run_of(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """The run a memory came from, with what it produced and what was injected into it."""
    mem = state.memory
    return mem.runs.run_of(memory_id, **_scope(mem, caller, scope_in)).to_dict()


@router.post("/v1/context", response_model=ContextOut, tags=["runs"], summary="Prior work")
def context(body: ContextIn, caller: Caller, state: State) -> dict[str, Any]:
    """seed 001's "Prior work on related topics" block for a task; with ``run_id``, the
    memories in it are logged as injected into that run."""
    mem = state.memory
    block = mem.runs.get_context(
        body.task,
        run_id=body.run_id,
        limit=body.limit,
        budget_tokens=body.budget_tokens,
        **_scope(mem, caller, body),
    )
    return {"context": block}

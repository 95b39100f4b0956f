"""Maintenance over HTTP (seed 004's maintenance worker and embedding tracker; FEATURES
S10).

Diagnostics, cycles, the halt tracker, the run log and the tracker see the whole store,
so they need an admin key. Semantic dedup works in one namespace: any key may *observe*
its own namespace's duplicates; merging them (``execute``) needs an admin key, like
every repair that changes memories.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field, StrictBool

from engram.api.auth import Caller, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS, ScopeQuery, _namespace
from engram.maintenance import ACTIONS, MaintenanceRun

router = APIRouter(responses=_ERRORS, tags=["maintenance"])

Action = Literal[
    "requeue_dead_jobs",
    "release_stale_leases",
    "check_fts_consistency",
    "retention_sweep",
    "reembed",
]
assert set(Action.__args__) == set(ACTIONS)  # type: ignore[attr-defined]


class DiagnosticsOut(BaseModel):
    """The health report: each domain's score and counts, the composite, the repairs."""

    score: float = Field(description="The composite health score in [0, 1].")
    status: Literal["healthy", "degraded", "unhealthy"]
    queue: dict[str, Any]
    index: dict[str, Any]
    storage: dict[str, Any]
    recommendations: list[str]


class MaintenanceRunIn(BaseModel):
    """One maintenance cycle; ``execute`` applies the repairs (default: observe)."""

    model_config = STRICT

    execute: StrictBool = False


class MaintenanceRunOut(BaseModel):
    """A recorded maintenance run."""

    id: int
    kind: Literal["cycle", "dedup"]
    mode: Literal["observe", "execute"]
    namespace: str | None
    started_at: str
    finished_at: str
    score_before: float
    score_after: float
    delta: float
    recommendations: list[str]
    actions: list[dict[str, Any]] = Field(description="{action, outcome, detail} each.")
    report: dict[str, Any]


class MaintenanceRunList(BaseModel):
    """Recorded runs, newest first."""

    items: list[MaintenanceRunOut]
    limit: int
    offset: int


class RunsQuery(BaseModel):
    model_config = STRICT

    kind: Literal["cycle", "dedup"] | None = None
    limit: int = Field(default=20, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class DedupIn(BaseModel):
    """Find near-duplicates in the namespace; ``execute`` supersedes them (admin)."""

    model_config = STRICT

    execute: StrictBool = False
    threshold: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Cosine at or above which (default 0.92)."
    )


class DedupOut(BaseModel):
    """What a dedup scan found and merged."""

    namespace: str
    threshold: float
    scanned: int
    groups: list[dict[str, Any]] = Field(description="{kept, duplicates: {id: cosine}} each.")
    executed: bool
    merged: int
    skipped: str | None


class TrackOut(BaseModel):
    """One embedding-tracker cycle."""

    skipped: str | None
    embedded: dict[str, int]
    failed: int
    queue_depth: int


class ResumeIn(BaseModel):
    """Lift the halt of one action (null: every action)."""

    model_config = STRICT

    action: Action | None = None


class ResumeOut(BaseModel):
    reset: int


def _run(run: MaintenanceRun) -> dict[str, Any]:
    return run.to_dict()


@router.get(
    "/v1/maintenance/diagnostics", response_model=DiagnosticsOut, summary="Diagnostics (admin)"
)
def diagnostics(caller: Caller, state: State) -> dict[str, Any]:
    """The store's health report and the repairs it recommends."""
    caller.require_admin("maintenance diagnostics")
    return state.memory.maintenance.diagnose().to_dict()


@router.post("/v1/maintenance/run", response_model=MaintenanceRunOut, summary="Run a cycle (admin)")
def run_cycle(body: MaintenanceRunIn, caller: Caller, state: State) -> dict[str, Any]:
    """One maintenance cycle, observing or executing; the run is recorded."""
    caller.require_admin("executing maintenance repairs" if body.execute else "a maintenance run")
    return _run(state.memory.maintenance.run(execute=body.execute))


@router.get(
    "/v1/maintenance/runs", response_model=MaintenanceRunList, summary="Recorded runs (admin)"
)
def list_runs(query: Annotated[RunsQuery, Query()], caller: Caller, state: State) -> dict[str, Any]:
    """Recorded cycles and dedup runs, newest first."""
    caller.require_admin("the maintenance run log")
    rows = state.memory.maintenance.runs(limit=query.limit, offset=query.offset, kind=query.kind)
    return {"items": [_run(r) for r in rows], "limit": query.limit, "offset": query.offset}


@router.get("/v1/maintenance/status", summary="Status (admin)")
def status(caller: Caller, state: State) -> dict[str, Any]:
    """The schedule's settings, the halt tracker, the latest cycle and tracker stats."""
    caller.require_admin("maintenance status")
    return state.memory.maintenance.status()


@router.post("/v1/maintenance/resume", response_model=ResumeOut, summary="Resume (admin)")
def resume(body: ResumeIn, caller: Caller, state: State) -> dict[str, Any]:
    """Lift the halt tracker's halt of an action (or every action)."""
    caller.require_admin("resuming a halted repair")
    return {"reset": state.memory.maintenance.resume(body.action)}


@router.post("/v1/maintenance/track", response_model=TrackOut, summary="Tracker cycle (admin)")
def track(caller: Caller, state: State) -> dict[str, Any]:
    """One embedding-tracker cycle: re-embed missing, stale or other-model vectors."""
    caller.require_admin("an embedding tracker cycle")
    return state.memory.maintenance.track().to_dict()


@router.post("/v1/maintenance/dedup", response_model=DedupOut, summary="Semantic dedup")
def dedup(body: DedupIn, scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """Near-duplicate memories of the caller's namespace at cosine 0.92 (seed 004);
    ``execute`` supersedes all but one of each group and needs an admin key."""
    if body.execute:
        caller.require_admin("merging duplicates")
    ns = _namespace(caller, state, scope_in)
    report = state.memory.maintenance.dedup(
        namespace=ns, execute=body.execute, threshold=body.threshold
    )
    return report.to_dict()

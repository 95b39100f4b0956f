"""Review over HTTP beyond the queue (seed 000's memory panel): prune candidates and
bulk prune, the graph view, novelty, and the feedback log as a preference data set.

Every route resolves the caller's scope like every other route (``Caller.scope``), so
a key reaches only its own namespaces. This router is included before the queue's
(``/v1/review/{item_id}``), so ``/v1/review/graph`` is never read as an item id.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, ScopeQuery, _ids, _scoped
from engram.records import MemoryType
from engram.review.prune import MAX_PRUNE_IDS, prune_reason

router = APIRouter(responses=_ERRORS)


# -- prune (FEATURES H4) -----------------------------------------------------------------
class CandidateOut(m.MemoryOut):
    """A prune candidate and the half of seed 000's rule it meets."""

    reason: str


class CandidateList(m.Page):
    """A page of prune candidates, worst first."""

    items: list[CandidateOut]


class CandidateQuery(m.Scope):
    """Paging of ``GET /v1/review/prune-candidates``."""

    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class PruneIn(m.Scope):
    """Ids to prune; nothing is deleted unless ``dry_run`` is false."""

    ids: list[str] = Field(min_length=1, max_length=MAX_PRUNE_IDS)
    dry_run: bool = True
    only_candidates: bool = Field(
        default=True, description="Skip ids that are not prune candidates (seed 000's rule)."
    )


class PruneItemOut(BaseModel):
    """What happened to one id."""

    id: str
    action: Literal["would_delete", "deleted", "skipped", "not_found"]
    reason: str


class PruneOut(BaseModel):
    """The outcome of a prune (or of its dry run)."""

    dry_run: bool
    deleted: list[str]
    would_delete: list[str]
    items: list[PruneItemOut]


@router.get(
    "/v1/review/prune-candidates",
    response_model=CandidateList,
    tags=["review"],
    summary="Prune candidates",
)
def prune_candidates(
    query: Annotated[CandidateQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Memories with quality <= -2, or score < 6 and quality < 0 (seed 000), worst first."""
    mem, scope = _scoped(caller, state, query)
    page = mem.review.prune_candidates(limit=query.limit, offset=query.offset, **_ids(scope))
    items = [{**r.to_dict(), "reason": prune_reason(r) or ""} for r in page]
    return m.page(items, page.total, query.limit, query.offset)


@router.post("/v1/review/prune", response_model=PruneOut, tags=["review"], summary="Bulk prune")
def prune(body: PruneIn, caller: Caller, state: State) -> dict[str, Any]:
    """Tombstone the ids (a dry run by default); each deletion is audited."""
    mem, scope = _scoped(caller, state, body)
    actor = f"key:{caller.key_id}" if caller.key_id else "http"
    report = mem.review.prune(
        body.ids,
        dry_run=body.dry_run,
        only_candidates=body.only_candidates,
        actor=actor,
        **_ids(scope),
    )
    return report.to_dict()


# -- graph view (FEATURES H5) ------------------------------------------------------------
class GraphNode(BaseModel):
    """One memory in the 2-D view (seed 000's node payload and what the UI needs)."""

    id: str
    x: float
    y: float
    cluster: int
    title: str
    task_type: str | None
    quality: int
    score: float | None
    type: str
    created_at: str


class GraphCluster(BaseModel):
    """A KMeans cluster; ids are 0, 1, ... by size, largest first."""

    id: int
    size: int


class GraphOut(BaseModel):
    """The graph view: exactly these five keys."""

    nodes: list[GraphNode]
    clusters: list[GraphCluster]
    method: Literal["umap", "pca"]
    note: str | None = Field(description="Why a fallback (PCA, numpy KMeans) was used.")
    total: int = Field(description="Memories with a vector in the namespace in all.")


class GraphQuery(m.Scope):
    """What ``GET /v1/review/graph`` projects."""

    limit: int | None = Field(
        default=None, ge=1, le=10_000, description="Default: review.graph_max_nodes (600)."
    )
    type: MemoryType | None = None
    method: Literal["auto", "umap", "pca"] = Field(
        default="auto",
        description="auto: UMAP once the server has compiled it (engram serve does at "
        "start), PCA until then; umap: wait for UMAP; pca: PCA.",
    )


@router.get("/v1/review/graph", response_model=GraphOut, tags=["review"], summary="Graph view")
def graph(query: Annotated[GraphQuery, Query()], caller: Caller, state: State) -> dict[str, Any]:
    """The newest memories with a vector, projected to 2-D (UMAP, or PCA) and clustered."""
    mem, scope = _scoped(caller, state, query)
    kind = query.type.value if query.type is not None else None
    view = mem.review.graph(limit=query.limit, type=kind, method=query.method, **_ids(scope))
    return view.to_dict()


# -- novelty (FEATURES H6) ---------------------------------------------------------------
class NoveltyIn(m.Scope):
    """New search results and what is already known."""

    results: list[str | dict[str, Any]] = Field(max_length=200)
    context: str | list[str] | None = None
    use_memories: bool = True


class ResultNoveltyOut(BaseModel):
    """One result's novelty."""

    index: int
    novelty: float
    closest: str | None
    similarity: float


class NoveltyOut(BaseModel):
    """How much the results add: a score in [0, 1] and each result's novelty."""

    score: float
    method: Literal["embedding", "heuristic"]
    note: str | None
    results: list[ResultNoveltyOut]


@router.post("/v1/review/novelty", response_model=NoveltyOut, tags=["review"], summary="Novelty")
def novelty(body: NoveltyIn, caller: Caller, state: State) -> dict[str, Any]:
    """Score new search results against the context and the namespace's memories."""
    mem, scope = _scoped(caller, state, body)
    report = mem.review.assess_novelty(
        body.results, body.context, use_memories=body.use_memories, **_ids(scope)
    )
    return report.to_dict()


# -- preference export (FEATURES H3) -----------------------------------------------------
@router.get(
    "/v1/feedback/export",
    tags=["feedback"],
    summary="Preference data set (JSONL)",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
def feedback_export(scope_in: ScopeQuery, caller: Caller, state: State) -> StreamingResponse:
    """The feedback log, one JSON object a line: ``{memory_id, content, title, rating,
    comment, at, quality}``, oldest first, streamed."""
    mem, scope = _scoped(caller, state, scope_in)
    lines = mem.review.export_feedback(**_ids(scope))

    def body() -> Iterator[bytes]:
        for line in lines:
            yield (json.dumps(line, ensure_ascii=False) + "\n").encode()

    return StreamingResponse(body(), media_type="application/x-ndjson")

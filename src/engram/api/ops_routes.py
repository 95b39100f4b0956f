"""Operations routes: readiness (``/ready``, also at ``/health/ready``) and ``/metrics``.

``/health`` (in ``routes``) says the process is up; ``/ready`` says it can serve: the
store answers and the embedder embeds (``Memory.health.ready``), else 503 with the
reasons. ``/metrics`` is Prometheus text; it needs an admin key unless
``api.metrics_public`` is set (or the server runs ``--no-auth``).

While PostgreSQL is down both answer within ``OUTAGE_WAIT``: ``/ready`` its 503, and
``/metrics`` 200 with ``engram_store_up 0`` for an admin key the store accepted lately
(``Keys.remembered``), so Prometheus sees the outage rather than a target that timed out.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field

from engram.api.auth import authenticate, remembered_admin, server_state
from engram.api.metrics import CONTENT_TYPE, Metrics
from engram.api.models import ErrorOut
from engram.errors import StoreConnectionError
from engram.health import Snapshot

log = logging.getLogger("engram.api")

router = APIRouter(tags=["maintenance"])


class ReadyOut(BaseModel):
    """Readiness: each check's state, and why the server is not ready."""

    status: Literal["ready", "not_ready"]
    checks: dict[str, str] = Field(description='"store", "embedder": "ok" or what is wrong.')
    reasons: list[str] = Field(description="One line per failed check; empty when ready.")
    duration_ms: float
    error: str | None = Field(default=None, description='"not_ready" with a 503.')
    detail: str | None = None


_READY_RESPONSES: dict[int | str, dict[str, Any]] = {
    503: {"model": ReadyOut, "description": "Not ready: the store or the embedder failed."}
}


#: How long ``/ready`` and ``/metrics`` wait for a database connection while the
#: database is unreachable (``mem.backend.bounded_wait``), in seconds: a little over the
#: pool's one-second reconnect tick, so a database just back is found, and well under a
#: load balancer's or Prometheus' timeout (every other route waits ``pool_timeout``).
OUTAGE_WAIT = 1.5


def _ready(request: Request) -> JSONResponse:
    readiness = server_state(request).memory.health.ready(wait=OUTAGE_WAIT)
    body = readiness.to_dict()
    if readiness.ready:
        return JSONResponse(body)
    body |= {"error": "not_ready", "detail": "not ready: " + "; ".join(readiness.reasons)}
    return JSONResponse(body, status_code=503)


@router.get("/ready", response_model=ReadyOut, responses=_READY_RESPONSES, summary="Readiness")
def ready(request: Request) -> JSONResponse:
    """Open (no key): 200 when the store answers a query and the embedder embeds a short
    text; 503 with ``reasons`` when either fails. Point load balancers and container
    health checks here; ``/health`` only says the process is up."""
    return _ready(request)


@router.get(
    "/health/ready",
    response_model=ReadyOut,
    responses=_READY_RESPONSES,
    summary="Readiness (alias of /ready)",
)
def health_ready(request: Request) -> JSONResponse:
    """The same check as ``/ready``."""
    return _ready(request)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}},
        401: {"model": ErrorOut, "description": "No API key, or an unknown or revoked one."},
        403: {"model": ErrorOut, "description": "Not an admin key."},
    },
    summary="Prometheus metrics (admin)",
)
def metrics(request: Request) -> PlainTextResponse:
    """Request counts and latency by route template and status, recall stage timings,
    memories per namespace and the job queue, in Prometheus' text format. Needs an admin
    key unless ``api.metrics_public`` is true. While the database is down it answers in
    about 1.5 s with ``engram_store_up 0``, for an admin key the store accepted in the
    last 15 minutes (other keys: 503 ``store_disconnected``)."""
    state = server_state(request)
    mem = state.memory
    snapshot: Snapshot | None = None
    reached = True
    if not mem.config.api.metrics_public:
        header = request.headers.get("authorization")
        try:
            caller = authenticate(state, header, wait=OUTAGE_WAIT)
        except StoreConnectionError:
            # The database is down: an admin key the store accepted lately still reads
            # the scrape, so Prometheus sees engram_store_up 0, not a target that timed
            # out. Any other key gets the 503 it would have got.
            remembered = remembered_admin(state, header)
            if remembered is None:
                raise
            caller, reached = remembered, False
        caller.require_admin("reading /metrics")
    try:  # not asked again once the key's check found the database down
        snapshot = mem.health.snapshot(wait=OUTAGE_WAIT) if reached else None
    except Exception as exc:  # the scrape still reports the request metrics
        log.warning("metrics: the store did not answer: %s", exc)
    registry: Metrics = request.app.state.metrics
    return PlainTextResponse(registry.render(snapshot), media_type=CONTENT_TYPE)

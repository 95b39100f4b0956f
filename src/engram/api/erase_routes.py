"""Audited bulk erase over HTTP (issue 14): ``POST /v1/memories/erase`` and the audit
that survives it, ``GET /v1/erasures``.

The target resolves like every route's scope (``Caller.scope``), so a user's key erases
only its own namespaces (``user:<user>`` and ``user:<user>/...``); the request must
name its target, so an empty body never erases the caller's namespace by default.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, _ids, _scoped
from engram.errors import InvalidInputError

router = APIRouter(responses=_ERRORS)


class EraseIn(m.Scope):
    """What to erase: a namespace, or the memories of it that ``filters`` pick."""

    filters: dict[str, Any] | None = Field(
        default=None,
        description="Native filters (record fields, tags, 'metadata.<key>'), one value "
        "per key as in GET /v1/memories; none erases the whole namespace.",
    )
    dry_run: bool = Field(default=False, description="Count what would go; change nothing.")
    nested: bool = Field(
        default=True,
        description="A whole namespace goes with the namespaces below it "
        "(`user:<user>/shared`, `user:<user>/<agent>`); false: this one alone.",
    )


class EraseAuditOut(BaseModel):
    """One erase: who, when, where, with which filters, and how much."""

    id: int
    namespace: str
    actor: str | None = Field(description="Who erased: `key:<id>` over HTTP.")
    filters: dict[str, Any]
    whole_namespace: bool
    memories: int = Field(description="Memories erased, live and tombstoned.")
    rows: int = Field(description="Rows deleted directly (cascaded rows not counted).")
    created_at: str


class EraseOut(BaseModel):
    """What an erase removed, or with ``dry_run`` would remove."""

    namespace: str
    memories: int
    whole_namespace: bool
    dry_run: bool
    filters: dict[str, Any]
    audit: EraseAuditOut | None = Field(description="The audit row (null for a dry run).")
    held: bool = Field(
        default=True,
        description="Whether the namespace held anything (false: a mistyped id?).",
    )
    nested: list[str] = Field(
        default_factory=list,
        description="The namespaces below this one erased with it (each audited).",
    )


class EraseAuditQuery(m.Scope):
    """Which audit rows ``GET /v1/erasures`` lists."""

    all_namespaces: bool = Field(default=False, description="Every namespace (admin keys).")
    limit: int = Field(default=100, ge=1, le=10_000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class EraseAuditList(m.Page):
    """Audit rows, newest first, with the paging every list route has."""

    model_config = ConfigDict(extra="forbid")

    items: list[EraseAuditOut]
    total: int = Field(description="Audit rows in all, on every page.")


@router.post(
    "/v1/memories/erase",
    response_model=EraseOut,
    tags=["memories"],
    summary="Erase a namespace (audited, for good)",
)
def erase(body: EraseIn, caller: Caller, state: State) -> dict[str, Any]:
    """Hard-delete every memory of a namespace (or those ``filters`` pick) with their
    history, vectors and index entries; a whole namespace also loses its transcripts,
    documents, graph and palace. An audit row records who, when and how many, and
    outlives the erase. ``dry_run`` only counts."""
    if all(v is None for v in body.scope_args().values()):
        raise InvalidInputError(
            "name what to erase: namespace, user_id, agent_id or run_id (an erase never "
            "defaults to the key's own namespace)"
        )
    mem, scope = _scoped(caller, state, body)
    actor = f"key:{caller.key_id}" if caller.key_id else "http"
    args = {**_ids(scope), "filters": body.filters, "nested": body.nested}
    # A key bound to an agent reaches only some of a user's namespaces: every one the
    # erase would take must be in reach, or nothing is erased (403).
    for namespace in mem.erasure.erase(**args, dry_run=True).nested:
        caller.scope(mem, namespace=namespace)
    result = mem.erasure.erase(**args, dry_run=body.dry_run, actor=actor)
    return result.to_dict()


@router.get(
    "/v1/erasures",
    response_model=EraseAuditList,
    tags=["memories"],
    summary="The erase audit",
)
def erasures(
    query: Annotated[EraseAuditQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Every erase of the namespace, newest first; ``all_namespaces`` needs an admin key."""
    mem = state.memory
    if query.all_namespaces:
        caller.require_admin("the erase audit of every namespace")
        where: dict[str, Any] = {"all_namespaces": True}
    else:
        where = _ids(caller.scope(mem, **query.scope_args()))
    rows = mem.erasure.audit(**where, limit=query.limit, offset=query.offset)
    return m.page(rows, mem.erasure.audit_count(**where), query.limit, query.offset)

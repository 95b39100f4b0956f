"""The dashboard over HTTP (FEATURES I5): ``GET /`` serves the page, ``/static/...`` its
bundle, and three read-only ``/v1/dashboard/...`` routes give it what no other route
does — the namespaces a key reaches, pages filtered by quality, and the server's recall
settings.

The page and its assets need no key (they hold no data); every ``/v1/...`` call the page
makes sends the key the user typed, and each route resolves the caller's scope like every
other route, so a key sees only its own namespaces.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ERRORS, MemoryId, ScopeQuery, _ids, _scoped
from engram.browse import MAX_PAGE
from engram.dashboard import INDEX, STATIC_DIR
from engram.records import MemoryType
from engram.review import prune

router = APIRouter(responses=_ERRORS, tags=["dashboard"])

#: The page loads only its own script and style, and talks only to this server.
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)

_MISSING = """<!doctype html><meta charset="utf-8"><title>engram</title>
<p>The dashboard bundle is not built: run <code>scripts/build_dashboard.sh</code>
(or <code>make dashboard</code>) in a source checkout.</p>"""


class NamespaceOut(BaseModel):
    """A namespace the key reaches, with its live memory count."""

    namespace: str
    memories: int


class NamespaceList(BaseModel):
    """The namespaces the caller's key reaches (every one for an admin key)."""

    namespaces: list[NamespaceOut]
    home: str | None = Field(
        description="Where the key's calls that name no namespace go, so the dashboard opens "
        "there: user:<user> for a user's key, the default namespace for an admin key."
    )


class BrowseQuery(m.Scope):
    """``GET /v1/dashboard/memories``: one page, filtered by type and quality."""

    type: MemoryType | None = None
    quality: Literal["positive", "neutral", "negative"] | None = Field(
        default=None, description="positive: quality > 0; neutral: 0; negative: < 0."
    )
    tag: str | None = Field(default=None, min_length=1, max_length=200)
    run: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$",
        description="Only memories written by this run.",
    )
    since: str | None = Field(
        default=None, max_length=40, description="Created at or after (a date: from its start)."
    )
    until: str | None = Field(
        default=None, max_length=40, description="Created up to (a date: through its end)."
    )
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class EntityBrief(BaseModel):
    """An entity a memory mentions."""

    id: int
    name: str
    entity_type: str | None
    mentions: int


class MemoryGraphOut(BaseModel):
    """What the knowledge graph holds of one memory."""

    entities: list[EntityBrief]
    relations: list[dict[str, Any]] = Field(
        description="Relations the memory first stated, with valid_from and valid_to."
    )


class SettingsOut(BaseModel):
    """Server-side settings that shape recall (read-only: set them in the config)."""

    recall: dict[str, Any]
    embedder: dict[str, Any]
    auto_mine: bool = Field(description="[pipeline] enabled: mine every new memory.")
    limits: dict[str, int] = Field(description="prune_ids: ids one prune takes; page: a page.")


@router.get("/", include_in_schema=False, response_model=None)
def index() -> FileResponse | HTMLResponse:
    """The dashboard page (no key needed: it holds no data)."""
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": _CSP}
    if not INDEX.is_file():
        return HTMLResponse(_MISSING, status_code=503, headers=headers)
    return FileResponse(INDEX, media_type="text/html", headers=headers)


@router.get("/v1/dashboard/namespaces", response_model=NamespaceList, summary="Namespaces")
def namespaces(caller: Caller, state: State) -> dict[str, Any]:
    """The namespaces this key may read, with their memory counts."""
    # An admin key's unscoped writes go to the default namespace, not to user:<its user>:
    # opening on that (always empty) namespace said "No memories yet" over a full store.
    home = caller.scope(state.memory).namespace
    return {"namespaces": state.memory.browse.namespaces(caller), "home": home}


@router.get("/v1/dashboard/memories", response_model=m.MemoryList, summary="Browse memories")
def browse_memories(
    query: Annotated[BrowseQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """A page of memories, newest first, paged in the store (``total`` counts all)."""
    mem, scope = _scoped(caller, state, query)
    page = mem.browse.memories(
        **_ids(scope),
        type=None if query.type is None else query.type.value,
        quality=query.quality,
        tag=query.tag,
        from_run=query.run,
        since=query.since,
        until=query.until,
        limit=query.limit,
        offset=query.offset,
    )
    return page.to_dict()


@router.get(
    "/v1/dashboard/memories/{memory_id}/graph",
    response_model=MemoryGraphOut,
    summary="A memory's entities and relations",
)
def memory_graph(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """The entities the memory mentions and the relations it stated, with their
    validity windows (the dashboard's memory detail)."""
    mem, scope = _scoped(caller, state, scope_in)
    entities, relations = mem.browse.graph_of(memory_id, **_ids(scope))
    return {
        "entities": [e.to_dict() for e in entities],
        "relations": [r.to_dict() for r in relations],
    }


@router.get("/v1/dashboard/settings", response_model=SettingsOut, summary="Recall settings")
def settings(caller: Caller, state: State) -> dict[str, Any]:
    """recall top-k, rerank, the embedding model and auto-mine, as the server runs, and
    the limits the page keeps to (ids one prune takes, memories one page holds)."""
    return {
        **state.memory.browse.settings(),
        "limits": {"prune_ids": prune.MAX_PRUNE_IDS, "page": MAX_PAGE},
    }


def install(app: FastAPI) -> None:
    """Serve the dashboard on ``app``: the routes, and the bundle under ``/static``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

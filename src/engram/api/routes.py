"""The routes: each one resolves the caller's scope and calls one library verb.

Routes are plain ``def`` functions, so FastAPI runs them on its thread pool and the
event loop never blocks on SQLite or the embedder. Scope (``namespace``, ``user_id``,
``agent_id``, ``run_id``) is in the JSON body of collection ``POST`` routes and in the
query string of routes on one memory (``/v1/memories/{id}...``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response, status

from engram._version import __version__
from engram.api import models as m
from engram.api import write_models as w
from engram.api.auth import Caller, ServerState, State
from engram.api.context import note_recall
from engram.errors import InvalidInputError
from engram.keys import Principal
from engram.memory import Memory, Scope
from engram.recall.empty import Wording
from engram.records import ItemResult, Recall
from engram.validate import MAX_ROW_ID

#: A memory id over HTTP is whole; only the CLI resolves a prefix (docs/http.md#ids).
MemoryId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=200,
        description="A memory's whole id, as the API returned it (a prefix is not looked up).",
    ),
]
ScopeQuery = Annotated[m.Scope, Query()]


def row_id_path(description: str) -> Any:
    """The path parameter of an integer row id (a review item's, a job's): 1 to
    ``MAX_ROW_ID``, the store's 64-bit INTEGER, so a larger id is a 422 like id 0, never
    an ``OverflowError`` in the driver (the library checks the same with ``row_id``)."""
    return Path(ge=1, le=MAX_ROW_ID, description=description)


_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": m.ErrorOut, "description": text}
    for code, text in {
        401: "No API key, or an unknown or revoked one.",
        403: "The key may not reach that namespace (or the action needs an admin key).",
        404: "No such memory in the namespace (another user's ids are not found either).",
        413: "The request body is over api.max_body_bytes.",
        422: "Invalid input or malformed JSON; nothing was stored.",
    }.items()
}

router = APIRouter(responses=_ERRORS)


def _ids(scope: Scope) -> dict[str, Any]:
    """The resolved scope as keyword arguments of the library's verbs."""
    return {
        "namespace": scope.namespace,
        "user_id": scope.user_id,
        "agent_id": scope.agent_id,
        "run_id": scope.run_id,
    }


def _memory(state: ServerState) -> Memory:
    return state.memory


def _scoped(
    caller: Caller, state: ServerState, given: m.Scope, *, acts: bool = False
) -> tuple[Memory, Scope]:
    """The store and the scope ``given`` resolves to for the caller (403 out of reach);
    ``acts``: the call writes as its agent (``Principal.scope``)."""
    mem = _memory(state)
    resolve = caller.acting_scope if acts else caller.scope
    return mem, resolve(mem, **given.scope_args())


def _namespace(caller: Principal, state: ServerState, given: m.Scope) -> str:
    """The namespace ``given`` resolves to for the caller (403 out of reach)."""
    return str(caller.scope(state.memory, **given.scope_args()).namespace)


# -- memories --------------------------------------------------------------------------
_DUPLICATE: dict[int | str, dict[str, Any]] = {
    200: {"description": "The same content was already stored: nothing new."}
}


def _add_one(mem: Memory, scope: Scope, content: Any, fields: dict[str, Any]) -> ItemResult:
    """``Memory.add`` that also says whether the memory is new."""
    item = {"content": content, **_ids(scope), **fields}
    [result] = mem.add_many([item], namespace=scope.namespace, on_blocked="raise").items
    return result


@router.post(
    "/v1/memories",
    response_model=w.CreatedOut,
    status_code=status.HTTP_201_CREATED,
    responses=_DUPLICATE,
    tags=["memories"],
    summary="Store a memory",
)
def create_memory(
    body: m.MemoryIn, caller: Caller, state: State, response: Response
) -> dict[str, Any]:
    """Store text (``content``) or a chat (``messages``) verbatim: 201. Exactly the same
    content in the same namespace returns the stored memory with ``created: false``:
    200."""
    mem, scope = _scoped(caller, state, body, acts=True)
    result = _add_one(mem, scope, body.content_arg(), body.field_args())
    assert result.record is not None  # a refused item raised
    if not result.created:
        response.status_code = status.HTTP_200_OK
    return {
        **result.record.to_dict(),
        **_created(result),
        "jobs": list(result.jobs),
        "warnings": list(result.warnings),
    }


def _created(result: ItemResult) -> dict[str, Any]:
    """Whether the write stored a new memory; for a duplicate, which and what it merged."""
    merged = None if result.merged is None else result.merged.to_dict()
    return {"created": result.created, "duplicate_of": result.duplicate_of, "merged": merged}


@router.post(
    "/v1/memories/batch",
    response_model=w.BatchOut,
    status_code=status.HTTP_201_CREATED,
    responses={200: {"description": "Nothing new was stored (duplicates or refusals)."}},
    tags=["memories"],
    summary="Store many memories",
    name="create_batch",
)
def create_memories(
    body: m.BatchIn, caller: Caller, state: State, response: Response
) -> dict[str, Any]:
    """``add_many``: every item is validated and scanned before anything is written.
    Each item is stored, a duplicate, blocked by the injection scan (with the reason)
    or invalid; ``on_blocked`` and ``on_invalid`` choose between reporting such an item
    (``skip``) and refusing the whole batch with 422 (``raise``). 201 when anything was
    stored, 200 when nothing new was. All items go to one namespace."""
    mem, scope = _scoped(caller, state, body, acts=True)
    ids = _ids(scope)
    items = [item.item(ids) for item in body.items]
    batch = mem.add_many(
        items, namespace=scope.namespace, on_blocked=body.on_blocked, on_invalid=body.on_invalid
    )
    if not batch.counts["stored"]:
        response.status_code = status.HTTP_200_OK
    out = batch.to_dict()
    for item in out["items"]:
        item.pop("memory")
    return {**out, "memories": [r.to_dict() for r in batch]}


@router.get(
    "/v1/memories",
    response_model=m.MemoryList,
    tags=["memories"],
    summary="List memories",
)
def list_memories(
    query: Annotated[m.ListQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Memories of a namespace, newest first, filtered and paginated."""
    mem, scope = _scoped(caller, state, query)
    filters: dict[str, Any] = {}
    if query.metadata:
        try:
            meta = json.loads(query.metadata)
        except (ValueError, RecursionError):
            raise InvalidInputError("metadata must be a JSON object") from None
        if not isinstance(meta, dict):
            raise InvalidInputError("metadata must be a JSON object")
        # Metadata keys in the native filter grammar (docs/recall.md, "Filters").
        filters.update({f"metadata.{key}": value for key, value in meta.items()})
    chosen = {"type": query.type, "category": query.category, "session_id": query.session_id}
    filters.update({k: v for k, v in chosen.items() if v is not None})
    if query.tags:
        filters["tags"] = list(query.tags)
    page = mem.get_all(
        **_ids(scope),
        filters=filters,
        limit=query.limit,
        offset=query.offset,
        include_deleted=query.include_deleted,
    )
    return page.to_dict()


@router.get(
    "/v1/memories/{memory_id}",
    response_model=m.MemoryOut,
    tags=["memories"],
    summary="Get a memory",
)
def get_memory(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """One live memory of the namespace."""
    mem, scope = _scoped(caller, state, scope_in)
    return mem.get(memory_id, **_ids(scope)).to_dict()


@router.patch(
    "/v1/memories/{memory_id}",
    response_model=m.MemoryOut,
    tags=["memories"],
    summary="Update a memory",
)
def update_memory(
    memory_id: MemoryId,
    body: m.MemoryUpdate,
    scope_in: ScopeQuery,
    caller: Caller,
    state: State,
) -> dict[str, Any]:
    """Change content or fields; the old values stay in the memory's history."""
    mem, scope = _scoped(caller, state, scope_in)
    return mem.update(memory_id, **_ids(scope), **body.changes()).to_dict()


@router.delete(
    "/v1/memories/{memory_id}",
    response_model=m.MemoryOut,
    tags=["memories"],
    summary="Delete (tombstone) a memory",
)
def delete_memory(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Tombstone a memory: it leaves recall at once; purge removes it for good."""
    mem, scope = _scoped(caller, state, scope_in)
    return mem.delete(memory_id, **_ids(scope)).to_dict()


@router.get(
    "/v1/memories/{memory_id}/history",
    response_model=list[m.HistoryOut],
    tags=["memories"],
    summary="A memory's audit trail",
)
def memory_history(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> list[dict[str, Any]]:
    """Every create, update, delete, feedback and dedup event, oldest first."""
    mem, scope = _scoped(caller, state, scope_in)
    return [e.to_dict() for e in mem.history(memory_id, **_ids(scope))]


# -- feedback (seed 000) ---------------------------------------------------------------
# One route under two paths: seed 000's first (it is registered first), then /v1's. The
# second keeps its own name (its OpenAPI operation id, ``operation_ids``) and description.
@router.post(
    "/v1/memories/{memory_id}/feedback",
    response_model=m.MemoryOut,
    tags=["feedback"],
    summary="Thumbs up or down",
    name="rate",
    description="The same as ``POST /api/memories/{id}/feedback``.",
)
@router.post(
    "/api/memories/{memory_id}/feedback",
    response_model=m.MemoryOut,
    tags=["feedback"],
    summary="Thumbs up or down (seed 000)",
    name="rate_seed",
)
def feedback(
    memory_id: MemoryId,
    body: m.FeedbackIn,
    scope_in: ScopeQuery,
    caller: Caller,
    state: State,
) -> dict[str, Any]:
    """Quality moves by one, clamped to [-3, +3]; the rating and comment are logged."""
    mem, scope = _scoped(caller, state, scope_in)
    return mem.feedback(memory_id, body.rating, body.comment, **_ids(scope)).to_dict()


@router.get(
    "/v1/feedback",
    response_model=m.FeedbackLog,
    tags=["feedback"],
    summary="The feedback log",
)
def feedback_log(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """Every rating of the namespace, oldest first: a labelled preference data set."""
    mem, scope = _scoped(caller, state, scope_in)
    return {
        "namespace": scope.namespace,
        "feedback": mem.admin.feedback_log(namespace=scope.namespace),
    }


# -- search and recall -----------------------------------------------------------------
#: An empty answer names the request's JSON fields ("budget_tokens": 57).
WORDING = Wording(style="json", filter_key="filters.{}")


def _answer(result: Recall, caller: Principal) -> dict[str, Any]:
    """A recall as JSON, its empty answer worded for HTTP and suggesting only
    namespaces the caller's key may read."""
    out = result.to_dict()
    if result.empty is not None:
        empty = result.empty.reachable(caller.may_reach)
        out["empty_message"] = empty.message(WORDING)
        out["empty_details"] = empty.to_dict()
    return out


def _recall(
    body: m.SearchIn | m.RecallIn, caller: Caller, state: ServerState, **settings: Any
) -> dict[str, Any]:
    """``Memory.recall`` for a search or recall body; ``settings`` are recall's own."""
    mem, scope = _scoped(caller, state, body)
    result = mem.recall(
        body.query,
        **_ids(scope),
        limit=body.limit,
        filters=body.filters,
        wing=body.wing,
        room=body.room,
        **settings,
        **body.overrides(),
    )
    note_recall(result.timings)  # /metrics: recall stage timings
    return _answer(result, caller)


@router.post("/v1/search", response_model=m.SearchOut, tags=["recall"], summary="Ranked hits")
def search(body: m.SearchIn, caller: Caller, state: State) -> dict[str, Any]:
    """Ranked hits with every score stage, the tier that answered and timings."""
    return _recall(body, caller, state)


# One route under two paths, as feedback above: /v1's, then seed 004's name for it.
@router.post(
    "/api/memory/recall",
    response_model=m.RecallOut,
    tags=["recall"],
    summary="Recall (seed 004 route)",
    name="recall_seed",
    description="The same as ``POST /v1/recall``, under seed 004's route name.",
)
@router.post("/v1/recall", response_model=m.RecallOut, tags=["recall"], summary="Recall")
def recall(body: m.RecallIn, caller: Caller, state: State) -> dict[str, Any]:
    """The few memories that matter for a query and the context block to inject.
    ``expand: true`` joins the raw transcripts of the hits' sessions."""
    settings = {"budget_tokens": body.budget_tokens, "expand": body.expand, "cite": body.cite}
    return _recall(body, caller, state, session_id=body.session_id, **settings)


# -- remember and transcripts (seed 004) -----------------------------------------------
@router.post(
    "/api/memory/remember",
    response_model=w.RememberOut,
    status_code=status.HTTP_201_CREATED,
    responses=_DUPLICATE,
    tags=["memories"],
    summary="Remember, with an optional transcript (seed 004)",
)
def remember(
    body: m.RememberIn, caller: Caller, state: State, response: Response
) -> dict[str, Any]:
    """Store a memory raw-first; a ``transcript`` with a ``session_key`` is then written
    in its own transaction and joined to recall with ``expand: true``."""
    mem, scope = _scoped(caller, state, body, acts=True)
    fields = body.field_args()
    if body.session is not None:
        fields["session_id"] = body.session
    result = _add_one(mem, scope, body.content_arg(), fields)
    assert result.record is not None  # a refused item raised
    stored = None
    if body.transcript is not None and body.session is not None:
        stored = mem.transcripts.add(body.session, body.transcript, **_ids(scope))
    if not result.created and not stored:
        response.status_code = status.HTTP_200_OK
    return {
        "memory": result.record.to_dict(),
        **_created(result),
        "transcript_stored": stored,
    }


@router.post(
    "/v1/transcripts",
    response_model=m.TranscriptOut,
    tags=["memories"],
    summary="Keep a session transcript",
)
def add_transcript(body: m.TranscriptIn, caller: Caller, state: State) -> dict[str, Any]:
    """Store a session's raw transcript once (the first one is kept unchanged)."""
    mem, scope = _scoped(caller, state, body, acts=True)
    stored = mem.transcripts.add(body.session_key, body.content, **_ids(scope))
    return {"namespace": scope.namespace, "session_key": body.session_key, "stored": stored}


# -- maintenance -----------------------------------------------------------------------
@router.post("/v1/purge", response_model=m.CountOut, tags=["maintenance"], summary="Purge")
def purge(body: m.PurgeIn, caller: Caller, state: State) -> dict[str, Any]:
    """Hard-delete the tombstoned memories of a namespace (``all_namespaces``: admin)."""
    mem = _memory(state)
    if body.all_namespaces:
        caller.require_admin("purging every namespace")
        return {"count": mem.admin.purge(all_namespaces=True)}
    scope = caller.scope(mem, **body.scope_args())
    return {"count": mem.admin.purge(namespace=scope.namespace)}


@router.post(
    "/v1/reindex", response_model=m.CountOut, tags=["maintenance"], summary="Reindex (admin)"
)
def reindex(body: m.ReindexIn, caller: Caller, state: State) -> dict[str, Any]:
    """Embed every memory lacking a current vector (``rebuild``: all of them)."""
    caller.require_admin("reindexing the store")
    return {"count": _memory(state).reindex(rebuild=body.rebuild)}


@router.get(
    "/v1/diagnostics",
    response_model=dict[str, Any],
    tags=["maintenance"],
    summary="Diagnostics (admin)",
    name="doctor",
)
def diagnostics(caller: Caller, state: State) -> dict[str, Any]:
    """``engram doctor``: versions, store, counts per namespace, index, embedder and recall
    mode. It shows every namespace, so it needs an admin key."""
    caller.require_admin("diagnostics")
    return _memory(state).doctor()


@router.get("/health", response_model=m.HealthOut, tags=["maintenance"], summary="Liveness")
def health() -> dict[str, Any]:
    """Always open (no key needed): the server is up."""
    return {"status": "ok", "engram": __version__}

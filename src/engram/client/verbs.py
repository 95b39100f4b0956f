"""The everyday verbs of ``Memory``, each written once as the ``Call`` it makes.

Signatures follow ``Memory``'s, so code written against the library works against the
client; ``EngramClient`` runs these calls synchronously, ``AsyncEngramClient`` awaits
them. The server validates every input again and its error comes back as the same
``EngramError`` the library would raise.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar, Unpack

from engram.client import decode
from engram.client.call import Call, Params, given, json_body, page_params, segment
from engram.errors import InvalidInputError, shown
from engram.memory import Memory
from engram.records import BatchResult, HistoryEntry, MemoryRecord, Page
from engram.scoping import SCOPE_KEYS, ScopeArgs, scoped

#: ``add_many``'s ``progress(done, total)``, as ``Memory.add_many`` takes it.
Progress = Callable[[int, int], None]
OnRefused = Literal["skip", "raise"]
OnBlocked = Literal["skip", "raise", "flag"]
P = ParamSpec("P")
T = TypeVar("T")


def _memory_path(memory_id: object, tail: str = "") -> str:
    return f"/v1/memories/{segment(memory_id, 'memory_id')}{tail}"


def _mirror(
    verb: Callable[Concatenate[Any, P], Any],
    route: str | Callable[[object], str],
    read: Callable[[Any], T],
    doc: str,
) -> Callable[P, Call[T]]:
    """The client verb of the library's ``verb``, with its very parameters (the
    signature is the library's, for ``help()``). ``route`` is a path to ``POST`` the
    arguments to as one JSON object; or, for a change to one memory, the path of the
    first argument (its id) to ``PATCH``, the scope keywords in the query string as
    the memory routes read them. A required argument or one with a default is always
    sent, one that defaults to None when given, and what ``**`` collects (``add``'s
    extra fields, recall's overrides) is spread among them, as the server's models
    read them."""
    signature = inspect.signature(verb)
    own = signature.replace(  # no self; what the builder returns, as the others say it
        parameters=list(signature.parameters.values())[1:],
        return_annotation=f"Call[{signature.return_annotation}]",
    )

    def build(*args: P.args, **kwargs: P.kwargs) -> Call[T]:
        try:
            bound = own.bind(*args, **kwargs)
        except TypeError as exc:  # as Python words it: "add() got an unexpected ..."
            raise TypeError(f"{verb.__name__}() {exc}") from None
        bound.apply_defaults()
        body: dict[str, Any] = {}
        for name, value in bound.arguments.items():
            param = own.parameters[name]
            if param.kind is param.VAR_KEYWORD:
                body.update(value)
            elif value is not None or param.default is not None:
                body[name] = value
        if isinstance(route, str):
            return Call("POST", route, read, body=json_body(body))
        path = route(body.pop(next(iter(own.parameters))))
        params = {k: body.pop(k) for k in SCOPE_KEYS if k in body}
        return Call("PATCH", path, read, params=params, body=json_body(body))

    build.__name__ = build.__qualname__ = verb.__name__
    build.__doc__ = doc
    build.__signature__ = own  # type: ignore[attr-defined]
    return build


add = _mirror(
    Memory.add,
    "/v1/memories",
    decode.memory,
    """``POST /v1/memories``: store one memory verbatim and return it (the stored one
    when the same content is already there).""",
)


def _batch_scope(
    items: Sequence[object], asked: dict[str, Any]
) -> tuple[list[object], dict[str, Any]]:
    """Items without their scope keys, and the one scope they share with ``asked``.

    The HTTP API writes a batch into one scope; the library lets each item name its
    own, so a batch whose items name different scopes is refused before anything is
    sent."""
    scopes = set()
    stripped: list[object] = []
    for item in items:
        if isinstance(item, Mapping):
            own = {k: item[k] for k in SCOPE_KEYS if item.get(k) is not None}
            stripped.append({k: v for k, v in item.items() if k not in SCOPE_KEYS})
        else:
            own = {}
            stripped.append(item)
        scopes.add(tuple(sorted({**own, **given(**asked)}.items())))
    if len(scopes) > 1:
        raise InvalidInputError(
            f"the items of this batch name {len(scopes)} different scopes (namespace, "
            "user_id, agent_id, run_id); the HTTP API writes a batch into one scope: send "
            "one batch per scope"
        )
    return stripped, dict(scopes.pop()) if scopes else given(**asked)


@scoped
def add_many(
    items: Sequence[str | Mapping[str, Any]],
    *,
    progress: Progress | None = None,
    on_blocked: OnBlocked = "skip",
    on_invalid: OnRefused = "raise",
    **who: Unpack[ScopeArgs],
) -> Call[BatchResult]:
    """``POST /v1/memories/batch``: validate and scan every item, store the good ones.
    ``progress(done, total)`` is called once, when the server has answered."""
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise InvalidInputError(f"items must be a list of strings or dicts, got {shown(items)}")
    asked = dict(who)
    stripped, shared = _batch_scope(items, asked)
    wire = [{"content": item} if isinstance(item, str) else item for item in stripped]
    body = {"items": wire, "on_blocked": on_blocked, "on_invalid": on_invalid, **shared}

    def read(data: Any) -> BatchResult:
        result = decode.batch(data)
        if progress is not None:
            progress(len(result.items), len(result.items))
        return result

    return Call("POST", "/v1/memories/batch", read, body=json_body(body))


update = _mirror(
    Memory.update,
    _memory_path,
    decode.memory,
    """``PATCH /v1/memories/{id}``: change a memory; the old values stay in its history.""",
)


@scoped
def delete(memory_id: str, **who: Unpack[ScopeArgs]) -> Call[MemoryRecord]:
    """``DELETE /v1/memories/{id}``: tombstone a memory."""
    params = given(**who)
    return Call("DELETE", _memory_path(memory_id), decode.memory, params=params)


@scoped
def feedback(
    memory_id: str, rating: int | str, comment: str | None = None, **who: Unpack[ScopeArgs]
) -> Call[MemoryRecord]:
    """``POST /v1/memories/{id}/feedback``: thumbs up (+1) or down (-1)."""
    return Call(
        "POST",
        _memory_path(memory_id, "/feedback"),
        decode.memory,
        params=given(**who),
        body=json_body({"rating": rating, **given(comment=comment)}),
    )


@scoped
def get(memory_id: str, **who: Unpack[ScopeArgs]) -> Call[MemoryRecord]:
    """``GET /v1/memories/{id}``: one live memory; ``NotFoundError`` if it is not in
    this namespace."""
    params = given(**who)
    return Call("GET", _memory_path(memory_id), decode.memory, params=params)


def _one(value: object) -> object:
    """``{"$eq": v}`` is ``v`` (the filter grammar's spelled-out equality)."""
    if isinstance(value, Mapping) and list(value) == ["$eq"]:
        return value["$eq"]
    return value


def _list_params(filters: Mapping[str, Any] | None) -> Params:
    """``get_all``'s filters as ``GET /v1/memories`` parameters: ``type``, ``category``,
    ``session_id`` and ``tags`` as their own parameters, ``metadata.<key>`` (or
    ``metadata: {...}``) in the ``metadata`` JSON object. Anything else cannot be sent
    to that route, so it is refused here rather than dropped."""
    if filters is None:
        return {}
    if not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {shown(filters)}")
    params: Params = {}
    metadata: dict[str, Any] = {}
    for key, raw in filters.items():
        value = _one(raw)
        if key in ("type", "category", "session_id") and isinstance(value, str):
            params[key] = value
        elif key == "tags" and isinstance(value, str):
            params["tags"] = [value]
        elif key == "tags" and isinstance(value, list | tuple) and value:
            if not all(isinstance(t, str) for t in value):
                raise InvalidInputError(f"tags must be strings, got {shown(value)}")
            params["tags"] = list(value)
        elif isinstance(key, str) and key.startswith("metadata.") and len(key) > 9:
            metadata[key.removeprefix("metadata.")] = raw
        elif key == "metadata" and isinstance(value, Mapping):
            metadata.update(value)
        else:
            raise InvalidInputError(
                f"get_all over HTTP filters on type, category and session_id (one string "
                f"each), tags and metadata.<key>; got {shown(key)}: {shown(raw)}. Scope ids "
                "(user_id, agent_id, run_id) are keyword arguments of get_all"
            )
    if metadata:
        params["metadata"] = json.dumps(json_body(metadata))
    return params


@scoped
def get_all(
    *,
    filters: Mapping[str, Any] | None = None,
    limit: int = 100,
    offset: int = 0,
    include_deleted: bool = False,
    **who: Unpack[ScopeArgs],
) -> Call[Page]:
    """``GET /v1/memories``: a ``Page`` of memories, newest first."""
    params: Params = {
        **given(**who),
        **_list_params(filters),
        **page_params(limit, offset),
    }
    if include_deleted:
        params["include_deleted"] = True
    return Call("GET", "/v1/memories", decode.page, params=params)


@scoped
def history(memory_id: str, **who: Unpack[ScopeArgs]) -> Call[list[HistoryEntry]]:
    """``GET /v1/memories/{id}/history``: every event of a memory, oldest first."""
    params = given(**who)
    return Call("GET", _memory_path(memory_id, "/history"), decode.history, params=params)


search = _mirror(
    Memory.search,
    "/v1/search",
    decode.hits,
    """``POST /v1/search``: ranked hits, each with its score breakdown. The server takes
    the overrides ``fusion``, ``strategy``, ``min_relevance`` and ``abstain``.""",
)
recall = _mirror(
    Memory.recall,
    "/v1/recall",
    decode.recall,
    """``POST /v1/recall``: the few memories that matter, and the context block.""",
)


@scoped
def add_transcript(session_key: str, content: str, **who: Unpack[ScopeArgs]) -> Call[bool]:
    """``POST /v1/transcripts``: keep a session's raw transcript once; False when the
    session already had one."""
    body = {"session_key": session_key, "content": content}
    body.update(given(**who))
    return Call("POST", "/v1/transcripts", decode.transcript_stored, body=json_body(body))


def feedback_log(*, namespace: str | None = None) -> Call[list[dict[str, Any]]]:
    """``GET /v1/feedback``: every rating of the namespace, oldest first."""
    return Call("GET", "/v1/feedback", decode.feedback_log, params=given(namespace=namespace))


def purge(*, namespace: str | None = None, all_namespaces: bool = False) -> Call[int]:
    """``POST /v1/purge``: hard-delete tombstones (``all_namespaces``: an admin key)."""
    body = {"all_namespaces": all_namespaces, **given(namespace=namespace)}
    return Call("POST", "/v1/purge", decode.count, body=json_body(body))


def reindex(*, rebuild: bool = False) -> Call[int]:
    """``POST /v1/reindex`` (admin): embed memories lacking a current vector."""
    return Call("POST", "/v1/reindex", decode.count, body={"rebuild": rebuild})


def doctor() -> Call[dict[str, Any]]:
    """``GET /v1/diagnostics`` (admin): versions, store, counts, index, embedder."""
    return Call("GET", "/v1/diagnostics", decode.as_dict)


def health() -> Call[dict[str, Any]]:
    """``GET /health``: the server is up (no key needed)."""
    return Call("GET", "/health", decode.as_dict)

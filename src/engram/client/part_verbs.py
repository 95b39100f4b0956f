"""The verbs of the parts ``jobs``, ``review`` and ``documents`` over HTTP, each
written once as the ``Call`` it makes.

They return the library's own records (``Job``, ``JobPage``, ``ReviewItem``,
``Document``), and take the scope keywords (``namespace``, ``user_id``, ``agent_id``,
``run_id``) like the library's verbs. The graph and the palace: ``graph_verbs``.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any, Unpack

from engram.api import documents_routes as docs
from engram.api import jobs_routes as jobs_api
from engram.api import review_routes as review_api
from engram.client import decode
from engram.client.call import (
    Call,
    given,
    json_body,
    page_params,
    scope_given,
    segment,
)
from engram.errors import InvalidInputError, shown
from engram.jobs import Job, JobPage
from engram.pipeline.document_files import one_source
from engram.scoping import ScopeArgs
from engram.store.protocols.documents import Document
from engram.store.protocols.review import ReviewItem


# -- jobs ------------------------------------------------------------------------------
def _job(data: Any) -> Job:
    return decode.dataclass_of(Job, jobs_api.JobOut.model_validate(data))


def _job_page(data: Any) -> JobPage:
    out = jobs_api.JobList.model_validate(data)
    items = tuple(decode.dataclass_of(Job, j) for j in out.items)
    return JobPage(items, out.total, out.limit, out.offset)


def jobs_list(
    *,
    status: str | None = None,
    kind: str | None = None,
    limit: int = 100,
    offset: int = 0,
    **scope: Unpack[ScopeArgs],
) -> Call[JobPage]:
    """``GET /v1/jobs``: jobs, newest first (an admin key naming no scope: all)."""
    params = {
        **scope_given(scope),
        **given(status=status, kind=kind),
        **page_params(limit, offset),
    }
    return Call("GET", "/v1/jobs", _job_page, params=params)


def jobs_get(job_id: int, **scope: Unpack[ScopeArgs]) -> Call[Job]:
    """``GET /v1/jobs/{id}``: one job."""
    params = scope_given(scope)
    return Call("GET", f"/v1/jobs/{segment(job_id, 'job_id')}", _job, params=params)


def jobs_retry(job_id: int, **scope: Unpack[ScopeArgs]) -> Call[Job]:
    """``POST /v1/jobs/{id}/retry``: send a dead or waiting job back to the queue."""
    params = scope_given(scope)
    return Call("POST", f"/v1/jobs/{segment(job_id, 'job_id')}/retry", _job, params=params)


def jobs_status(**scope: Unpack[ScopeArgs]) -> Call[dict[str, Any]]:
    """``GET /api/pipeline/status``: queue counts, the worker, the latest failure."""
    params = scope_given(scope)
    read = decode.model(jobs_api.PipelineStatus)
    return Call("GET", "/api/pipeline/status", lambda d: read(d).model_dump(), params=params)


# -- review ----------------------------------------------------------------------------
def _item(data: Any) -> ReviewItem:
    return decode.dataclass_of(ReviewItem, review_api.ReviewOut.model_validate(data))


def _items(data: Any) -> list[ReviewItem]:
    out = review_api.ReviewList.model_validate(data)
    return [decode.dataclass_of(ReviewItem, i) for i in out.items]


def _total(data: Any) -> int:
    total = decode.as_dict(data).get("total")
    if isinstance(total, bool) or not isinstance(total, int):
        raise ValueError("a page's total is an integer")
    return total


def _status_param(status: str | None) -> str:
    return "all" if status is None else status


def review_list(
    *, status: str | None = "pending", limit: int = 100, offset: int = 0, **scope: Unpack[ScopeArgs]
) -> Call[list[ReviewItem]]:
    """``GET /v1/review``: held-back proposals, oldest first (``status=None``: all)."""
    params = {
        **scope_given(scope),
        "status": _status_param(status),
        **page_params(limit, offset),
    }
    return Call("GET", "/v1/review", _items, params=params)


def review_count(*, status: str | None = "pending", **scope: Unpack[ScopeArgs]) -> Call[int]:
    """How many review items have ``status`` (the ``total`` of ``GET /v1/review``)."""
    params = {**scope_given(scope), "status": _status_param(status)}
    return Call("GET", "/v1/review", _total, params={**params, "limit": 1})


def review_get(item_id: int, **scope: Unpack[ScopeArgs]) -> Call[ReviewItem]:
    """``GET /v1/review/{id}``: one review item."""
    params = scope_given(scope)
    return Call("GET", f"/v1/review/{segment(item_id, 'item_id')}", _item, params=params)


def _resolve(verb: str, item_id: int, note: str | None, scope: dict[str, Any]) -> Call[ReviewItem]:
    path = f"/v1/review/{segment(item_id, 'item_id')}/{verb}"
    return Call("POST", path, _item, params=scope, body=json_body(given(note=note)))


def review_approve(
    item_id: int, *, note: str | None = None, **scope: Unpack[ScopeArgs]
) -> Call[ReviewItem]:
    """``POST /v1/review/{id}/approve``: apply the proposal (the server records the
    acting key as the reviewer)."""
    return _resolve("approve", item_id, note, scope_given(scope))


def review_reject(
    item_id: int, *, note: str | None = None, **scope: Unpack[ScopeArgs]
) -> Call[ReviewItem]:
    """``POST /v1/review/{id}/reject``: drop the proposal."""
    return _resolve("reject", item_id, note, scope_given(scope))


# -- documents -------------------------------------------------------------------------
def _document(data: Any) -> Document:
    return decode.dataclass_of(Document, docs.DocumentOut.model_validate(data))


def _documents(data: Any) -> list[Document]:
    out = docs.DocumentList.model_validate(data)
    return [decode.dataclass_of(Document, d) for d in out.items]


def _read_file(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    """A local file's bytes and name: the server never reads its own files for a caller,
    so the client reads them here and the server reads the text out of them (a PDF's
    pages, a UTF-16 note) as ``mem.documents.ingest(path=...)`` would."""
    try:
        file = Path(os.fspath(path)).expanduser()
        return file.read_bytes(), file.name
    except (OSError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"path must be a readable file: {exc}") from None


def documents_ingest(
    text: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    url: str | None = None,
    title: str | None = None,
    data: bytes | None = None,
    filename: str | None = None,
    **scope: Unpack[ScopeArgs],
) -> Call[Document]:
    """``POST /v1/documents``: queue a text, a local file (its bytes read here and sent,
    base64, as ``file``), a file's ``data`` with its ``filename``, or an http(s) URL
    (fetched by the server's worker)."""
    one_source(text=text, path=path, data=data, url=url, filename=filename)
    if path is not None:
        data, filename = _read_file(path)
    file = None
    if data is not None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise InvalidInputError(f"data must be bytes (a file's content), got {shown(data)}")
        encoded = base64.b64encode(bytes(data)).decode("ascii")
        file = {"data_base64": encoded, **given(name=filename)}
    body = {**scope_given(scope), **given(text=text, url=url, title=title, file=file)}
    return Call("POST", "/v1/documents", _document, body=json_body(body))


def documents_get(document_id: str, **scope: Unpack[ScopeArgs]) -> Call[Document]:
    """``GET /v1/documents/{id}``: one document and its status."""
    params = scope_given(scope)
    path = f"/v1/documents/{segment(document_id, 'document_id')}"
    return Call("GET", path, _document, params=params)


def documents_list(
    *,
    status: str | None = None,
    source: str | None = None,
    limit: int = 100,
    offset: int = 0,
    **scope: Unpack[ScopeArgs],
) -> Call[list[Document]]:
    """``GET /v1/documents``: documents, newest first (``source``: of that URL or path)."""
    params = {
        **scope_given(scope),
        **given(status=status, source=source),
        **page_params(limit, offset),
    }
    return Call("GET", "/v1/documents", _documents, params=params)


def documents_count(
    *, status: str | None = None, source: str | None = None, **scope: Unpack[ScopeArgs]
) -> Call[int]:
    """How many documents the namespace holds (the ``total`` of ``GET /v1/documents``)."""
    params = {**scope_given(scope), **given(status=status, source=source), "limit": 1}
    return Call("GET", "/v1/documents", _total, params=params)


def documents_delete(document_id: str, **scope: Unpack[ScopeArgs]) -> Call[Document]:
    """``DELETE /v1/documents/{id}``: the document and its chunks; the removed document."""
    path = f"/v1/documents/{segment(document_id, 'document_id')}"
    return Call("DELETE", path, _document, params=scope_given(scope))

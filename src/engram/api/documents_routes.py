"""The document routes (seed 004's document ingest): queue a text or a URL, list a
namespace's documents (all, or those of one source), follow one through its statuses,
delete one with its chunks.

Like every route, each resolves the caller's namespace with ``Principal.scope`` and calls
one ``mem.documents`` verb. A server never reads its own files for a caller: the HTTP API
takes text, a file's bytes (base64, with its name) or an http(s) URL, never a path.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, status
from pydantic import BaseModel, Field, PrivateAttr, model_validator

from engram.api import models as m
from engram.api.auth import Caller, State
from engram.api.routes import _ids, _scoped

DocumentId = Annotated[str, Path(min_length=1, max_length=200, description="A document id.")]
Status = Literal["queued", "extracting", "chunking", "embedding", "indexing", "done", "failed"]

router = APIRouter(
    tags=["documents"],
    responses={
        code: {"model": m.ErrorOut, "description": text}
        for code, text in {
            401: "No API key, or an unknown or revoked one.",
            403: "The key may not reach that namespace.",
            404: "No such document in the namespace.",
            413: "The body is over the documents route's limit (the base64 of "
            "[documents] max_content_bytes, or api.max_body_bytes if larger).",
            422: "Invalid input: not exactly one of text, file and url, a file that is not "
            "base64 or not a readable PDF or text file, a URL that is not http(s), or one "
            "at a loopback, private or other non-public address (url_refused).",
        }.items()
    },
)


class FileIn(BaseModel):
    """A file's bytes, base64-encoded, and its name."""

    data_base64: str = Field(
        min_length=1,
        description="The file's content, base64 (RFC 4648, standard alphabet). A PDF's "
        "pages are read for their text; any other file must be UTF-8 text (or UTF-16/32 "
        "with a byte-order mark).",
    )
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=1024,
        description="The file's name, e.g. paper.pdf: its suffix says how to read it, and "
        "recall labels the chunks with it ('from paper.pdf, p. 3'). Directories are dropped.",
    )

    _bytes: bytes = PrivateAttr(default=b"")

    @model_validator(mode="after")
    def _decoded(self) -> FileIn:
        """Decode once, here, so a body that is not base64 is a 422 naming the field."""
        try:
            self._bytes = base64.b64decode(self.data_base64, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError(
                "file.data_base64 is not valid base64; encode the file's bytes "
                "(base64 -w0 FILE, or base64.b64encode in Python)"
            ) from None
        return self

    def data(self) -> bytes:
        """The file's bytes."""
        return self._bytes


class DocumentIn(m.Scope):
    """``POST /v1/documents``: exactly one of ``text``, ``file`` and ``url``."""

    text: str | None = Field(default=None, min_length=1, description="The document's text.")
    file: FileIn | None = Field(
        default=None,
        description="A file's bytes (base64) and name: a PDF or a text file sent by the "
        "caller (the server never reads its own files).",
    )
    url: str | None = Field(
        default=None,
        min_length=1,
        max_length=8192,
        description="An http or https URL at a public address (private ones only if the "
        "operator allows them); the worker fetches it (text/html, text/*, "
        "application/json, application/xml, application/pdf).",
    )
    title: str | None = Field(
        default=None, max_length=1000, description="Tags every chunk; an HTML <title> fills it."
    )

    @model_validator(mode="after")
    def _one_source(self) -> DocumentIn:
        if sum(v is not None for v in (self.text, self.file, self.url)) != 1:
            raise ValueError("pass exactly one of text, file and url")
        return self


class DocumentListQuery(m.Scope):
    """Query parameters of ``GET /v1/documents``."""

    status: Status | None = None
    source: str | None = Field(
        default=None,
        min_length=1,
        max_length=8192,
        description="Only the documents of this source: a URL, or a file path as the "
        "documents' source shows it (matched exactly).",
    )
    limit: int = Field(default=100, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=10_000_000)


class DocumentOut(BaseModel):
    """One document and where its ingest stands."""

    id: str
    namespace: str
    source_type: Literal["text", "file", "url"]
    source: str | None = Field(description="The URL or file path; null for text.")
    title: str | None
    content_type: str | None
    status: Status
    error: str | None = Field(description="Why the last attempt failed, if it did.")
    chunk_count: int
    byte_length: int
    created_at: datetime
    updated_at: datetime


class DocumentDetail(DocumentOut):
    """A document with the memories its chunks became."""

    memory_ids: list[str] = Field(description="The chunk memories' ids, in chunk order.")


class DocumentList(m.Page):
    """A page of documents, newest first."""

    items: list[DocumentOut]
    total: int = Field(description="How many documents match, on every page.")


@router.post(
    "/v1/documents",
    response_model=DocumentOut,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Queue a document",
)
def ingest_document(body: DocumentIn, caller: Caller, state: State) -> dict[str, Any]:
    """Store a text (or record a URL) and queue its ingest job: 202 with the ``queued``
    document. The worker fetches, chunks and stores it as ``document_chunk`` memories;
    ``GET /v1/documents/{id}`` follows its status."""
    mem, scope = _scoped(caller, state, body, acts=True)
    upload = body.file
    document = mem.documents.ingest(
        body.text,
        url=body.url,
        title=body.title,
        data=None if upload is None else upload.data(),
        filename=None if upload is None else upload.name,
        **_ids(scope),
    )
    return document.to_dict()


@router.get("/v1/documents", response_model=DocumentList, summary="List documents")
def list_documents(
    query: Annotated[DocumentListQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Documents of a namespace, newest first, with their status (``source``: only
    those read from that URL or file, e.g. to find what to delete when it changed)."""
    mem, scope = _scoped(caller, state, query)
    docs = mem.documents.list(
        status=query.status,
        source=query.source,
        namespace=scope.namespace,
        limit=query.limit,
        offset=query.offset,
    )
    total = mem.documents.count(status=query.status, source=query.source, namespace=scope.namespace)
    return m.page(docs, total, query.limit, query.offset)


@router.get("/v1/documents/{document_id}", response_model=DocumentDetail, summary="Get a document")
def get_document(
    document_id: DocumentId,
    scope_in: Annotated[m.Scope, Query()],
    caller: Caller,
    state: State,
) -> dict[str, Any]:
    """One document: its status, chunk count, error and chunk memory ids."""
    mem, scope = _scoped(caller, state, scope_in)
    document = mem.documents.get(document_id, namespace=scope.namespace)
    chunks = mem.documents.chunks(document.id, namespace=scope.namespace)
    return {**document.to_dict(), "memory_ids": [c.memory_id for c in chunks]}


@router.delete(
    "/v1/documents/{document_id}", response_model=DocumentOut, summary="Delete a document"
)
def delete_document(
    document_id: DocumentId,
    scope_in: Annotated[m.Scope, Query()],
    caller: Caller,
    state: State,
) -> dict[str, Any]:
    """Remove a document and tombstone the chunk memories it wrote (they leave recall at
    once; their history stays). A chunk another document holds too becomes that
    document's. Returns the document as it was; 404 if the namespace has no such id."""
    mem, scope = _scoped(caller, state, scope_in)
    return mem.documents.delete(document_id, namespace=scope.namespace).to_dict()

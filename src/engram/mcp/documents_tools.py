"""The document MCP tools (seed 004's document ingest, FEATURES P11): ``ingest_document``,
``list_documents`` and ``delete_document``, a thin translation of ``mem.documents`` for
agents.

``engram.mcp.server`` registers them next to the memory tools and runs each through the
same ``call`` (see ``engram.mcp.graph_tools``): the namespace is the caller's, so another
user's document id is not found. Like the HTTP API, the tools take text or a URL, never
a path: a server does not read its own files for a caller.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from typing import Annotated, Any, Literal

from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from engram.documents import Document
from engram.errors import InvalidInputError
from engram.mcp.annotations import DESTRUCTIVE, READ_ONLY, Tools
from engram.mcp.graph_tools import Call
from engram.memory import Memory
from engram.records import iso

#: The document tools, in the order they are listed (after list_memories).
DOCUMENT_TOOL_NAMES = ("ingest_document", "list_documents", "delete_document")

DocumentId = Annotated[
    str, Field(min_length=1, max_length=200, description="A document's id, as a tool gave it.")
]
StatusName = Literal["queued", "extracting", "chunking", "embedding", "indexing", "done", "failed"]


class DocumentQueued(BaseModel):
    """A document ``ingest_document`` queued."""

    document_id: str
    status: str = Field(
        description="queued; then extracting, chunking, embedding, indexing and done (or "
        "failed) as the worker processes it."
    )


class DocumentSummary(BaseModel):
    """A document and where its ingest stands."""

    id: str
    source_type: str = Field(description="text, file or url.")
    source: str | None = Field(description="The URL or file path; null for a text.")
    title: str | None
    content_type: str | None
    status: str
    error: str | None = Field(description="Why its ingest failed, if it did.")
    chunk_count: int
    created_at: str


class DocumentPage(BaseModel):
    """One page of documents, newest first."""

    items: list[DocumentSummary]
    total: int = Field(description="How many documents match, on every page.")
    next_offset: int | None = Field(
        description="Pass as offset for the next page; null at the end."
    )


def _summary(document: Document) -> DocumentSummary:
    return DocumentSummary(
        id=document.id,
        source_type=document.source_type,
        source=document.source,
        title=document.title,
        content_type=document.content_type,
        status=document.status,
        error=document.error,
        chunk_count=document.chunk_count,
        created_at=iso(document.created_at),
    )


def documents_tools(memory: Memory, call: Call) -> Tools:
    """The document tools over ``memory``, each with its MCP annotations."""

    async def ingest_document(
        text: Annotated[str | None, Field(min_length=1, description="The document's text.")] = None,
        url: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=8192,
                description="An http or https URL to fetch (a web page, text or a PDF).",
            ),
        ] = None,
        title: Annotated[
            str | None, Field(max_length=1000, description="A title; tags every chunk.")
        ] = None,
    ) -> DocumentQueued:
        """Call to add a long text or a web page or PDF (an http or https URL) to memory:
        it is queued, then split into chunks that search_memory finds like any memory.
        Pass exactly one of text and url. Returns the document id and its status."""

        def run(ns: str) -> DocumentQueued:
            if (text is None) == (url is None):  # the library's own message names `path`
                got = "both" if text is not None else "neither"
                raise InvalidInputError(f"pass exactly one of text and url (got {got})")
            document = memory.documents.ingest(text, url=url, title=title, namespace=ns)
            return DocumentQueued(document_id=document.id, status=document.status)

        return await call(run)

    async def list_documents(
        source: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=8192,
                description="Only the documents of this URL or file path (as listed).",
            ),
        ] = None,
        status: Annotated[StatusName | None, Field(description="Only this status.")] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Page size.")] = 20,
        offset: Annotated[int, Field(ge=0, le=1_000_000)] = 0,
    ) -> DocumentPage:
        """Call to see which documents memory holds, newest first, with each one's
        source, status and chunk count: to check an ingest finished, or to find the id
        of a document to delete (pass source to see only those of one URL or file)."""

        def run(ns: str) -> DocumentPage:
            docs = memory.documents
            found = docs.list(
                status=status, source=source, limit=limit, offset=offset, namespace=ns
            )
            total = docs.count(status=status, source=source, namespace=ns)
            return DocumentPage(
                items=[_summary(d) for d in found],
                total=total,
                next_offset=offset + limit if offset + limit < total else None,
            )

        return await call(run)

    async def delete_document(document_id: DocumentId) -> DocumentSummary:
        """Call when a document is obsolete or was ingested by mistake: it is removed and
        its chunks leave search and recall at once (their history is kept). Returns the
        document as it was."""

        def run(ns: str) -> DocumentSummary:
            return _summary(memory.documents.delete(document_id, namespace=ns))

        return await call(run)

    tools: dict[str, tuple[Any, ToolAnnotations]] = {
        "ingest_document": (
            ingest_document,
            ToolAnnotations(read_only_hint=False, idempotent_hint=False, open_world_hint=True),
        ),
        "list_documents": (list_documents, READ_ONLY),
        "delete_document": (delete_document, DESTRUCTIVE),
    }
    return tools

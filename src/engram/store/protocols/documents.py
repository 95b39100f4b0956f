"""The documents part of a store: seed 004's ``documents`` and ``document_memories``.

A document is a text, a file or a URL handed to ``mem.documents.ingest``. Its row keeps
the source verbatim (raw first) and the status of its ``document_ingest`` job; each
chunk the job writes is an ordinary memory, linked back with its index so a document's
chunks can be enumerated or deleted as a unit (seed 004).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: Where a document comes from (seed 004: ``url`` is fetched, anything else is read
#: from ``raw_content``).
SOURCE_TYPES = ("text", "file", "url")
#: seed 004's status transitions, extracting -> chunking -> embedding -> indexing ->
#: done (or failed), after ``queued``: a document waits there until a worker leases
#: its job, so its status never claims work that has not started.
DOCUMENT_STATUSES = ("queued", "extracting", "chunking", "embedding", "indexing", "done", "failed")


@dataclass(frozen=True, slots=True)
class Document(Record):
    """One ingested document, without its content (which may be megabytes)."""

    id: str
    namespace: str
    source_type: str
    source: str | None
    """The file's path or the URL; None for text."""
    title: str | None
    content_type: str | None
    """The MIME type of the content (None for a URL until it is fetched)."""
    status: str
    error: str | None
    chunk_count: int
    byte_length: int
    """The content's size in UTF-8 bytes (0 for a URL until it is fetched)."""
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class DocumentChunk:
    """One link of ``document_memories``: a chunk's index and the memory holding it."""

    chunk_index: int
    memory_id: str
    content_hash: str
    """The memory's content hash (seed 004: chunks are deduplicated by it)."""


@runtime_checkable
class DocumentStore(Protocol):
    """Documents and the memories their chunks became."""

    def create(
        self,
        namespace: str,
        *,
        source_type: str,
        source: str | None,
        title: str | None,
        raw_content: str | None,
        content_type: str | None,
        byte_length: int,
        now: datetime,
    ) -> Document:
        """A new document with status ``queued``. Joins an open transaction, so the
        document and its job commit together."""
        ...

    def get(self, namespace: str, document_id: str) -> Document | None:
        """One document of ``namespace``, or None."""
        ...

    def raw_content(self, namespace: str, document_id: str) -> str | None:
        """The document's content as given or fetched (None for a URL not yet fetched)."""
        ...

    def set_status(
        self, document_id: str, status: str, *, error: str | None = None, now: datetime
    ) -> Document:
        """Move a document to ``status``, recording ``error`` (cleared when None)."""
        ...

    def set_extracted(
        self,
        document_id: str,
        *,
        title: str | None,
        raw_content: str | None = None,
        content_type: str | None = None,
        byte_length: int | None = None,
        now: datetime,
    ) -> Document:
        """Record what extraction found: a fetched URL's content, type and size (None
        keeps what is stored); ``title`` only fills a missing title (seed 004: a page
        title is backfilled when the document has none)."""
        ...

    def link(self, document_id: str, chunks: Sequence[tuple[int, str]], *, now: datetime) -> int:
        """Link (chunk index, memory id) pairs to a document (a pair already linked is
        kept) and return its chunk count, which the row records."""
        ...

    def chunks(self, document_id: str) -> list[DocumentChunk]:
        """A document's linked chunks in index order."""
        ...

    def select(
        self,
        namespace: str,
        *,
        status: str | None = None,
        source: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Document]:
        """Documents of ``namespace``, newest first (``status``, ``source``: only those
        with that status, or read from that file path or URL exactly)."""
        ...

    def count(self, namespace: str, *, status: str | None = None, source: str | None = None) -> int:
        """How many documents ``namespace`` holds (``status``, ``source``: as ``select``)."""
        ...

    def by_source(self, namespace: str, source_type: str, source: str) -> list[Document]:
        """Documents of ``namespace`` read from one file or URL, oldest first: what a
        later ingest of the same source replaces."""
        ...

    def holders(
        self, namespace: str, memory_ids: Sequence[str], *, besides: str
    ) -> dict[str, tuple[str, int]]:
        """For each of ``memory_ids`` that a document other than ``besides`` links, the
        newest such document and the memory's chunk index there."""
        ...

    def delete(self, namespace: str, document_id: str) -> bool:
        """Remove a document and its links (its chunk memories stay, for the caller to
        tombstone); False if it was not there."""
        ...

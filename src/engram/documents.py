"""``mem.documents``: ingest a text, a file or a URL as chunked memories (seed 004's
document ingest, FEATURES P11).

``ingest`` stores the document verbatim (a URL is only recorded: the worker fetches
it) and queues its ``document_ingest`` job in the same transaction, then returns at once
with status ``queued``. The job (``engram.pipeline.documents``) extracts, chunks, embeds
and links the document, moving its status through extracting, chunking, embedding,
indexing and done (or failed); ``get`` shows where it is. Each chunk becomes a memory of
type ``document_chunk`` that recall finds like any other.
"""

from __future__ import annotations

import builtins
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Unpack

from engram.core import Core, Part, Scope
from engram.errors import (
    ContentTooLargeError,
    EmptyContentError,
    InvalidInputError,
    NotFoundError,
    shown,
)
from engram.pipeline.document_files import one_source, over, read_bytes, read_path
from engram.pipeline.document_replace import drop_document
from engram.pipeline.pinned import check_submitted
from engram.pipeline.worker import Worker
from engram.records import utcnow
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols import DOCUMENT_STATUSES, Document, DocumentChunk, Job
from engram.validate import choice, no_nul, offset_value, optional_str, path_value, positive_int

__all__ = ["DOCUMENT_STATUSES", "Document", "DocumentChunk", "Documents"]

#: Longest document id accepted (ids are 32 characters; this bounds what callers echo).
MAX_ID_CHARS = 200
#: Longest ``source`` filter accepted (a URL is at most 8 192 characters, a path 4 096).
MAX_SOURCE_CHARS = 8192
#: The statuses a document ends in.
FINAL = ("done", "failed")
#: How often ``process`` looks at a document's status while its job runs.
POLL_S = 0.05
#: Jobs read per page when looking for a document's job.
JOB_PAGE = 200


def _document_id(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_CHARS:
        raise InvalidInputError(f"a document id is a non-empty string, got {shown(value)}")
    return no_nul("a document id", value.strip())


class Documents(Part):
    """Documents of a ``Memory``: ingest, follow, list, delete."""

    @scoped
    def ingest(
        self,
        text: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        url: str | None = None,
        title: str | None = None,
        data: bytes | None = None,
        filename: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> Document:
        """Queue one document: ``text``, a UTF-8 text or PDF file at ``path`` (read now), a
        file's bytes as ``data`` (an upload: ``filename``, e.g. ``"paper.pdf"``, says how to
        read it and labels its chunks), or an http(s) ``url`` (fetched by the worker).
        Returns the ``queued`` document; run the worker (``engram ingest`` does) to index
        it. Its chunks carry the scope's ids.
        ``UrlRefusedError`` for a URL at a loopback, private or other non-public address
        unless ``[documents] allow_private_urls`` or ``allowed_private_hosts`` allows it
        (the worker checks again when it fetches)."""
        core = self._core
        scope = core.open_scope(**who)
        one_source(text=text, path=path, data=data, url=url, filename=filename)
        title = optional_str("title", title)
        if title is not None:
            title = " ".join(title.split()) or None
        limit = core.config.documents.max_content_bytes
        source: str | None = None
        content: str | None = None
        content_type: str | None = None
        if url is not None:
            policy = core.config.documents.url_policy()
            source_type, source = "url", check_submitted(url, policy)
        elif path is not None:
            source_type = "file"
            named = path_value("path", path)  # "" would be read as the current directory
            try:
                file = Path(named).expanduser().resolve()
            except (TypeError, ValueError) as exc:  # not a path, or one holding NUL
                raise InvalidInputError(f"path must be a file path: {exc}") from None
            content, content_type = read_path(file, limit)
            source = str(file)
        elif data is not None:
            source_type = "file"
            content, content_type, source = read_bytes(data, filename, limit)
        else:
            source_type, content_type = "text", "text/plain"
            content = _checked_text(text, limit)
        size = 0 if content is None else len(content.encode("utf-8"))
        if source_type == "file" and source is not None and content is not None:
            same = _unchanged(core, scope.namespace, source, content, title)
            if same is not None:  # ingested before as it is now: nothing new to store
                return same
        with core.store.transaction():
            document = core.store.documents.create(
                scope.namespace,
                source_type=source_type,
                source=source,
                title=title,
                raw_content=content,
                content_type=content_type,
                byte_length=size,
                now=utcnow(),
            )
            core.store.jobs.enqueue(
                "document_ingest",
                scope.namespace,
                document_id=document.id,
                payload=_scope_ids(scope),
                max_attempts=core.config.worker.max_attempts,
            )
        return document

    @scoped
    def get(self, document_id: str, **who: Unpack[ScopeArgs]) -> Document:
        """One document of the namespace, with its status; ``NotFoundError`` if it is
        not there (another namespace's documents are not found either)."""
        core = self._core
        scope = core.open_scope(**who)
        found = core.store.documents.get(scope.namespace, _document_id(document_id))
        if found is None:
            raise NotFoundError(
                f"no document {shown(document_id)} in namespace {shown(scope.namespace)}"
            )
        return found

    @scoped
    def chunks(self, document_id: str, **who: Unpack[ScopeArgs]) -> builtins.list[DocumentChunk]:
        """The document's chunks in order: each one's index and the memory holding it."""
        document = self.get(document_id, **who)
        return self._core.store.documents.chunks(document.id)

    @scoped
    def list(
        self,
        *,
        status: str | None = None,
        source: str | None = None,
        limit: int = 100,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> builtins.list[Document]:
        """Documents of the namespace, newest first (``status``: only those;
        ``source``: only those read from that file path or URL, as ``Document.source``
        shows it: matched exactly, unlike ``of_source``, so a server never resolves a
        caller's path on its own file system)."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.documents.select(
            scope.namespace,
            status=_status(status),
            source=_source(source),
            limit=positive_int("limit", limit, upper=1000),
            offset=offset_value(offset),
        )

    @scoped
    def of_source(
        self, source: str | os.PathLike[str], **who: Unpack[ScopeArgs]
    ) -> builtins.list[Document]:
        """The documents ingested from one file (its path, resolved as ``ingest``
        resolves it; the file need not exist any more) or http(s) URL, oldest first: to
        find, and delete, what a renamed or deleted note left behind."""
        core = self._core
        scope = core.open_scope(**who)
        named = path_value("source", source)
        if "://" in named:
            return core.store.documents.by_source(scope.namespace, "url", named)
        try:
            file = str(Path(named).expanduser().resolve())
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(f"source must be a file path or a URL: {exc}") from None
        return core.store.documents.by_source(scope.namespace, "file", file)

    @scoped
    def count(
        self,
        *,
        status: str | None = None,
        source: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> int:
        """How many documents the namespace holds (``status``, ``source``: as ``list``)."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.documents.count(
            scope.namespace, status=_status(status), source=_source(source)
        )

    @scoped
    def process(
        self,
        document_id: str,
        *,
        progress: Callable[[Document], None] | None = None,
        timeout_s: float | None = None,
        **who: Unpack[ScopeArgs],
    ) -> Document:
        """Run the job worker in this process until the document is ``done`` or
        ``failed`` (its job completed or dead), and return it: for scripts and the CLI,
        where no background worker runs. ``progress(document)`` is called with the
        document now and at each status change. Document jobs queued before this one run
        first; other kinds of jobs are left to the worker. A failed attempt waits out the
        worker's backoff before the next; after ``timeout_s`` seconds the document is
        returned as it stands."""
        core = self._core
        document = self.get(document_id, **who)
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        watch = _Watch(core, document, progress)
        worker = Worker(core, kinds=("document_ingest",))
        while True:
            watch.run(worker.run_pending)
            document = watch.poll()
            job = _job_of(core, document)
            if document.status in FINAL or job is None or job.status in ("completed", "dead"):
                return document
            # Waiting out a retry's backoff, or another worker holds the lease.
            wait = POLL_S
            if job.status == "pending" and job.run_after is not None:
                wait = max(POLL_S, (job.run_after - utcnow()).total_seconds())
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait <= 0:
                    return document
            time.sleep(wait)

    @scoped
    def delete(self, document_id: str, **who: Unpack[ScopeArgs]) -> Document:
        """Remove a document and tombstone the chunk memories it wrote (seed 004: a
        document's chunks are deleted as a unit). A chunk that was already stored by
        someone else (the same text in the namespace) is left alone, and one that
        another document links too (a renamed file ingested again) becomes that
        document's."""
        document = self.get(document_id, **who)
        drop_document(self._core, document)
        return document


class _Watch:
    """Runs the worker on a thread while this one reports the document's status."""

    def __init__(
        self, core: Core, document: Document, progress: Callable[[Document], None] | None
    ) -> None:
        self._core = core
        self._document = document
        self._progress = progress
        if progress is not None:
            progress(document)

    def poll(self) -> Document:
        """The document now; ``progress`` hears of a new status."""
        before = self._document
        now = self._core.store.documents.get(before.namespace, before.id)
        if now is None:
            raise NotFoundError(f"document {shown(before.id)} was deleted while it was processed")
        if now.status != before.status and self._progress is not None:
            self._progress(now)
        self._document = now
        return now

    def run(self, work: Callable[[], object]) -> None:
        """Run ``work`` on a worker thread, polling the status until it returns."""
        failure: builtins.list[BaseException] = []

        def target() -> None:
            try:
                work()
            except BaseException as exc:  # handed to the caller's thread below
                failure.append(exc)

        thread = threading.Thread(target=target, name="engram-document", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(POLL_S)
            self.poll()
        if failure:
            raise failure[0]


def _job_of(core: Core, document: Document) -> Job | None:
    """The newest ``document_ingest`` job of a document."""
    offset = 0
    while True:
        page = core.store.jobs.select(
            namespace=document.namespace, kind="document_ingest", limit=JOB_PAGE, offset=offset
        )
        for job in page:
            if job.document_id == document.id:
                return job
        if len(page) < JOB_PAGE:
            return None
        offset += JOB_PAGE


def _unchanged(
    core: Core, namespace: str, source: str, content: str, title: str | None
) -> Document | None:
    """The document this file was already ingested as, with this very content (and
    title, when one is given), unless that ingest failed: a second ``engram ingest``
    of an unchanged note returns it rather than storing the file again."""
    size = len(content.encode("utf-8"))
    for earlier in reversed(core.store.documents.by_source(namespace, "file", source)):
        if earlier.status == "failed" or earlier.byte_length != size:
            continue
        if title is not None and earlier.title != title:
            continue
        if core.store.documents.raw_content(namespace, earlier.id) == content:
            return earlier
    return None


def _checked_text(text: object, limit: int) -> str:
    if not isinstance(text, str):
        raise InvalidInputError(f"text must be a string, got {type(text).__name__}")
    no_nul("text", text)
    if not text.strip():
        raise EmptyContentError("the document is empty; pass the text to ingest")
    size = len(text.encode("utf-8"))
    if size > limit:
        raise ContentTooLargeError(over(size, limit))
    return text


def _status(status: object) -> str | None:
    return None if status is None else choice("status", status, DOCUMENT_STATUSES)


def _source(source: object) -> str | None:
    """A ``source`` filter: a file path or URL as documents show it (never blank)."""
    if source is None:
        return None
    if not isinstance(source, str) or not source.strip() or len(source) > MAX_SOURCE_CHARS:
        raise InvalidInputError(
            f"source is a document's file path or URL (at most {MAX_SOURCE_CHARS:,} "
            f"characters), got {shown(source)}"
        )
    return no_nul("source", source)


def _scope_ids(scope: Scope) -> dict[str, str]:
    """The narrower ids of the ingest call, which the chunk memories carry."""
    ids = {"user_id": scope.user_id, "agent_id": scope.agent_id, "run_id": scope.run_id}
    return {k: v for k, v in ids.items() if v is not None}

"""``mem.documents`` end to end on both backends: ingest queues the document and its job
together, the worker takes it to ``done``, its chunks are memories recall finds; a URL
that keeps failing ends ``failed`` after the worker's retries; namespaces stay apart."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import AsyncMemory, Config, Memory
from engram.core import current_actor
from engram.documents import Document
from engram.errors import ContentTooLargeError, EmptyContentError, InvalidInputError, NotFoundError
from test_documents_fetch import serve_documents

ALICE, BOB = "user:alice", "user:bob"
STEPS = ["queued", "extracting", "chunking", "embedding", "indexing", "done"]


@pytest.fixture
def cfg(config: Config) -> Config:
    """200-character chunks; retries after 10 ms instead of seed 004's 1 s backoff; URLs
    on 127.0.0.1 allowed (the operator's opt-in, issue 26)."""
    return config.with_overrides(
        documents={
            "chunk_size": 200,
            "chunk_overlap": 20,
            "max_content_bytes": 4096,
            "allow_private_urls": True,
        },
        worker={"backoff_base_ms": 10, "jitter_ms": 0},
    )


@pytest.fixture
def docs(cfg: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as m:
        yield m


@pytest.fixture
def site() -> Iterator[tuple[str, list[str]]]:
    with serve_documents() as served:
        yield served


def runbook(n: int = 12) -> str:
    return " ".join(f"Step {i}: page the on-call engineer before deploy {i}." for i in range(n))


def test_ingest_queues_the_document_with_its_job(docs: Memory) -> None:
    doc = docs.documents.ingest(runbook(), title="Runbook", user_id="alice")
    assert (doc.namespace, doc.status, doc.source_type, doc.title) == (
        ALICE,
        "queued",
        "text",
        "Runbook",
    )
    assert doc.byte_length == len(runbook().encode()) and doc.content_type == "text/plain"
    [job] = docs.jobs.list(kind="document_ingest", namespace=ALICE)
    assert (job.document_id, job.status, job.payload) == (doc.id, "pending", {"user_id": "alice"})
    assert docs.get_all(namespace=ALICE) == []  # nothing is chunked before the worker runs


def test_the_worker_takes_a_document_to_done_and_recall_finds_its_chunks(docs: Memory) -> None:
    doc = docs.documents.ingest(runbook(), title="Runbook", user_id="alice")
    assert docs.jobs.process_pending() == 1
    done = docs.documents.get(doc.id, user_id="alice")
    assert (done.status, done.error) == ("done", None)
    chunks = docs.documents.chunks(doc.id, user_id="alice")
    assert done.chunk_count == len(chunks) > 1
    for chunk in chunks:
        record = docs.get(chunk.memory_id, user_id="alice")
        assert (record.type.value, record.importance, record.document_id) == (
            "document_chunk",
            0.3,
            doc.id,
        )
        assert (record.tags, record.user_id) == (("Runbook",), "alice")
    hits = docs.recall("page the on-call engineer before deploy 7", user_id="alice").hits
    assert hits and hits[0].memory.document_id == doc.id
    assert "deploy 7." in hits[0].memory.content
    [job] = docs.jobs.list(kind="document_ingest", namespace=ALICE)
    assert job.status == "completed" and job.result is not None
    assert job.result["chunk_count"] == len(chunks)


def test_process_reports_status_changes_in_order(docs: Memory) -> None:
    doc = docs.documents.ingest(runbook(40), user_id="alice")
    seen: list[str] = []
    final = docs.documents.process(
        doc.id, user_id="alice", progress=lambda d: seen.append(d.status)
    )
    assert final.status == "done"
    # The first and last always show; a fast step may pass between two looks.
    assert seen[0] == "queued" and seen[-1] == "done"
    assert seen == sorted(seen, key=STEPS.index) and len(set(seen)) == len(seen)


def test_a_url_is_fetched_by_the_worker(docs: Memory, site: tuple[str, list[str]]) -> None:
    url, hits = site
    doc = docs.documents.ingest(url=f"{url}/page.html", namespace=ALICE)
    assert (doc.source, doc.content_type, doc.byte_length) == (f"{url}/page.html", None, 0)
    assert hits == []  # ingest only records the URL
    done = docs.documents.process(doc.id, namespace=ALICE)
    assert (done.status, done.title, done.content_type) == (
        "done",
        "The Falcon Runbook",
        "text/html",
    )
    assert hits == ["/page.html"]
    hit = docs.recall("when are Falcon deploys frozen", namespace=ALICE).hits[0]
    assert (
        hit.memory.content == "Falcon Deploys of project Falcon are frozen on Fridays & holidays."
    )
    assert hit.memory.tags == ("The Falcon Runbook",)


def test_a_failing_fetch_is_failed_after_the_worker_retries(
    docs: Memory, site: tuple[str, list[str]]
) -> None:
    url, hits = site
    doc = docs.documents.ingest(url=f"{url}/broken", namespace=ALICE)
    final = docs.documents.process(doc.id, namespace=ALICE, timeout_s=30)
    assert (final.status, final.error) == ("failed", f"{url}/broken answered HTTP 503")
    assert hits == ["/broken"] * 3  # [worker] max_attempts
    [job] = docs.jobs.list(kind="document_ingest", namespace=ALICE)
    assert (job.status, job.attempts) == ("dead", 3)
    assert job.error is not None and "HTTP 503" in job.error


def test_a_refused_content_type_fails_without_retrying(
    docs: Memory, site: tuple[str, list[str]]
) -> None:
    url, hits = site
    doc = docs.documents.ingest(url=f"{url}/image.png", namespace=ALICE)
    final = docs.documents.process(doc.id, namespace=ALICE)
    assert final.status == "failed" and "image/png" in (final.error or "")
    assert hits == ["/image.png"]
    [job] = docs.jobs.list(kind="document_ingest", namespace=ALICE)
    assert job.status == "completed" and job.result == {
        "document_id": doc.id,
        "status": "failed",
        "error": final.error,
    }


# -- sources --------------------------------------------------------------------------------
def test_files_are_read_at_ingest_and_html_files_are_parsed(docs: Memory, tmp_path: Path) -> None:
    page = tmp_path / "handbook.html"
    page.write_text("<title>Handbook</title><p>Backups run at 02:00 UTC.</p>", encoding="utf-8")
    doc = docs.documents.ingest(path=page, namespace=ALICE)
    assert (doc.source_type, doc.source, doc.content_type) == ("file", str(page), "text/html")
    page.unlink()  # the content was stored when ingest ran
    done = docs.documents.process(doc.id, namespace=ALICE)
    assert (done.status, done.title) == ("done", "Handbook")
    [chunk] = docs.documents.chunks(doc.id, namespace=ALICE)
    assert docs.get(chunk.memory_id, namespace=ALICE).content == "Backups run at 02:00 UTC."


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", InvalidInputError, "not a UTF-8 text file"),
        (b"plain\x00text", InvalidInputError, "NUL bytes"),
        (b"   \n", EmptyContentError, "is empty"),
        (b"x" * 5000, ContentTooLargeError, "over the limit of 4,096"),
    ],
)
def test_files_that_are_not_text_are_refused(
    docs: Memory, tmp_path: Path, data: bytes, error: type[Exception], message: str
) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    with pytest.raises(error, match=message):
        docs.documents.ingest(path=path, namespace=ALICE)
    assert docs.documents.count(namespace=ALICE) == 0
    assert docs.jobs.list(namespace=ALICE).total == 0


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({}, InvalidInputError, "exactly one of text, path, data or url"),
        ({"text": "a", "url": "http://h/"}, InvalidInputError, r"\(got text, url\)"),
        ({"url": "file:///etc/passwd"}, InvalidInputError, "only http and https"),
        ({"path": "/no/such/file.txt"}, InvalidInputError, "no file at"),
        # A folder said "no file at <folder>", as if it did not exist.
        ({"path": "/"}, InvalidInputError, "/ is a directory: ingest takes one file"),
        ({"text": "  "}, EmptyContentError, "empty"),
        ({"text": "x" * 4097}, ContentTooLargeError, "4,097 bytes"),
        ({"text": "nul\x00"}, InvalidInputError, "NUL"),
        ({"text": 42}, InvalidInputError, "must be a string"),
        ({"path": 42}, InvalidInputError, "path must be a file path"),
        ({"path": "a\x00b"}, InvalidInputError, "path must be a file path"),
        ({"text": "ok", "title": 7}, InvalidInputError, "title must be a string"),
    ],
)
def test_bad_input_stores_nothing(
    docs: Memory, kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        docs.documents.ingest(namespace=ALICE, **kwargs)  # type: ignore[arg-type]
    assert docs.documents.count(namespace=ALICE) == 0
    assert docs.jobs.list(namespace=ALICE).total == 0


# -- namespaces, listing, deleting ----------------------------------------------------------
def test_another_namespace_cannot_see_or_touch_a_document(docs: Memory) -> None:
    doc = docs.documents.ingest(runbook(), user_id="alice")
    docs.documents.process(doc.id, user_id="alice")
    for call in (docs.documents.get, docs.documents.chunks, docs.documents.delete):
        with pytest.raises(NotFoundError, match="in namespace 'user:bob'"):
            call(doc.id, user_id="bob")
    with pytest.raises(NotFoundError):
        docs.documents.process(doc.id, user_id="bob")
    assert docs.documents.list(user_id="bob") == []
    assert docs.documents.count(user_id="bob") == 0
    assert not docs.recall("on-call engineer", user_id="bob").hits
    assert docs.documents.get(doc.id, user_id="alice").status == "done"


def test_list_is_newest_first_and_filters_by_status(docs: Memory) -> None:
    first = docs.documents.ingest("first document", namespace=ALICE)
    second = docs.documents.ingest("second document", namespace=ALICE)
    assert docs.jobs.process_pending(limit=1) == 1  # the oldest job: the first document's
    assert [d.id for d in docs.documents.list(namespace=ALICE)] == [second.id, first.id]
    assert [d.id for d in docs.documents.list(namespace=ALICE, status="done")] == [first.id]
    assert docs.documents.count(namespace=ALICE, status="done") == 1
    with pytest.raises(InvalidInputError, match="status must be one of"):
        docs.documents.list(namespace=ALICE, status="finished")
    with pytest.raises(InvalidInputError, match="limit"):
        docs.documents.list(namespace=ALICE, limit=0)


def test_delete_tombstones_its_own_chunks_only(docs: Memory) -> None:
    shared = docs.add("A sentence both the user and a document hold.", namespace=ALICE)
    own = docs.documents.ingest(runbook(8), namespace=ALICE)
    # This document's one chunk is the user's memory: it is linked, not copied.
    quoting = docs.documents.ingest(shared.content, namespace=ALICE)
    for doc in (own, quoting):
        docs.documents.process(doc.id, namespace=ALICE)
    own_ids = [c.memory_id for c in docs.documents.chunks(own.id, namespace=ALICE)]
    assert [c.memory_id for c in docs.documents.chunks(quoting.id, namespace=ALICE)] == [shared.id]
    for doc in (own, quoting):
        assert docs.documents.delete(doc.id, namespace=ALICE).id == doc.id
        with pytest.raises(NotFoundError):
            docs.documents.get(doc.id, namespace=ALICE)
    for memory_id in own_ids:
        with pytest.raises(NotFoundError):
            docs.get(memory_id, namespace=ALICE)
    assert docs.get(shared.id, namespace=ALICE) == shared
    assert [r.id for r in docs.get_all(namespace=ALICE)] == [shared.id]
    # Unrelated on purpose: whatever recall can still reach must be the shared memory, so
    # min_relevance=0 asks for the nearest memories even though none is related.
    nearest = docs.recall("page the on-call engineer", namespace=ALICE, min_relevance=0)
    assert [h.memory.id for h in nearest.hits] == [shared.id]


def test_a_deleted_documents_chunks_name_who_removed_them(docs: Memory) -> None:
    """A document delete writes each chunk's history row with the caller's actor, as a
    forget does: the chunks it tombstones and the chunk it hands to another document that
    holds the same text both say who asked (``engram serve`` sets the API key as actor)."""
    own = docs.documents.ingest(runbook(8), namespace=ALICE)
    passage = "A passage two files share: the deploy freeze starts on Friday at noon."
    first = docs.documents.ingest(passage, namespace=ALICE)
    second = docs.documents.ingest(passage, namespace=ALICE)
    for doc in (own, first, second):
        docs.documents.process(doc.id, namespace=ALICE)
    own_ids = [c.memory_id for c in docs.documents.chunks(own.id, namespace=ALICE)]
    [moved] = [c.memory_id for c in docs.documents.chunks(first.id, namespace=ALICE)]
    assert docs.get(moved, namespace=ALICE).document_id == first.id
    token = current_actor.set(lambda: "key:7")
    try:
        docs.documents.delete(own.id, namespace=ALICE)
        docs.documents.delete(first.id, namespace=ALICE)
    finally:
        current_actor.reset(token)
    for memory_id in own_ids:
        last = docs.history(memory_id, namespace=ALICE)[-1]
        assert (last.event, last.actor) == ("delete", "key:7")
    assert docs.get(moved, namespace=ALICE).document_id == second.id
    last = docs.history(moved, namespace=ALICE)[-1]
    assert (last.event, last.actor) == ("update", "key:7")


def test_async_memory_has_the_same_verbs(cfg: Config) -> None:
    async def scenario() -> Document:
        async with AsyncMemory(":memory:", config=cfg, embedder=HashEmbedder()) as amem:
            doc = await amem.documents.ingest("Async documents work too.", namespace=ALICE)
            await amem.documents.process(doc.id, namespace=ALICE)
            assert await amem.documents.count(namespace=ALICE) == 1
            return await amem.documents.get(doc.id, namespace=ALICE)

    assert asyncio.run(scenario()).status == "done"

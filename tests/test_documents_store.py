"""The documents part of the store, the same suite on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from engram.errors import InvalidInputError, NotFoundError
from engram.records import MemoryRecord, utcnow
from engram.store import Store
from engram.store.protocols import DOCUMENT_STATUSES, Document, DocumentStore
from engram.store.sql import migrations
from engram.store.sqlite import SQLiteStore
from engram.store.sqlite.dialect import SQLITE
from engram.validate import build_record
from test_migrations import applied

NS, OTHER = "user:alice", "user:bob"


def new_document(store: Store, namespace: str = NS, **fields: Any) -> Document:
    args: dict[str, Any] = {
        "source_type": "text",
        "source": None,
        "title": None,
        "raw_content": "the content",
        "content_type": "text/plain",
        "byte_length": 11,
        "now": utcnow(),
    }
    args.update(fields)
    return store.documents.create(namespace, **args)


def memory(store: Store, content: str, namespace: str = NS) -> MemoryRecord:
    record = build_record(content, namespace=namespace, max_chars=100_000)
    [result] = store.memories.insert([record])
    return result.record


def test_the_part_implements_its_protocol(any_store: Store) -> None:
    assert isinstance(any_store.documents, DocumentStore)


def test_a_new_document_is_queued_with_its_content(any_store: Store) -> None:
    doc = new_document(any_store, title="Runbook", source_type="file", source="/tmp/r.txt")
    assert (doc.namespace, doc.source_type, doc.source, doc.title) == (
        NS,
        "file",
        "/tmp/r.txt",
        "Runbook",
    )
    assert (doc.status, doc.error, doc.chunk_count, doc.byte_length) == ("queued", None, 0, 11)
    assert doc.created_at == doc.updated_at and doc.created_at.tzinfo is not None
    assert any_store.documents.get(NS, doc.id) == doc
    assert any_store.documents.raw_content(NS, doc.id) == "the content"
    assert doc.to_dict()["created_at"].endswith("Z")


def test_another_namespace_sees_nothing(any_store: Store) -> None:
    doc = new_document(any_store)
    assert any_store.documents.get(OTHER, doc.id) is None
    assert any_store.documents.raw_content(OTHER, doc.id) is None
    assert any_store.documents.select(OTHER) == []
    assert any_store.documents.count(OTHER) == 0
    assert any_store.documents.delete(OTHER, doc.id) is False
    assert any_store.documents.get(NS, doc.id) == doc


def test_statuses_move_and_errors_are_recorded_then_cleared(any_store: Store) -> None:
    doc = new_document(any_store)
    later = doc.created_at + timedelta(seconds=5)
    failed = any_store.documents.set_status(doc.id, "extracting", error="boom", now=later)
    assert (failed.status, failed.error, failed.updated_at) == ("extracting", "boom", later)
    assert any_store.documents.set_status(doc.id, "chunking", now=later).error is None
    with pytest.raises(InvalidInputError, match="document status must be one of"):
        any_store.documents.set_status(doc.id, "sleeping", now=later)
    with pytest.raises(NotFoundError):
        any_store.documents.set_status("nope", "done", now=later)


def test_extraction_fills_a_url_and_backfills_only_a_missing_title(any_store: Store) -> None:
    url = new_document(
        any_store,
        source_type="url",
        source="http://127.0.0.1/x",
        raw_content=None,
        content_type=None,
        byte_length=0,
    )
    assert any_store.documents.raw_content(NS, url.id) is None
    got = any_store.documents.set_extracted(
        url.id,
        raw_content="<title>Page</title>body",
        content_type="text/html",
        byte_length=23,
        title="Page",
        now=utcnow(),
    )
    assert (got.title, got.content_type, got.byte_length) == ("Page", "text/html", 23)
    assert any_store.documents.raw_content(NS, url.id) == "<title>Page</title>body"
    # A title already there stays; fields passed as None keep their values.
    again = any_store.documents.set_extracted(url.id, title="Other", now=utcnow())
    assert (again.title, again.content_type, again.byte_length) == ("Page", "text/html", 23)
    assert any_store.documents.raw_content(NS, url.id) == "<title>Page</title>body"


def test_links_count_chunks_once_and_list_them_in_order(any_store: Store) -> None:
    doc = new_document(any_store)
    first, second, third = (memory(any_store, f"chunk number {i}") for i in range(3))
    now = utcnow()
    assert any_store.documents.link(doc.id, [(2, third.id), (0, first.id)], now=now) == 2
    # Linking again is harmless: an index keeps its memory.
    assert any_store.documents.link(doc.id, [(0, second.id), (1, second.id)], now=now) == 3
    assert any_store.documents.link(doc.id, [], now=now) == 3
    chunks = any_store.documents.chunks(doc.id)
    assert [(c.chunk_index, c.memory_id) for c in chunks] == [
        (0, first.id),
        (1, second.id),
        (2, third.id),
    ]
    assert chunks[0].content_hash == first.content_hash
    assert any_store.documents.get(NS, doc.id).chunk_count == 3  # type: ignore[union-attr]


def test_a_purged_chunk_memory_drops_out_of_the_links(any_store: Store) -> None:
    doc = new_document(any_store)
    kept, purged = memory(any_store, "kept chunk"), memory(any_store, "purged chunk")
    any_store.documents.link(doc.id, [(0, kept.id), (1, purged.id)], now=utcnow())
    any_store.memories.delete(NS, purged.id)
    any_store.memories.purge(NS)
    assert [c.memory_id for c in any_store.documents.chunks(doc.id)] == [kept.id]


def test_select_is_newest_first_filtered_and_paged(any_store: Store) -> None:
    start = utcnow()
    docs = [new_document(any_store, now=start + timedelta(seconds=i)) for i in range(4)]
    any_store.documents.set_status(docs[1].id, "done", now=utcnow())
    newest_first = [d.id for d in reversed(docs)]
    assert [d.id for d in any_store.documents.select(NS)] == newest_first
    assert [d.id for d in any_store.documents.select(NS, limit=2, offset=1)] == newest_first[1:3]
    assert [d.id for d in any_store.documents.select(NS, status="done")] == [docs[1].id]
    assert any_store.documents.count(NS) == 4
    assert any_store.documents.count(NS, status="queued") == 3
    with pytest.raises(InvalidInputError):
        any_store.documents.count(NS, status="bogus")


def test_delete_removes_the_document_and_its_links(any_store: Store) -> None:
    doc = new_document(any_store)
    chunk = memory(any_store, "a chunk of it")
    any_store.documents.link(doc.id, [(0, chunk.id)], now=utcnow())
    assert any_store.documents.delete(NS, doc.id) is True
    assert any_store.documents.get(NS, doc.id) is None
    assert any_store.documents.chunks(doc.id) == []
    assert any_store.documents.delete(NS, doc.id) is False
    assert any_store.memories.get(NS, chunk.id) == chunk  # the memory is the caller's


def test_a_document_rolls_back_with_its_transaction(any_store: Store) -> None:
    class Abort(Exception):
        pass

    with pytest.raises(Abort), any_store.transaction():
        doc = new_document(any_store)
        assert any_store.documents.get(NS, doc.id) is not None  # visible inside
        raise Abort
    assert any_store.documents.count(NS) == 0


def test_source_types_and_statuses_are_checked(any_store: Store) -> None:
    with pytest.raises(InvalidInputError, match="source_type"):
        new_document(any_store, source_type="pdf")
    with pytest.raises(InvalidInputError):
        any_store.documents.select(NS, status="bogus")
    assert DOCUMENT_STATUSES[0] == "queued" and DOCUMENT_STATUSES[-2:] == ("done", "failed")


def test_an_older_sqlite_store_gains_the_document_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrations.migrate(conn, SQLITE, upto="009_unembedded")
        assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'documents'").fetchall()
    finally:
        conn.close()
    store = SQLiteStore(path)
    try:
        assert "012_documents" in applied(path)
        doc = new_document(store)
        assert store.documents.get(NS, doc.id) == doc
    finally:
        store.close()

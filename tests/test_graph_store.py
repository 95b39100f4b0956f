"""The graph part of each store backend: the protocol, its transaction and its
migration (the library's behaviour is in test_graph.py)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from conftest import sqlite_before
from engram.errors import NotFoundError
from engram.store import Store
from engram.store.protocols import GraphStore
from engram.store.protocols.graph import Statement
from engram.store.sql import migrations
from engram.store.sqlite import SQLiteStore
from engram.store.sqlite.dialect import SQLITE
from engram.validate import build_record

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def memory(store: Store, content: str, namespace: str = "default") -> str:
    [result] = store.memories.insert([build_record(content, namespace=namespace, max_chars=10_000)])
    return result.record.id


def test_every_backend_has_a_graph_part(any_store: Store) -> None:
    assert isinstance(any_store.graph, GraphStore)


def test_record_refuses_a_memory_of_another_namespace(any_store: Store) -> None:
    other = memory(any_store, "Derek owns an efoil", namespace="elsewhere")
    with pytest.raises(NotFoundError):
        any_store.graph.record(
            "default",
            [Statement(other, [("Derek", "owns", "efoil", 1.0)], T0, T0)],
            single_valued=(),
        )
    assert any_store.graph.entities("default", limit=10, offset=0, query=None) == []


def test_graph_writes_join_the_store_transaction(any_store: Store) -> None:
    """A failure after ``record`` inside ``transaction()`` undoes the graph rows too,
    so the write pipeline can commit a memory and its graph together or not at all."""
    with pytest.raises(RuntimeError), any_store.transaction():
        memory_id = memory(any_store, "Derek owns an efoil")
        any_store.graph.record(
            "default",
            [Statement(memory_id, [("Derek", "owns", "efoil", 1.0)], T0, T0)],
            single_valued=(),
        )
        assert any_store.graph.entity("default", "derek") is not None
        raise RuntimeError("the pipeline failed after the graph write")
    assert any_store.graph.entity("default", "derek") is None


def test_sqlite_store_upgrades_to_the_graph(tmp_path: Path) -> None:
    path = sqlite_before(tmp_path / "old.db", "013_graph")
    store = SQLiteStore(path)
    try:
        memory_id = memory(store, "Derek owns an efoil")
        [result] = store.graph.record(
            "default",
            [Statement(memory_id, [("Derek", "owns", "efoil", 0.5)], T0, T0, {"Derek": "person"})],
            single_valued=(),
        )
        assert [(r.source, r.target, r.confidence) for r in result.relations] == [
            ("Derek", "efoil", 0.5)
        ]
    finally:
        store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert "013_graph" in migrations.applied(conn, SQLITE)
    finally:
        conn.close()


def test_the_aspects_migration_aliases_normalised_names_of_older_entities(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrations.migrate(conn, SQLITE, upto="014_review")
        for key in ("dr. smith", "caroline's", "derek", "smith"):
            conn.execute(
                "INSERT INTO entities(namespace, name, canonical_name, created_at, updated_at) "
                "VALUES ('default', ?, ?, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')",
                (key, key),
            )
        conn.execute(
            "INSERT INTO entities(namespace, name, canonical_name, created_at, updated_at) "
            "VALUES ('default', 'caroline', 'caroline', '2024-01-01T00:00:00Z', "
            "'2024-01-01T00:00:00Z')"
        )
    finally:
        conn.close()
    store = SQLiteStore(path)
    try:
        smith = store.graph.entity("default", "dr smith")
        assert smith is not None and smith.aliases == ("dr smith",)
        # "caroline" is taken by an entity of its own: dedupe's business, not an alias
        possessive = store.graph.entity("default", "caroline's")
        assert possessive is not None and possessive.aliases == ()
        assert store.graph.entity("default", "derek").aliases == ()  # type: ignore[union-attr]
    finally:
        store.close()

"""Opening an older database upgrades it in place and keeps every row intact."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory, MigrationError, NotFoundError
from engram.store.sql import migrations
from engram.store.sqlite import SQLiteStore
from engram.store.sqlite.dialect import SQLITE
from engram.text import normalize_content

LATEST = [name for name, _ in migrations.named(SQLITE)]

ROWS = [
    # (id, namespace, content, title, tags, metadata, quality, score, deleted)
    ("m1", "default", "The staging database is db-staging-2", "Staging DB", ["ops"], {}, 0, None,
     False),
    ("m2", "default", "Alice likes green tea", None, [], {"source": "chat"}, 2, 8.5, False),
    ("m3", "user:bob", "Bob deploys on Tuesdays", None, ["deploy"], {}, -1, None, False),
    ("m4", "default", "An old tombstoned note about kites", None, [], {}, 0, None, True),
]  # fmt: skip


def old_database(path: Path, upto: str) -> None:
    """A database written by an engram that only knew migrations through ``upto``."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        ran = migrations.migrate(conn, SQLITE, upto=upto)
        assert ran == LATEST[: LATEST.index(upto) + 1]
        for i, (mid, ns, content, title, tags, meta, quality, score, deleted) in enumerate(ROWS):
            n = normalize_content(content)
            created = f"2024-0{i + 1}-01T10:00:00.000000+00:00"
            conn.execute(
                "INSERT INTO memories (id, namespace, content, normalized, content_hash, type, "
                "title, tags, metadata, quality, score, created_at, updated_at, deleted_at) "
                "VALUES (?, ?, ?, ?, ?, 'fact', ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    mid, ns, content, n.normalized, n.content_hash, title, json.dumps(tags),
                    json.dumps(meta), quality, score, created, created,
                    created if deleted else None,
                ),
            )  # fmt: skip
            conn.execute(
                "INSERT INTO memory_history (memory_id, namespace, event, before, after, "
                "created_at) VALUES (?, ?, 'create', NULL, '{}', ?)",
                (mid, ns, created),
            )
    finally:
        conn.close()


def columns(path: Path, table: str) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
    finally:
        conn.close()


def applied(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
    finally:
        conn.close()


def kw(mem: Memory, query: str, **scope: str) -> list[str]:
    """Ids of keyword matches (dense recall ranks every memory, so it cannot show absence)."""
    return [h.id for h in mem.recall(query, strategy="bm25", limit=10, **scope).hits]


def open_mem(path: Path, config: Config) -> Memory:
    return Memory(path, config=config, embedder=HashEmbedder())


@pytest.mark.parametrize("upto", ["001_memories", "002_fts", "004_provenance"])
def test_old_database_upgrades_with_data_intact(tmp_path: Path, config: Config, upto: str) -> None:
    path = tmp_path / "old.db"
    old_database(path, upto)
    assert "run_id" not in columns(path, "memories") or upto == "004_provenance"

    with open_mem(path, config) as mem:
        assert applied(path) == LATEST
        assert {"run_id", "session_id", "who", "why", "embedding_model"} <= columns(
            path, "memories"
        )
        assert {"memory_seq", "model", "dim", "content_hash", "vector"} <= columns(
            path, "memory_vectors"
        )
        assert "rating" in columns(path, "memory_feedback_log")

        for mid, ns, content, title, tags, meta, quality, score, deleted in ROWS:
            if deleted:
                with pytest.raises(NotFoundError):
                    mem.get(mid, namespace=ns)
                [tomb] = [r for r in mem.get_all(namespace=ns, include_deleted=True) if r.deleted]
                assert tomb.id == mid and tomb.content == content
                continue
            record = mem.get(mid, namespace=ns)
            assert record.content == content
            assert record.content_hash == normalize_content(content).content_hash
            assert (record.title, list(record.tags), record.metadata) == (title, tags, meta)
            assert (record.quality, record.score) == (quality, score)
            assert record.run_id is None and record.who is None  # new columns, left null
            assert [e.event for e in mem.history(mid, namespace=ns)] == ["create"]

        # keyword search finds the old rows (FTS back-filled or kept in sync)...
        assert kw(mem, "staging database") == ["m1"]
        assert kw(mem, "green tea") == ["m2"]
        assert kw(mem, "deploys", user_id="bob") == ["m3"]
        # ...but never the tombstone
        assert kw(mem, "kites") == []
        # old rows have no vectors until reindex, and recall still works meanwhile
        assert mem.store.stats("test-hash").missing_vectors == 3
        assert mem.reindex() == 3
        assert [h.id for h in mem.recall("green tea", strategy="dense").hits][0] == "m2"

        # the upgraded database takes new writes, updates and feedback
        new = mem.add("A memory written after the upgrade", run_id="r1", user_id="bob")
        assert mem.get(new.id, user_id="bob").run_id == "r1"
        mem.update("m1", "The staging database is db-staging-3")
        assert kw(mem, "staging") == ["m1"]
        mem.feedback("m2", "up")
        assert mem.get("m2").quality == 3


def test_opening_twice_is_idempotent(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "old.db"
    old_database(path, "002_fts")
    with open_mem(path, config) as mem:
        first = [r.to_dict() for r in mem.get_all(include_deleted=True)]
    stamps = applied(path)
    with open_mem(path, config) as mem:
        assert [r.to_dict() for r in mem.get_all(include_deleted=True)] == first
        assert kw(mem, "green tea") == ["m2"]
    assert applied(path) == stamps == LATEST
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone() == (len(LATEST),)
    finally:
        conn.close()


def test_fresh_store_is_at_latest(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "new.db")
    try:
        assert store.schema_version() == LATEST[-1]
        assert store.stats(None).schema_version == LATEST[-1]
    finally:
        store.close()


def test_update_corrupted_fts_is_repaired_on_upgrade(tmp_path: Path, config: Config) -> None:
    """Databases whose FTS index was damaged by 002's two update triggers are rebuilt."""
    path = tmp_path / "old.db"
    old_database(path, "004_provenance")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        # 002's triggers fire newest first and drop the row's docsize record
        conn.execute("UPDATE memories SET content = 'Alice now likes black coffee' WHERE id = 'm2'")
        with pytest.raises(sqlite3.DatabaseError):
            conn.execute(
                "SELECT bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH 'coffee'"
            ).fetchall()
    finally:
        conn.close()
    with open_mem(path, config) as mem:
        assert kw(mem, "coffee") == ["m2"]
        assert kw(mem, "tea") == []
        mem.update("m2", "Alice switched to oolong")
        assert kw(mem, "oolong") == ["m2"]
        assert kw(mem, "coffee") == []


def test_unknown_future_migration_is_refused(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "future.db"
    with open_mem(path, config) as mem:
        mem.add("written by today's engram")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "INSERT INTO schema_migrations(name, applied_at) VALUES ('999_from_the_future', 'x')"
    )
    conn.close()
    with pytest.raises(MigrationError) as info:
        open_mem(path, config)
    message = str(info.value)
    assert "999_from_the_future" in message
    assert "newer engram" in message and "upgrade engram" in message
    # refusing to open changed nothing
    assert applied(path) == sorted([*LATEST, "999_from_the_future"])
    # ...and released the file: leaving WAL mode needs every other connection closed
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert conn.execute("PRAGMA journal_mode = DELETE").fetchone() == ("delete",)
    finally:
        conn.close()
    del info


def test_failed_migration_rolls_back(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrations.migrate(conn, SQLITE, upto="003_vectors_feedback")
        # a column 004 wants to add already exists: 004 must fail as a whole
        conn.execute("ALTER TABLE memories ADD COLUMN who TEXT")
        with pytest.raises(MigrationError, match="004_provenance"):
            migrations.migrate(conn, SQLITE)
        assert migrations.current_version(conn, SQLITE) == "003_vectors_feedback"
        cols = {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
        assert "run_id" not in cols  # 004's first ALTER was rolled back too
    finally:
        conn.close()


def test_009_clears_embedding_models_without_a_current_vector(
    tmp_path: Path, config: Config
) -> None:
    path = tmp_path / "old.db"
    old_database(path, "008_namespace_fts")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        # m1 has a vector of its current content; m2 claims a model but has no vector
        # (an earlier engram set the column even when the write raced an update).
        conn.execute("UPDATE memories SET embedding_model = 'test-hash' WHERE id IN ('m1', 'm2')")
        seq, content_hash = conn.execute(
            "SELECT seq, content_hash FROM memories WHERE id = 'm1'"
        ).fetchone()
        conn.execute(
            "INSERT INTO memory_vectors(memory_seq, model, dim, content_hash, vector) "
            "VALUES (?, 'test-hash', 64, ?, ?)",
            (seq, content_hash, bytes(64 * 4)),
        )
    finally:
        conn.close()
    with open_mem(path, config) as mem:
        assert mem.get("m1").embedding_model == "test-hash"
        assert mem.get("m2").embedding_model is None
        assert mem.store.vectors.unembedded("default") == 1  # m2; m4 is tombstoned
    assert "009_unembedded" in applied(path)


def _schema(conn: sqlite3.Connection) -> list[tuple[str, str, str | None]]:
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
    return [tuple(row) for row in rows]


def test_an_in_memory_store_is_a_copy_that_runs_no_migration_again(
    config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ``:memory:`` store starts as a copy of one this process migrated (about 16x
    faster to open): the same schema and bookkeeping as running every migration, its own
    data, and no migration's DDL run again."""
    Memory(":memory:", config=config, embedder=HashEmbedder()).close()  # the first one
    applied: list[str] = []
    apply = migrations._apply

    def counted(raw: object, d: object, name: str, fn: object) -> bool:
        applied.append(name)
        return apply(raw, d, name, fn)  # type: ignore[arg-type]

    monkeypatch.setattr(migrations, "_apply", counted)
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as one,
        Memory(":memory:", config=config, embedder=HashEmbedder()) as two,
    ):
        assert applied == []
        kept = one.add("Alice likes green tea")
        assert list(two.get_all()) == []  # two stores, not one shared
        assert one.get(kept.id).content == "Alice likes green tea"
        assert [
            r[0]
            for r in one.store._db.conn.execute("SELECT name FROM schema_migrations ORDER BY name")
        ] == sorted(LATEST)
        direct = sqlite3.connect(":memory:", isolation_level=None)
        try:
            assert migrations.migrate(direct, SQLITE) == LATEST
            assert _schema(two.store._db.conn) == _schema(direct)
            assert one.store._db.conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        finally:
            direct.close()


def test_an_in_memory_store_follows_the_migrations_this_process_has(
    config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy is keyed by the list of migrations: with one fewer (an older engram's
    list) a new ``:memory:`` store has exactly those, not the copy made with all."""
    Memory(":memory:", config=config, embedder=HashEmbedder()).close()
    # Drop SQLite's last step (the list's last may be PostgreSQL's alone: 031's epoch)
    last = max(i for i, step in enumerate(migrations.STEPS) if step.sqlite is not None)
    fewer = migrations.STEPS[:last] + migrations.STEPS[last + 1 :]
    monkeypatch.setattr(migrations, "STEPS", fewer)
    expected = [name for name, _ in migrations.named(SQLITE)]
    assert expected == LATEST[:-1]
    from engram.store.sqlite.db import Database

    db = Database(":memory:")
    try:
        names = [r[0] for r in db.conn.execute("SELECT name FROM schema_migrations")]
        assert sorted(names) == sorted(expected)
    finally:
        db.close()

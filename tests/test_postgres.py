"""What only the PostgreSQL backend has: its migrations, pool, pgvector index and config.

The shared behaviour runs on both backends in test_store_backends.py and every test
that takes ``mem``; this file covers the rest.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import psycopg
import pytest

from conftest import HashEmbedder, in_threads
from engram import Config, ConfigError, InvalidInputError, Memory
from engram.bench.pg_scale import recall_at_k
from engram.config import PostgresConfig
from engram.store import VectorRow, open_store
from engram.store.postgres import PgVectorSearch, PostgresStore
from engram.store.postgres.db import redact
from engram.store.postgres.dialect import POSTGRES
from engram.store.postgres.vectors import vector_index_name
from engram.store.sql import migrations
from engram.store.sqlite import SQLiteStore
from engram.text import fts_query, match_terms
from engram.validate import build_record
from pgserver import PgServer

pytestmark = pytest.mark.postgres


@pytest.fixture
def fresh_db(pg_server: PgServer) -> Iterator[str]:
    """An empty database without engram's schema, dropped afterwards."""
    name = pg_server.create_database(migrated=False)
    yield pg_server.database_url(name)
    pg_server.drop_database(name)


def rows(url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(query, params).fetchall()


# -- migrations -------------------------------------------------------------------------


def test_migrations_are_recorded_and_idempotent(fresh_db: str) -> None:
    PostgresStore(fresh_db).close()
    names = [n for n, _ in migrations.named(POSTGRES)]
    recorded = rows(fresh_db, "SELECT name FROM schema_migrations ORDER BY name")
    assert [r[0] for r in recorded] == names
    store = PostgresStore(fresh_db)  # re-open: nothing to apply, nothing changes
    try:
        assert store.schema_version() == names[-1]
        with psycopg.connect(fresh_db, autocommit=True) as conn:
            assert migrations.migrate(conn, POSTGRES) == []
    finally:
        store.close()
    assert len(rows(fresh_db, "SELECT name FROM schema_migrations")) == len(names)


def test_opening_an_older_schema_upgrades_it_without_losing_data(fresh_db: str) -> None:
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        assert migrations.migrate(conn, POSTGRES, upto="001_memories") == ["001_memories"]
        conn.execute(
            "INSERT INTO memories(id, namespace, content, normalized, content_hash, tags, "
            "metadata, created_at, updated_at) VALUES ('old1', 'default', "
            "'The lighthouse keeper logs storms', 'the lighthouse keeper logs storms', 'h1', "
            "'[\"sea\"]', '{\"k\": 1}', now(), now())"
        )
        conn.execute(
            "INSERT INTO memory_history(memory_id, namespace, event, created_at) "
            "VALUES ('old1', 'default', 'create', now())"
        )
    with Memory(fresh_db, config=Config.load(env={}), embedder=HashEmbedder()) as mem:
        old = mem.get("old1")
        assert old.content == "The lighthouse keeper logs storms"
        assert old.tags == ("sea",) and old.metadata == {"k": 1}
        assert [h.event for h in mem.history("old1")] == ["create"]
        # the backfilled keyword index finds it, and reindex gives it a vector
        assert [h.id for h in mem.recall("lighthouse storms", strategy="bm25").hits] == ["old1"]
        assert mem.reindex() == 1
        assert mem.recall("lighthouse keeper").hits[0].id == "old1"
        assert mem.store.stats(None).schema_version == migrations.named(POSTGRES)[-1][0]


def test_a_newer_schema_is_refused(fresh_db: str) -> None:
    PostgresStore(fresh_db).close()
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations(name) VALUES ('999_future')")
    with pytest.raises(Exception, match="newer engram"):
        PostgresStore(fresh_db)


def test_unreachable_server_is_a_store_error() -> None:
    from engram import StoreError

    with pytest.raises(StoreError, match="cannot open PostgreSQL store"):
        PostgresStore("postgresql://nobody@127.0.0.1:1/none", PostgresConfig(connect_timeout=2))


# -- selection and config ---------------------------------------------------------------


def test_store_selection_by_config_and_env(pg_url: str, tmp_path: Any) -> None:
    config = Config.load(env={"ENGRAM_STORE": pg_url}, home=str(tmp_path))
    assert config.store_path == pg_url
    with Memory(config=config, embedder=None) as mem:
        assert isinstance(mem.store, PostgresStore)
        assert mem.doctor()["store"]["backend"] == "PostgresStore"
    default = Config.load(env={}, home=str(tmp_path))
    store = open_store(default.store_path, default)
    try:
        assert isinstance(store, SQLiteStore)  # the file stays the default
    finally:
        store.close()
    url_store = open_store(f"sqlite:///{tmp_path}/x.db", default)
    try:
        assert isinstance(url_store, SQLiteStore) and url_store.location.endswith("x.db")
    finally:
        url_store.close()
    with pytest.raises(ConfigError, match="unknown store scheme"):
        open_store("mysql://x/y", default)


def test_postgres_settings_are_validated() -> None:
    cfg = Config.load(env={"ENGRAM_POSTGRES_EF_SEARCH": "64", "ENGRAM_POSTGRES_POOL_MAX_SIZE": "3"})
    assert cfg.postgres.ef_search == 64 and cfg.postgres.pool_max_size == 3
    with pytest.raises(ConfigError, match="postgres.ef_search"):
        Config.load(env={}, postgres={"ef_search": 0})
    with pytest.raises(ConfigError, match="iterative_scan"):
        Config.load(env={}, postgres={"iterative_scan": "sometimes"})


def test_location_hides_the_password() -> None:
    assert redact("postgresql://u:secret@db.example:5432/engram") == (
        "postgresql://u:***@db.example:5432/engram"
    )
    assert redact("postgresql://u@h/db") == "postgresql://u@h/db"


def test_match_terms_reads_fts_query_back_and_never_passes_syntax() -> None:
    assert match_terms(fts_query('say "hi" & NEAR(x) or <-> !!') or "") == ["hi", "near"]
    assert match_terms('"a""b" OR "c"') == ['a"b', "c"]
    assert match_terms("plain text & | !") == ["plain", "text"]


# -- behaviour that only a server shows -------------------------------------------------


@pytest.fixture
def pg_mem(pg_url: str, config: Config) -> Iterator[Memory]:
    cfg = config.with_overrides(postgres={"pool_max_size": 8})
    with Memory(pg_url, config=cfg, embedder=HashEmbedder()) as m:
        yield m


def test_nul_characters_are_refused_cleanly(pg_mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="NUL"):
        pg_mem.add("before\x00after")
    assert pg_mem.get_all() == []


def test_concurrent_feedback_loses_no_update(pg_mem: Memory) -> None:
    record = pg_mem.add("popular memory")
    barrier = threading.Barrier(6)

    def vote() -> None:
        barrier.wait()
        pg_mem.feedback(record.id, "down")

    in_threads(vote, 6)
    assert pg_mem.get(record.id).quality == -3  # six votes, clamped
    assert len(pg_mem.feedback_log()) == 6


def test_concurrent_identical_adds_store_one_memory(pg_mem: Memory) -> None:
    barrier = threading.Barrier(6)
    ids: list[str] = []

    def add() -> None:
        barrier.wait()
        ids.append(pg_mem.add("written by six threads at once").id)

    in_threads(add, 6)
    assert len(set(ids)) == 1
    assert pg_mem.store.memories.count("default") == 1


def test_memory_uses_pgvector_not_a_client_matrix(pg_mem: Memory, pg_url: str) -> None:
    assert isinstance(pg_mem.index, PgVectorSearch)
    pg_mem.add_many(["cats purr", "dogs bark", "birds sing"])
    hit = pg_mem.recall("cats purr loudly", limit=1).hits[0]
    assert hit.memory.content == "cats purr"
    name = vector_index_name("test-hash", 64)
    found = rows(pg_url, "SELECT indexdef FROM pg_indexes WHERE indexname = %s", name)
    assert found and "hnsw" in found[0][0] and "vector_cosine_ops" in found[0][0]
    state = pg_mem.doctor()["vectors"]["index"]
    assert state["backend"] == "pgvector" and state["index"] == name


def _unit_vectors(n: int, dim: int, seed: int) -> np.ndarray:
    data = np.random.default_rng(seed).normal(size=(n, dim))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def test_hnsw_recall_at_10_against_exact_search(pg_url: str) -> None:
    """HNSW (the index) vs a sequential scan (index scans off) on 3000 vectors."""
    store = PostgresStore(pg_url, PostgresConfig(ef_search=100))
    try:
        dim, n = 64, 2000
        data = _unit_vectors(n, dim, seed=1)
        records = [
            build_record(f"memory number {i}", namespace="default", max_chars=1000)
            for i in range(n)
        ]
        store.memories.insert(records)
        store.vectors.put(
            VectorRow(r.id, "m", data[i], r.content_hash) for i, r in enumerate(records)
        )
        # A bulk write into a small index builds it once after the load: wait for it.
        assert store.vectors.builds.wait(120)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("ANALYZE memory_vectors")
        search = store.vectors.index("m", dim)
        assert isinstance(search, PgVectorSearch)
        queries = _unit_vectors(30, dim, seed=2)
        approx = [[i for i, _ in search.search("default", q, 10)] for q in queries]
        exact = [[i for i, _ in search.search("default", q, 10, exact=True)] for q in queries]
        truth = [
            [records[j].id for j in np.argsort(-(data @ q), kind="stable")[:10]] for q in queries
        ]
        assert recall_at_k(exact, truth, 10) >= 0.99  # the exact path is exact
        assert recall_at_k(approx, exact, 10) >= 0.9
        with psycopg.connect(pg_url) as conn:
            plan = "\n".join(
                r[0]
                for r in conn.execute(
                    "EXPLAIN SELECT memory_id FROM memory_vectors WHERE model = 'm' AND dim = 64 "
                    "AND namespace = 'default' AND live ORDER BY embedding::vector(64) <=> "
                    "%s::vector(64) LIMIT 10",
                    (str(queries[0].tolist()),),
                ).fetchall()
            )
        assert vector_index_name("m", dim) in plan
    finally:
        store.close()

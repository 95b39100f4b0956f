"""Rebuilding PostgreSQL's vector index with the configured HNSW build (issue 29, round
10): ``postgres.hnsw_m`` / ``hnsw_ef_construction`` apply to new indexes only, so an
existing one is rebuilt online (``mem.maintenance.reindex_vectors``, ``engram
maintenance reindex-vectors``) under its own name, with the same rows found.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import psycopg
import pytest
from click.testing import CliRunner

from engram import Config, Memory
from engram.cli.main import cli
from engram.config import PostgresConfig
from engram.errors import CapabilityError, InvalidInputError, StoreBusyError
from engram.store import VectorRow
from engram.store.postgres import PgVectorSearch, PostgresStore
from engram.store.postgres.hnsw import BUILDING_SUFFIX, REBUILD_LOCK, IndexBuild, create_sql
from engram.store.postgres.vectors import vector_index_name
from engram.validate import build_record

DIM, N = 32, 3000
NAME = vector_index_name("m", DIM)
OLD = PostgresConfig(hnsw_m=16, hnsw_ef_construction=64)
#: One pooled connection, so the build's maintenance_work_mem is seen reset after it.
NEW = PostgresConfig(hnsw_m=16, hnsw_ef_construction=128, pool_min_size=1, pool_max_size=1)


def clustered(n: int, seed: int) -> np.ndarray:
    """``n`` unit vectors around 30 random centres: near neighbours crowd together."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(30, DIM))
    data = centres[rng.integers(0, 30, n)] + rng.normal(scale=0.5, size=(n, DIM))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def loaded(url: str, config: PostgresConfig) -> PostgresStore:
    store = PostgresStore(url, config)
    data = clustered(N, seed=11)
    records = [build_record(f"memory {i}", namespace="ns", max_chars=100) for i in range(N)]
    store.memories.insert(records)
    store.vectors.put(VectorRow(r.id, "m", data[i], r.content_hash) for i, r in enumerate(records))
    # A bulk write into an empty index builds it once after the load: wait for it.
    assert store.vectors.builds.wait(120)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE memory_vectors")
    return store


def reloptions(url: str, name: str) -> list[str] | None:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT c.reloptions FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid "
            "WHERE c.relname = %s AND i.indisvalid",
            (name,),
        ).fetchone()
    return None if row is None else list(row[0])


def answers(search: PgVectorSearch, *, exact: bool) -> list[list[tuple[str, float]]]:
    return [search.search("ns", q, 10, exact=exact) for q in clustered(30, seed=12)]


def search_of(store: PostgresStore) -> PgVectorSearch:
    search = store.vectors.index("m", DIM)
    assert isinstance(search, PgVectorSearch)
    return search


@pytest.mark.postgres
def test_an_older_index_is_rebuilt_with_the_configured_build(pg_url: str) -> None:
    old = loaded(pg_url, OLD)
    try:
        search = search_of(old)
        exact_before = answers(search, exact=True)
        found_before = answers(search, exact=False)
    finally:
        old.close()
    assert reloptions(pg_url, NAME) == ["m=16", "ef_construction=64"]
    store = PostgresStore(pg_url, NEW)
    try:
        search = search_of(store)
        done = store.vectors.rebuild_indexes(work_mem="96MB")
        assert [(r.index, r.before, r.after, r.rebuilt) for r in done] == [
            (NAME, {"m": 16, "ef_construction": 64}, {"m": 16, "ef_construction": 128}, True)
        ]
        assert reloptions(pg_url, NAME) == ["m=16", "ef_construction=128"]
        assert reloptions(pg_url, NAME + BUILDING_SUFFIX) is None
        with psycopg.connect(pg_url, autocommit=True) as conn:
            assert conn.execute("SELECT index_name FROM vector_indexes").fetchall() == [(NAME,)]
        # The same rows, found the same: exact answers identical, and the graph's
        # answers the same ids and scores as before the rebuild.
        assert answers(search, exact=True) == exact_before
        found = answers(search, exact=False)
        assert [[i for i, _ in f] for f in found] == [[i for i, _ in f] for f in found_before]
        assert np.allclose(
            [[s for _, s in f] for f in found], [[s for _, s in f] for f in found_before]
        )
        with store.vectors._db.read() as conn:
            setting = conn.execute("SELECT current_setting('maintenance_work_mem')").fetchone()
            assert setting is not None and setting[0] != "96MB"  # reset for the pool
        again = store.vectors.rebuild_indexes()
        assert [(r.rebuilt, r.before) for r in again] == [
            (False, {"m": 16, "ef_construction": 128})
        ]
        assert [r.rebuilt for r in store.vectors.rebuild_indexes(force=True)] == [True]
    finally:
        store.close()


@pytest.mark.postgres
def test_a_rebuild_cut_short_is_taken_up(pg_url: str) -> None:
    store = loaded(pg_url, OLD)
    try:
        target = IndexBuild(16, 128)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            # Cut short after the new index was built and the old one dropped.
            conn.execute(create_sql(NAME + BUILDING_SUFFIX, "m", DIM, target))
            conn.execute(f"DROP INDEX {NAME}")
        store.config = NEW
        done = store.vectors.rebuild_indexes()
        assert [(r.before, r.rebuilt) for r in done] == [(None, True)]
        assert reloptions(pg_url, NAME) == ["m=16", "ef_construction=128"]
        assert reloptions(pg_url, NAME + BUILDING_SUFFIX) is None
        # A leftover of another build beside the index: dropped, the index kept.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(create_sql(NAME + BUILDING_SUFFIX, "m", DIM, IndexBuild(8, 16)))
        assert [r.rebuilt for r in store.vectors.rebuild_indexes()] == [False]
        assert reloptions(pg_url, NAME + BUILDING_SUFFIX) is None
        # Another process's rebuild holds the lock: a clear error, nothing touched.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (REBUILD_LOCK,))
            with pytest.raises(StoreBusyError, match="another process is rebuilding"):
                store.vectors.rebuild_indexes(force=True)
        assert reloptions(pg_url, NAME) == ["m=16", "ef_construction=128"]
    finally:
        store.close()


@pytest.mark.postgres
def test_the_cli_rebuilds_and_reports(pg_url: str, tmp_path: Path) -> None:
    loaded(pg_url, OLD).close()
    args = ["--home", str(tmp_path), "maintenance", "reindex-vectors", "--work-mem", "32MB"]
    env = {
        "ENGRAM_STORE": pg_url,
        "ENGRAM_EMBEDDER_NAME": "none",
        "ENGRAM_CONFIG": "",
        "ENGRAM_POSTGRES_HNSW_EF_CONSTRUCTION": "128",
    }
    result = CliRunner().invoke(cli, [*args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [(r["index"], r["after"]["ef_construction"], r["rebuilt"]) for r in rows] == [
        (NAME, 128, True)
    ]
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    assert "already m 16 / ef_construction 128, left alone" in " ".join(result.output.split())


def test_bad_input_and_a_store_without_a_database_index(config: Config) -> None:
    with Memory(":memory:", config=config) as mem:
        for bad in ("4 GB", "lots", "0MB", 4):
            with pytest.raises(InvalidInputError, match="work_mem must be a size"):
                mem.maintenance.reindex_vectors(work_mem=bad)  # type: ignore[arg-type]
        with pytest.raises(CapabilityError, match="in-memory graph is rebuilt on its own"):
            mem.maintenance.reindex_vectors()


def test_an_index_build_is_read_from_its_reloptions() -> None:
    assert IndexBuild.of(["m=16", "ef_construction=64"]) == IndexBuild(16, 64)
    assert IndexBuild.of(None) == IndexBuild(16, 64)  # pgvector's defaults
    assert IndexBuild.of(["ef_construction=200", "m=24"]) == IndexBuild(24, 200)

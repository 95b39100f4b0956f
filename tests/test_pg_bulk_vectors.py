"""Large vector writes on PostgreSQL (issue 29, round 12): COPY through a staging table,
the epoch moved once per write, and a small HNSW index dropped ahead of a bulk load and
built once after it (``engram.store.postgres.bulk``), correct beside other writers.
"""

from __future__ import annotations

import threading

import numpy as np
import psycopg
import pytest

from engram.config import PostgresConfig
from engram.store import VectorRow
from engram.store.postgres import PostgresStore
from engram.store.postgres.bulk import BULK_ROWS, SMALL_INDEX
from engram.validate import build_record
from test_pg_reindex import DIM, NAME, search_of

CONFIG = PostgresConfig(pool_min_size=1, pool_max_size=4)


def unit(n: int, seed: int) -> np.ndarray:
    data = np.random.default_rng(seed).normal(size=(n, DIM))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def records(n: int, start: int = 0) -> list:
    return [
        build_record(f"memory {i}", namespace="ns", max_chars=100) for i in range(start, start + n)
    ]


def index_oid(url: str) -> int | None:
    """The HNSW index's oid if it exists and is valid (a rebuilt index has a new one)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT c.oid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid "
            "WHERE c.relname = %s AND i.indisvalid",
            (NAME,),
        ).fetchone()
    return None if row is None else int(row[0])


def epoch(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT value FROM engram_meta WHERE key = 'vector_epoch'").fetchone()
    assert row is not None
    return int(row[0])


def put(store: PostgresStore, rows: list, data: np.ndarray, lo: int, hi: int) -> None:
    """``rows[lo:hi]`` with their vectors ``data[lo:hi]``, in one write."""
    store.vectors.put(
        VectorRow(r.id, "m", data[lo + i], r.content_hash) for i, r in enumerate(rows[lo:hi])
    )


@pytest.mark.postgres
def test_a_bulk_write_into_a_small_index_builds_it_once_after_the_load(pg_url: str) -> None:
    store = PostgresStore(pg_url, CONFIG)
    try:
        search = search_of(store)
        first = index_oid(pg_url)
        assert first is not None  # made when the model was first used
        rows = records(2 * BULK_ROWS)
        data = unit(len(rows), seed=1)
        store.memories.insert(rows)
        before = epoch(pg_url)
        # A load written in two batches, as the scale harness and an import write it.
        for lo in (0, BULK_ROWS):
            put(store, rows, data, lo, lo + BULK_ROWS)
        # One epoch move per write, not one per row.
        assert epoch(pg_url) == before + 2
        assert store.vectors.builds.wait(120)
        rebuilt = index_oid(pg_url)
        assert rebuilt is not None and rebuilt != first  # dropped, then built again
        assert store.vectors.builds.builds == 1  # once, after the last batch
        assert search.state()["ann"] == {"building": False}
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("ANALYZE memory_vectors")
            counted = conn.execute(
                "SELECT count(*) FILTER (WHERE live), count(*) FROM memory_vectors"
            ).fetchone()
            embedded = conn.execute(
                "SELECT count(*) FROM memories WHERE embedding_model = 'm'"
            ).fetchone()
        assert counted == (len(rows), len(rows))
        assert embedded == (len(rows),)
        # The stored vectors are the ones written: each finds itself first, through the
        # rebuilt graph as through the exact scan.
        for i in (0, 777, len(rows) - 1):
            for exact in (True, False):
                hits = search.search("ns", data[i], 3, exact=exact)
                assert hits[0][0] == rows[i].id
                assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    finally:
        store.close()


@pytest.mark.postgres
def test_a_bulk_write_keeps_a_large_index_and_writes_into_it(pg_url: str) -> None:
    store = PostgresStore(pg_url, CONFIG)
    try:
        search_of(store)
        held = (SMALL_INDEX + 1) * BULK_ROWS + 1
        rows = records(held + BULK_ROWS)
        data = unit(len(rows), seed=2)
        store.memories.insert(rows)
        # The first rows a few at a time (below the bulk size): straight into the graph.
        for lo in range(0, held, BULK_ROWS - 1):
            put(store, rows, data, lo, min(held, lo + BULK_ROWS - 1))
        kept = index_oid(pg_url)
        put(store, rows, data, held, len(rows))
        assert not store.vectors.builds.building
        assert index_oid(pg_url) == kept  # the index held over twice the write: kept
        assert search_of(store).search("ns", data[-1], 1)[0][0] == rows[-1].id
    finally:
        store.close()


@pytest.mark.postgres
def test_a_bulk_write_skips_purged_memories_and_marks_stale_content(pg_url: str) -> None:
    store = PostgresStore(pg_url, CONFIG)
    try:
        rows = records(BULK_ROWS)
        data = unit(len(rows), seed=3)
        store.memories.insert(rows)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("DELETE FROM memories WHERE id = %s", (rows[0].id,))
        stale = [
            VectorRow(r.id, "m", data[i], r.content_hash if i != 1 else "another content")
            for i, r in enumerate(rows)
        ]
        store.vectors.put(stale)
        store.vectors.builds.wait(120)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            got = dict(conn.execute("SELECT memory_id, live FROM memory_vectors").fetchall())
            models = dict(conn.execute("SELECT id, embedding_model FROM memories").fetchall())
        assert rows[0].id not in got  # purged while it was being embedded: skipped
        assert got[rows[1].id] is False  # made from other content: not live
        assert models[rows[1].id] is None
        assert got[rows[2].id] is True and models[rows[2].id] == "m"
        assert len(got) == len(rows) - 1
    finally:
        store.close()


@pytest.mark.postgres
def test_rows_written_beside_a_deferred_build_are_in_the_built_index(pg_url: str) -> None:
    loader = PostgresStore(pg_url, CONFIG)
    other = PostgresStore(pg_url, CONFIG)
    try:
        search_of(loader)
        rows = records(BULK_ROWS)
        extra = records(40, start=BULK_ROWS)
        data = unit(len(rows) + len(extra), seed=4)
        loader.memories.insert(rows + extra)
        put(loader, rows, data, 0, len(rows))

        # Another process's small writes while the index is absent or being built.
        def write() -> None:
            for i, r in enumerate(extra):
                other.vectors.put([VectorRow(r.id, "m", data[len(rows) + i], r.content_hash)])

        writer = threading.Thread(target=write)
        writer.start()
        writer.join(120)
        assert loader.vectors.builds.wait(120)
        assert index_oid(pg_url) is not None
        search = search_of(other)
        for i, r in enumerate(extra):
            assert search.search("ns", data[len(rows) + i], 1)[0][0] == r.id
    finally:
        other.close()
        loader.close()


@pytest.mark.postgres
def test_an_index_left_missing_is_built_when_the_store_opens(pg_url: str) -> None:
    store = PostgresStore(pg_url, CONFIG)
    try:
        search_of(store)
        rows = records(50)
        data = unit(len(rows), seed=5)
        store.memories.insert(rows)
        put(store, rows, data, 0, len(rows))
    finally:
        store.close()
    # A bulk load's process that ended before its build leaves the index dropped.
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'DROP INDEX "{NAME}"')
    again = PostgresStore(pg_url, CONFIG)
    try:
        search = search_of(again)  # the model's first use in this process finds it missing
        assert again.vectors.builds.wait(120)
        assert index_oid(pg_url) is not None
        assert search.search("ns", data[7], 1)[0][0] == rows[7].id
    finally:
        again.close()

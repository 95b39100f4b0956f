"""PostgreSQL's ``memory_search`` (issue 29, round 9; migration ``028_memory_search``):
the narrow copy of the live memories' tsvectors that keyword search ranks from holds
exactly the live rows through every kind of write, inside the writing transaction too,
ranks exactly as reading ``memories`` did, and a database made before the step is
upgraded in place with every other row as it was."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.postgres import keyword
from engram.store.sql import migrations
from engram.validate import build_record
from pg_steps import undo_keyword_bm25

pytestmark = pytest.mark.postgres

#: The ranking as it read ``memories`` before the step.
FROM_MEMORIES = dataclasses.replace(
    keyword.MEMORIES,
    rows="memories m WHERE m.namespace = %s AND m.deleted_at IS NULL AND m.search @@ {term}",
    candidates="SELECT m.id, m.seq, m.search, engram_search_length(m.search) AS len "
    "FROM memories m WHERE m.namespace = %s "
    "AND m.deleted_at IS NULL AND m.search @@ ({terms})",
)

#: What ``memory_search`` should hold: the live memories' keyword columns.
LIVE = "SELECT seq, id, namespace, search::text FROM memories WHERE deleted_at IS NULL"
KEPT = "SELECT seq, id, namespace, search::text FROM memory_search"

TEXTS = [
    "Caroline paints sunsets by the lake",
    "Melanie runs a charity race for the shelter",
    "Caroline's dog chased the sunset ducks",
    "A quiet week: Melanie painted, Caroline ran",
]
TERMS = ["caroline", "sunset", "melanie", "paint"]


def rows(conn: psycopg.Connection[Any], statement: str) -> set[tuple[Any, ...]]:
    return {tuple(r) for r in conn.execute(statement)}


def in_step(url: str) -> bool:
    with psycopg.connect(url) as conn:
        return rows(conn, KEPT) == rows(conn, LIVE)


def both_rankings(url: str, namespace: str) -> tuple[list[Any], list[Any]]:
    with psycopg.connect(url) as conn:
        new = keyword.search(conn, namespace, TERMS, 100)
        old = keyword.search(conn, namespace, TERMS, 100, FROM_MEMORIES)
    return new, old


@pytest.fixture
def pg_mem(pg_url: str, config: Config) -> Iterator[Memory]:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        yield mem


def test_the_copy_follows_every_write(pg_mem: Memory, pg_url: str) -> None:
    ids = [r.id for r in pg_mem.add_many(TEXTS, namespace="a")]
    other = pg_mem.add("Caroline paints in namespace b", namespace="b").id
    assert in_step(pg_url)
    with psycopg.connect(pg_url) as conn:
        assert len(rows(conn, KEPT)) == len(TEXTS) + 1
    pg_mem.update(ids[0], content="Caroline sketches sunrises now", namespace="a")
    assert in_step(pg_url)
    pg_mem.delete(ids[1], namespace="a")  # a tombstone leaves the copy
    assert in_step(pg_url)
    pg_mem.erasure.erase(namespace="b", actor="test")  # erased rows leave it too
    assert in_step(pg_url)
    with psycopg.connect(pg_url) as conn:
        assert {r[1] for r in rows(conn, KEPT)} == {ids[0], ids[2], ids[3]}
        assert other not in {r[1] for r in rows(conn, KEPT)}
    new, old = both_rankings(pg_url, "a")
    assert new == old and {i for i, _ in new} == {ids[0], ids[2], ids[3]}


def test_a_search_in_the_writing_transaction_finds_its_rows(pg_mem: Memory) -> None:
    pg_mem.add("Caroline paints sunsets", namespace="a")
    store = pg_mem.store
    with store.transaction():
        record = build_record("Melanie paints the lake at sunset", namespace="a", max_chars=1000)
        store.memories.insert([record])
        found = {i for i, _ in store.keyword.search("a", '"melanie"', 10)}
        assert found == {record.id}
    assert {i for i, _ in store.keyword.search("a", '"melanie"', 10)} == {record.id}


def test_it_ranks_as_reading_the_memories_did(pg_mem: Memory, pg_url: str) -> None:
    # Common and rare keywords, a phrase, forgotten rows: the same ids and scores.
    texts = [f"Caroline note {i}: {TEXTS[i % len(TEXTS)]}" for i in range(60)]
    ids = [r.id for r in pg_mem.add_many(texts, namespace="a")]
    for memory_id in ids[::7]:
        pg_mem.delete(memory_id, namespace="a")
    new, old = both_rankings(pg_url, "a")
    assert new == old and len(new) > 20
    with psycopg.connect(pg_url) as conn:
        phrase = ["charity race", "caroline"]
        assert keyword.search(conn, "a", phrase, 50) == keyword.search(
            conn, "a", phrase, 50, FROM_MEMORIES
        )


def checksums(conn: psycopg.Connection[Any]) -> dict[str, str]:
    """Every table's rows, as one md5 each (``schema_migrations`` aside)."""
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
            "AND tablename NOT IN ('schema_migrations', 'memory_search', 'keyword_terms') "
            "ORDER BY 1"
        )
    ]
    out = {}
    for table in tables:
        row = conn.execute(
            psycopg.sql.SQL(
                "SELECT md5(coalesce(string_agg((to_jsonb(t) - 'search')::text, '|' "
                "ORDER BY (to_jsonb(t) - 'search')::text), '')) FROM {} t"
            ).format(psycopg.sql.Identifier(table))
        ).fetchone()
        out[table] = row[0] if row else ""
    return out


def test_an_old_database_is_upgraded_in_place(
    pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A database as the code before the step made it: every step up to 027 (and none
    # after it that changes memory_search: 032), filled through the library, with a
    # forgotten memory.
    later = ("028_memory_search", "032_keyword_bm25")
    before_step = tuple(s for s in migrations.STEPS if s.postgres not in later)
    assert len(before_step) == len(migrations.STEPS) - 2
    with psycopg.connect(pg_url, autocommit=True) as conn:
        undo_keyword_bm25(conn)
        conn.execute("DROP TABLE memory_search")
        conn.execute("DROP FUNCTION engram_memory_search_sync CASCADE")
        conn.execute("DELETE FROM schema_migrations WHERE name = '028_memory_search'")
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "STEPS", before_step)
        with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
            ids = [r.id for r in mem.add_many(TEXTS, namespace="a")]
            mem.delete(ids[1], namespace="a")
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('memory_search')").fetchone() == (None,)
        before = checksums(conn)
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        assert {i for i, _ in mem.store.keyword.search("a", '"caroline"', 10)} == {
            ids[0],
            ids[2],
            ids[3],
        }
    with psycopg.connect(pg_url) as conn:
        assert conn.execute(
            "SELECT count(*) FROM schema_migrations WHERE name = '028_memory_search'"
        ).fetchone() == (1,)
        assert checksums(conn) == before
        ranked = keyword.search(conn, "a", TERMS, 100, FROM_MEMORIES)
        assert keyword.search(conn, "a", TERMS, 100) == ranked
    assert in_step(pg_url)

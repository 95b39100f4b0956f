"""The suite's reset of the shared PostgreSQL database between tests (tests/pgserver.py):
every table empty and every id sequence restarted, while a table no test wrote to keeps
its files (a TRUNCATE makes new ones, the cost the reset avoids)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from conftest import HashEmbedder, record_battery
from engram import Config, Memory
from pgserver import PgServer

pytestmark = pytest.mark.postgres


@pytest.fixture
def database(pg_server: PgServer) -> Iterator[tuple[str, str]]:
    """A migrated database of its own (name, URL), dropped afterwards."""
    name = pg_server.create_database()
    yield name, pg_server.database_url(name)
    pg_server.drop_database(name)


def files(url: str) -> dict[str, int]:
    """Each engram table's file number (a TRUNCATE gives it a new one)."""
    with psycopg.connect(url) as conn:
        found = conn.execute(
            "SELECT c.relname, c.relfilenode FROM pg_class c JOIN pg_tables t "
            "ON t.tablename = c.relname AND t.schemaname = 'public'"
        )
        return {str(name): int(node) for name, node in found}


def counts(url: str) -> dict[str, int]:
    """Rows per table, except the two the reset keeps (migrations, meta counters)."""
    with psycopg.connect(url) as conn:
        tables = [
            str(r[0])
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename NOT IN ('schema_migrations', 'engram_meta')"
            )
        ]
        return {t: int(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]) for t in tables}  # noqa: S608


def test_a_reset_empties_what_a_test_wrote_and_restarts_its_ids(
    pg_server: PgServer, database: tuple[str, str], config: Config
) -> None:
    name, url = database
    with Memory(url, config=config, embedder=HashEmbedder()) as mem:
        first = mem.add("Derek's efoil has a 12V20Ah battery")
        later = mem.add("The efoil now has a 48V battery")
        record_battery(mem, first.id, later.id)
        mem.keys.create("alice")
        mem.delete(later.id)
    written = {t for t, n in counts(url).items() if n}
    assert {"memories", "memory_vectors", "memory_history", "api_keys"} <= written
    pg_server.reset(name)
    assert not any(counts(url).values())
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT DISTINCT value FROM engram_meta").fetchall() in ([], [(0,)])
        used = conn.execute(
            "SELECT sequencename FROM pg_sequences "
            "WHERE schemaname = 'public' AND last_value IS NOT NULL"
        ).fetchall()
        assert used == []
    with Memory(url, config=config, embedder=HashEmbedder()) as mem:
        mem.add("A first memory again")
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT seq FROM memories").fetchall() == [(1,)]


def test_a_reset_of_a_database_nobody_wrote_to_truncates_nothing(
    pg_server: PgServer, database: tuple[str, str], config: Config
) -> None:
    name, url = database
    before = files(url)
    pg_server.reset(name)
    assert files(url) == before
    # ... while a table a test wrote to is truncated (new files), with those that
    # reference it.
    with Memory(url, config=config, embedder=HashEmbedder()) as mem:
        mem.keys.create("alice")
    pg_server.reset(name)
    after = files(url)
    assert after["api_keys"] != before["api_keys"]
    assert after["memories"] == before["memories"]

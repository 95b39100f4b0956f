"""The PostgreSQL pool's check of a connection leaving it (``db.check_idle``): no round
trip for a live idle connection, and a connection the server ended is replaced before
a read uses it."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from engram.config import PostgresConfig
from engram.store.postgres import PostgresStore
from engram.store.postgres.db import check_idle

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(pg_url: str) -> Iterator[PostgresStore]:
    s = PostgresStore(pg_url, PostgresConfig(pool_min_size=1, pool_max_size=1))
    yield s
    s.close()


def backends(url: str) -> list[int]:
    """The pids of the other idle connections to the test database."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state = 'idle'"
        ).fetchall()
    return [int(r[0]) for r in rows]


def test_only_a_connection_with_something_to_read_gets_the_query(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    queried: list[object] = []
    monkeypatch.setattr(ConnectionPool, "check_connection", queried.append)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("SELECT 1")
        check_idle(conn)  # live and idle: nothing to read, no round trip
        assert queried == []
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s, 10000)", (conn.info.backend_pid,))
        check_idle(conn)  # the server's goodbye is waiting: the real check runs
        assert queried == [conn]


def test_a_connection_the_server_ended_is_replaced(store: PostgresStore, pg_url: str) -> None:
    store.memories.count("ns")  # the pool's one connection is now idle in the pool
    pids = backends(pg_url)
    assert pids
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for pid in pids:  # wait until each has exited
            conn.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
    assert store.memories.count("ns") == 0  # a fresh connection answers


def test_a_closed_connection_fails_the_check(pg_url: str) -> None:
    conn = psycopg.connect(pg_url, autocommit=True)
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        check_idle(conn)

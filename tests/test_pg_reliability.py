"""PostgreSQL under contention and restarts (engram issue 26, items 4 and 5).

A vector write and the background filler once deadlocked (the vector row, then the
epoch row, against the epoch row, then that vector row); a connection the server ended
gave 500 ``store_error`` instead of 503 ``store_disconnected``. The figures of the load
runs are in docs/reliability.md ("PostgreSQL under load"); these are the deterministic
small versions.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import psycopg
import pytest
from fastapi.testclient import TestClient

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api.app import create_app
from engram.errors import StoreBusyError, StoreConnectionError
from engram.store import VectorRow
from engram.store.postgres import PostgresStore
from engram.store.sql.session import TX_ATTEMPTS, Sql, retried

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_mem(pg_url: str, config: Config) -> Iterator[Memory]:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as m:
        yield m


def _wait_for_lock_waiter(url: str, timeout: float = 10.0) -> int:
    """The pid of the one backend of this database waiting on a lock."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            ).fetchone()
            if row is not None:
                return int(row[0])
            time.sleep(0.02)
    raise AssertionError("no backend started waiting on a lock")


def _in_thread(target: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = target()
        except Exception as exc:  # handed to the test
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


# -- item 4: one lock order, and a bounded re-run ---------------------------------------


def test_a_vector_write_and_the_filler_take_locks_in_one_order(pg_mem: Memory, pg_url: str) -> None:
    """The filler's old order (the epoch, by its first vector's trigger, then the next
    memory's vector row) against a request's vector write of that same memory: on the
    old code the write held the new vector row and waited for the epoch, and PostgreSQL
    aborted one of them with ``deadlock detected``."""
    first = pg_mem.add("the first memory the filler embeds", user_id="u")
    second = pg_mem.add("the memory a request and the filler both embed", user_id="u")
    pg_mem.store.vectors.delete()  # both wait for the filler, as after a bulk import
    embedder = HashEmbedder()
    model, dim = embedder.name, embedder.dimension
    vector = np.ones(dim, np.float32) / np.sqrt(dim)
    filler = psycopg.connect(pg_url)
    try:
        # The filler's transaction: its first vector row bumps the epoch (row locked).
        filler.execute(
            "INSERT INTO memory_vectors(memory_id, namespace, model, dim, content_hash, live, "
            "embedding) SELECT id, namespace, %s, %s, content_hash, true, %s::real[]::vector "
            "FROM memories WHERE id = %s ON CONFLICT (memory_id) DO UPDATE "
            "SET embedding = excluded.embedding",
            (model, dim, vector.tolist(), first.id),
        )
        row = VectorRow(second.id, model, vector, second.content_hash)
        thread, out = _in_thread(lambda: pg_mem.store.vectors.put([row]))
        _wait_for_lock_waiter(pg_url)  # the request's write now waits behind the filler
        # The filler goes on to the second memory, as its batch does.
        filler.execute(
            "INSERT INTO memory_vectors(memory_id, namespace, model, dim, content_hash, live, "
            "embedding) SELECT id, namespace, %s, %s, content_hash, true, %s::real[]::vector "
            "FROM memories WHERE id = %s ON CONFLICT (memory_id) DO UPDATE "
            "SET embedding = excluded.embedding",
            (model, dim, vector.tolist(), second.id),
        )
        filler.commit()
    finally:
        filler.close()
    thread.join(30)
    assert "error" not in out, out.get("error")
    assert pg_mem.get(second.id, user_id="u").embedding_model == model


def test_a_deadlocked_transaction_is_a_store_busy_error_and_its_rerun_succeeds(
    pg_url: str,
) -> None:
    """Two transactions lock two rows in opposite orders: PostgreSQL aborts one
    (40P01). Alone it is ``StoreBusyError`` (503 ``store_busy``); through ``Sql.run``
    the aborted one is run again once the other committed, and both succeed."""
    store = PostgresStore(pg_url)
    try:
        sql: Sql = store._sql
        with sql.tx() as conn:
            conn.execute("INSERT INTO engram_meta(key, value) VALUES ('a', 0), ('b', 0)")

        def opposite(run: bool) -> list[Any]:
            barrier = threading.Barrier(2)
            tries: list[int] = []

            def body(first: str, second: str) -> Callable[[Any], None]:
                def locks(conn: Any) -> None:
                    tries.append(1)
                    conn.execute("UPDATE engram_meta SET value = value + 1 WHERE key = ?", (first,))
                    if len(tries) <= 2:  # only the first runs meet at the barrier
                        barrier.wait(10)
                    conn.execute(
                        "UPDATE engram_meta SET value = value + 1 WHERE key = ?", (second,)
                    )

                return locks

            def once(first: str, second: str) -> None:
                if run:
                    sql.run(body(first, second))
                else:
                    with sql.tx() as conn:
                        body(first, second)(conn)

            threads = [_in_thread(lambda f=f, s=s: once(f, s)) for f, s in (("a", "b"), ("b", "a"))]
            for thread, _ in threads:
                thread.join(30)
            return [out.get("error") for _, out in threads] + [len(tries)]

        *errors, _ = opposite(run=False)
        assert sum(isinstance(e, StoreBusyError) for e in errors) == 1, errors
        assert all(e is None or isinstance(e, StoreBusyError) for e in errors)
        *errors, tries = opposite(run=True)
        assert errors == [None, None]
        # the aborted one ran again (3); under load a rerun can be aborted once more
        # before the other commits (CI read 4 at load 11), and still both succeed
        assert tries >= 3
        with sql.read() as conn:
            values = conn.execute("SELECT value FROM engram_meta WHERE key IN ('a', 'b')")
            assert [r[0] for r in values.fetchall()] == [3, 3]  # 1 + 2 runs that committed
    finally:
        store.close()


def test_retried_is_bounded_and_never_reruns_inside_an_outer_transaction() -> None:
    calls: list[int] = []

    def busy() -> None:
        calls.append(1)
        raise StoreBusyError("deadlock detected")

    with pytest.raises(StoreBusyError):
        retried(busy, nested=False)
    assert len(calls) == TX_ATTEMPTS
    calls.clear()
    with pytest.raises(StoreBusyError):
        retried(busy, nested=True)
    assert len(calls) == 1


# -- item 5: connection loss is 503 store_disconnected ----------------------------------


def _terminate_the_waiter(url: str) -> None:
    pid = _wait_for_lock_waiter(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_write_whose_connection_the_server_ends_is_store_connection_error(
    pg_mem: Memory, pg_url: str
) -> None:
    """A restart ends every backend (``AdminShutdown``, 57P01), as
    ``pg_terminate_backend`` does: the write in flight is ``StoreConnectionError``, and
    the next one succeeds on a fresh connection."""
    blocker = psycopg.connect(pg_url)
    try:
        blocker.execute("LOCK TABLE memories IN EXCLUSIVE MODE")
        thread, out = _in_thread(lambda: pg_mem.add("written while the server restarts"))
        _terminate_the_waiter(pg_url)
        thread.join(30)
    finally:
        blocker.rollback()
        blocker.close()
    assert isinstance(out.get("error"), StoreConnectionError), out
    assert "written while" not in [r.content for r in pg_mem.get_all()]
    again = pg_mem.add("written after the server is back")
    assert pg_mem.get(again.id).content == "written after the server is back"


def test_the_http_api_answers_503_store_disconnected_when_the_connection_is_lost(
    pg_mem: Memory, pg_url: str
) -> None:
    with TestClient(create_app(pg_mem, auth=False, mcp=False, worker=False)) as client:
        blocker = psycopg.connect(pg_url)
        try:
            blocker.execute("LOCK TABLE memories IN EXCLUSIVE MODE")
            thread, out = _in_thread(
                lambda: client.post("/v1/memories", json={"content": "lost", "user_id": "u"})
            )
            _terminate_the_waiter(pg_url)
            thread.join(30)
        finally:
            blocker.rollback()
            blocker.close()
        response = out["value"]
        assert response.status_code == 503, response.text
        assert response.json()["error"] == "store_disconnected"
        ok = client.post("/v1/memories", json={"content": "back", "user_id": "u"})
        assert ok.status_code == 201, ok.text

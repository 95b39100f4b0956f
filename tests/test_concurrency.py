"""Many processes on one store at once: first opens that race to migrate, and writers.

A store is often opened by several processes at the same moment (an MCP server per
agent, a CLI, the HTTP API), and the very first opens of a new file all find it
unmigrated. Each test here starts its processes once (``spawn``, so nothing is inherited
from pytest's process) and lines them up on a barrier before every round, so the opens
and writes really overlap. Bigger numbers: ``scripts/reliability_concurrency.py``
(docs/reliability.md).
"""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
import threading
import time
import traceback
from collections import Counter
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from engram import Config, Memory, StoreError
from engram.store.sql import migrations
from engram.store.sqlite import fts
from engram.store.sqlite.db import Database
from engram.store.sqlite.dialect import SQLITE
from hashembed import HashEmbedder

# Each spawned process imports this module to find its target, so it must not import
# conftest (FastAPI, MCP, UMAP: 9.8 s of CPU against 1.7 s for engram and hashembed,
# twelve processes a run); the tests take ``schema_problems`` from it when they run.


def schema_problems(path: Path) -> list[str]:
    """conftest's ``schema_problems``, imported in the test's process only."""
    from conftest import schema_problems as problems

    return problems(path)


if TYPE_CHECKING:
    from pgserver import PgServer

PROCESSES = 8
ROUNDS = 50
#: A round waits this long at most for the others; a hung opener fails the test.
BARRIER_TIMEOUT = 60.0


def _first_opener(
    worker: int, paths: list[str], home: str, barrier: Barrier, results: Queue[Any]
) -> None:
    """Open each new file together with the other workers; report (round, error)."""
    config = Config.load(env={}, home=home)
    for round_, path in enumerate(paths):
        try:
            barrier.wait(BARRIER_TIMEOUT)
        except threading.BrokenBarrierError:
            results.put((worker, round_, "barrier broken: another opener hung or died"))
            return
        error = None
        try:
            Memory(path, config=config, embedder=None).close()
        except Exception:
            error = traceback.format_exc(limit=1).strip().splitlines()[-1].replace(path, "<file>")
        results.put((worker, round_, error))


def _writer(
    worker: int, path: str, home: str, count: int, barrier: Barrier, results: Queue[Any]
) -> None:
    """Add ``count`` memories after the barrier; report each acknowledged id."""
    config = Config.load(env={}, home=home)
    acknowledged: list[str] = []
    error = None
    try:
        with Memory(path, config=config, embedder=HashEmbedder()) as mem:
            barrier.wait(BARRIER_TIMEOUT)
            for i in range(count):
                acknowledged.append(mem.add(f"worker {worker} note {i}", user_id="w").id)
    except Exception:
        error = traceback.format_exc(limit=1).strip().splitlines()[-1]
    results.put((worker, acknowledged, error))


def _run(target: Any, argsets: list[tuple[Any, ...]], expect: int) -> list[Any]:
    """Start one spawned process per argument set (each gets the shared barrier and
    result queue last), collect ``expect`` results and join them."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(len(argsets))
    results: Queue[Any] = ctx.Queue()
    procs = [ctx.Process(target=target, args=(*a, barrier, results)) for a in argsets]
    for p in procs:
        p.start()
    try:
        out = [results.get(timeout=BARRIER_TIMEOUT * 2) for _ in range(expect)]
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():  # only after a failure above: do not leave it behind
                p.kill()
    assert [p.exitcode for p in procs] == [0] * len(procs)
    return out


def test_concurrent_first_opens_of_a_new_file_all_succeed(tmp_path: Path) -> None:
    """8 processes open the same new file at once, 50 times (a new file each round).

    Before migrations re-checked ``schema_migrations`` inside their own ``BEGIN
    IMMEDIATE``, two openers both applied 001 and the second failed with
    ``MigrationError``, and openers that met another's write lock while switching the
    new file to WAL failed with "database is locked": a median of 106 of these 400 opens
    failed here (5 runs; docs/reliability.md).
    """
    paths = [str(tmp_path / f"round-{r}" / "engram.db") for r in range(ROUNDS)]
    home = str(tmp_path / "home")
    results = _run(_first_opener, [(w, paths, home) for w in range(PROCESSES)], PROCESSES * ROUNDS)
    failures = Counter(error for _, _, error in results if error is not None)
    assert not failures, f"{sum(failures.values())} of {len(results)} opens failed: {failures}"
    broken = {p: problems for p in paths if (problems := schema_problems(Path(p)))}
    assert not broken


def test_a_migration_another_opener_applied_meanwhile_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race, made deterministic: ``migrate`` read the applied set when the file was
    new, and another process then applied everything before this one got the lock."""
    path = tmp_path / "engram.db"
    Memory(path, config=Config.load(env={}, home=str(tmp_path / "home")), embedder=None).close()
    monkeypatch.setattr(migrations, "applied", lambda conn, d: [])  # the stale first read
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrations.migrate(conn, SQLITE) == []
    finally:
        conn.close()
    assert schema_problems(path) == []


def test_switching_a_new_file_to_wal_waits_for_another_openers_lock(tmp_path: Path) -> None:
    """SQLite answers the WAL switch with SQLITE_BUSY at once (no busy handler) while
    another connection holds the write lock; the open waits for it instead of failing."""
    path = tmp_path / "engram.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE scratch (x)")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        Database(path, busy_timeout_ms=5000).close()
    finally:
        release.join()
        other.close()
    assert schema_problems(path) == []


def test_the_wal_switch_gives_up_after_the_busy_timeout(tmp_path: Path) -> None:
    """A lock that outlasts the busy timeout still fails the open, with a clear error."""
    path = tmp_path / "engram.db"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE scratch (x)")
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="locked"):
            Database(path, busy_timeout_ms=200)
        # Hang guard: 0.2 s quiet (25x); a switch that ignored busy_timeout_ms would
        # wait the 5 s default and fail.
        assert time.monotonic() - started < 5
    finally:
        other.close()


def test_concurrent_writers_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    """4 processes add 50 memories each (and their vectors) to one file at once: every
    acknowledged write is there exactly once with its vector, and the file and its
    keyword indexes are intact."""
    path, home, writers, count = str(tmp_path / "engram.db"), str(tmp_path / "home"), 4, 50
    Memory(path, config=Config.load(env={}, home=home), embedder=None).close()
    results = _run(_writer, [(w, path, home, count) for w in range(writers)], writers)
    assert [error for _, _, error in results] == [None] * writers
    acknowledged = [mid for _, ids, _ in results for mid in ids]
    assert len(acknowledged) == writers * count
    with Memory(path, config=Config.load(env={}, home=home), embedder=None) as mem:
        stored = [r.id for r in mem.get_all(user_id="w", limit=10_000)]
        conn = mem.store._db.conn  # type: ignore[attr-defined]
        vectors = conn.execute("SELECT count(*) FROM memory_vectors").fetchone()[0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        fts.integrity_check(conn)  # raises if a keyword index is damaged
    assert sorted(stored) == sorted(acknowledged)
    assert len(set(stored)) == len(stored)
    assert vectors == len(acknowledged)


def _open_together(url: str, openers: int) -> list[BaseException]:
    """``openers`` threads open ``url`` at once (psycopg releases the GIL while it waits
    on the server, so they really race); what they raised."""
    from engram.store.postgres import PostgresStore  # psycopg: only where PG tests run

    barrier = threading.Barrier(openers)
    errors: list[BaseException] = []

    def open_once() -> None:
        barrier.wait(BARRIER_TIMEOUT)
        try:
            PostgresStore(url).close()
        except BaseException as exc:  # collected, reported by the caller's assertion
            errors.append(exc)

    threads = [threading.Thread(target=open_once) for _ in range(openers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(BARRIER_TIMEOUT * 2)
    return errors


@pytest.mark.postgres
def test_concurrent_first_opens_of_a_new_postgres_database(pg_server: PgServer) -> None:
    """8 threads open one new PostgreSQL database at once, 3 rounds: the advisory lock
    makes one of them migrate, and the rest read the applied set after taking the lock
    and find the work done. (Without the lock, or with the applied set read before taking
    it, 35 of 40 opens in 5 such rounds failed here.)"""
    import psycopg

    from engram.store.postgres.dialect import POSTGRES

    names = [n for n, _ in migrations.named(POSTGRES)]
    for _ in range(3):
        name = pg_server.create_database(migrated=False)
        url = pg_server.database_url(name)
        try:
            assert _open_together(url, PROCESSES) == []
            with psycopg.connect(url) as conn:
                rows = conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()
            assert [r[0] for r in rows] == names
        finally:
            pg_server.drop_database(name)

"""Many processes on one store at once, with bigger numbers than tests/test_concurrency.py
(docs/reliability.md).

``first-open``: P processes, lined up on a barrier, open one new SQLite file at once
(``Memory(path)``, which creates and migrates it); a new file each round. Counts the
opens that failed and checks every file ends fully migrated, in WAL mode and intact.

``writers``: P processes, lined up on a barrier, each add W memories (with vectors from a
hashed bag-of-words embedder) to one store at once. Counts acknowledged writes (``add``
returned) that are missing afterwards, duplicates, vectors, and on SQLite
``PRAGMA integrity_check``, FTS5's integrity check and whether every live memory is in
its namespace's keyword index. ``--postgres`` runs the same against PostgreSQL (a URL,
or ``auto`` to start a throwaway server with tests/pgserver.py).

    .venv/bin/python scripts/reliability_concurrency.py first-open --processes 8 --rounds 200
    .venv/bin/python scripts/reliability_concurrency.py writers --processes 8 --writes 250
    .venv/bin/python scripts/reliability_concurrency.py writers --postgres auto

Prints one JSON object per run. To measure the code before a fix, put that version of
``src`` first on the path: ``PYTHONPATH=/tmp/before/src .venv/bin/python scripts/...``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

from engram import Config, Memory

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' embedder and schema check
from conftest import HashEmbedder as TestHash  # noqa: E402
from conftest import schema_problems  # noqa: E402

BARRIER_TIMEOUT = 120.0


class HashEmbedder(TestHash):
    """The tests' hashed bag of words: measures the store, not a model."""

    name = "reliability-hash"


def _last_line(location: str) -> str:
    """The exception line of the current traceback, without the store's location."""
    return traceback.format_exc(limit=1).strip().splitlines()[-1].replace(location, "<store>")


# -- first open -------------------------------------------------------------------------
def _first_opener(paths: list[str], home: str, barrier: Barrier, results: Queue[Any]) -> None:
    config = Config.load(env={}, home=home)
    for path in paths:
        try:
            barrier.wait(BARRIER_TIMEOUT)
        except threading.BrokenBarrierError:
            results.put("barrier broken: another opener hung or died")
            return
        error = None
        started = time.perf_counter()
        try:
            Memory(path, config=config, embedder=None).close()
        except Exception:
            error = _last_line(path)
        results.put((error, time.perf_counter() - started))


def first_open(processes: int, rounds: int) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="engram-first-open-") as tmp:
        paths = [f"{tmp}/round-{r}/engram.db" for r in range(rounds)]
        barrier = ctx.Barrier(processes)
        results: Queue[Any] = ctx.Queue()
        started = time.perf_counter()
        procs = _start(ctx, _first_opener, [(paths, f"{tmp}/home", barrier, results)] * processes)
        out = [results.get(timeout=BARRIER_TIMEOUT * 2) for _ in range(processes * rounds)]
        exit_codes = _join(procs)
        seconds = time.perf_counter() - started
        errors: Counter[str] = Counter(
            r if isinstance(r, str) else r[0] for r in out if isinstance(r, str) or r[0]
        )
        opened = [r[1] for r in out if not isinstance(r, str) and r[0] is None]
        kinds: Counter[str] = Counter()
        for error, n in errors.items():
            kinds[error.split(":")[0] + (" (database is locked)" if "locked" in error else "")] += n
        broken = sum(1 for p in paths if Path(p).exists() and schema_problems(p))
    return {
        "test": "first-open",
        "processes": processes,
        "rounds": rounds,
        "opens": processes * rounds,
        "failed": sum(errors.values()),
        "incomplete_schemas": broken,
        "open_seconds_median": round(statistics.median(opened), 4) if opened else None,
        "open_seconds_max": round(max(opened), 4) if opened else None,
        "seconds": round(seconds, 1),
        "failed_by_kind": dict(kinds.most_common()),
        "errors": dict(errors.most_common()),
        "exit_codes": exit_codes,
    }


# -- writers ----------------------------------------------------------------------------
def _writer(
    worker: int, location: str, home: str, count: int, barrier: Barrier, results: Queue[Any]
) -> None:
    config = Config.load(env={}, home=home)
    acknowledged: list[str] = []
    error = None
    started = time.perf_counter()
    try:
        with Memory(location, config=config, embedder=HashEmbedder()) as mem:
            barrier.wait(BARRIER_TIMEOUT)
            started = time.perf_counter()
            for i in range(count):
                text = f"writer {worker} wrote note {i} about subject {i % 17}"
                acknowledged.append(mem.add(text, user_id="writers").id)
    except Exception:
        error = _last_line(location)
    results.put((acknowledged, error, time.perf_counter() - started if acknowledged else 0.0))


def _sqlite_checks(mem: Memory) -> dict[str, Any]:
    from engram.store.sqlite import fts

    conn: sqlite3.Connection = mem.store._db.conn  # type: ignore[attr-defined]
    fts_error = None
    try:
        fts.integrity_check(conn)
    except sqlite3.Error as exc:
        fts_error = str(exc)
    return {
        "integrity_check": conn.execute("PRAGMA integrity_check").fetchone()[0],
        "fts_integrity_check": fts_error or "ok",
        "fts_index_mismatches": fts_index_mismatches(conn),
    }


def fts_index_mismatches(conn: sqlite3.Connection) -> int:
    """Live memories missing from their namespace's keyword index, plus index entries of
    rows that are not live memories of that namespace (FTS5's own integrity check does not
    compare an external-content index with its table)."""
    bad = 0
    for ident, namespace in conn.execute("SELECT id, namespace FROM fts_namespaces").fetchall():
        live = {
            r[0]
            for r in conn.execute(
                "SELECT seq FROM memories WHERE namespace = ? AND deleted_at IS NULL",
                (namespace,),
            )
        }
        indexed = {r[0] for r in conn.execute(f"SELECT id FROM fts_{int(ident)}_docsize")}
        bad += len(live ^ indexed)
    return bad


def all_ids(mem: Memory, user_id: str) -> list[str]:
    """Ids of every live memory of ``user_id``, page by page."""
    ids: list[str] = []
    while page := mem.get_all(user_id=user_id, limit=10_000, offset=len(ids)):
        ids += [r.id for r in page]
    return ids


def writers(processes: int, writes: int, location: str | None) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="engram-writers-") as tmp:
        home = f"{tmp}/home"
        where = location or f"{tmp}/engram.db"
        config = Config.load(env={}, home=home)
        Memory(where, config=config, embedder=HashEmbedder()).close()  # created, migrated
        barrier = ctx.Barrier(processes)
        results: Queue[Any] = ctx.Queue()
        started = time.perf_counter()
        procs = _start(
            ctx,
            _writer,
            [(w, where, home, writes, barrier, results) for w in range(processes)],
        )
        out = [results.get(timeout=BARRIER_TIMEOUT * 10) for _ in range(processes)]
        exit_codes = _join(procs)
        seconds = time.perf_counter() - started
        acknowledged = [mid for ids, _, _ in out for mid in ids]
        errors = Counter(error for _, error, _ in out if error is not None)
        # From the barrier to the last writer's last acknowledged add: process start and
        # imports are left out.
        writing = max(elapsed for _, _, elapsed in out)
        with Memory(where, config=config, embedder=HashEmbedder()) as mem:
            stored = all_ids(mem, "writers")
            vectors = len(mem.store.vectors.load("user:writers", HashEmbedder.name).ids)
            checks = _sqlite_checks(mem) if location is None else {}
    return {
        "test": "writers",
        "backend": "postgres" if location else "sqlite",
        "processes": processes,
        "writes_per_process": writes,
        "acknowledged": len(acknowledged),
        "stored": len(stored),
        "lost": len(set(acknowledged) - set(stored)),
        "duplicates": len(stored) - len(set(stored)) + len(acknowledged) - len(set(acknowledged)),
        "vectors": vectors,
        **checks,
        "failed_writers": dict(errors),
        "exit_codes": exit_codes,
        "seconds": round(seconds, 1),
        "writing_seconds": round(writing, 2),
        "writes_per_second": round(len(acknowledged) / writing, 1) if writing else 0.0,
    }


def _start(ctx: Any, target: Callable[..., None], argsets: list[tuple[Any, ...]]) -> list[Any]:
    """One started process per argument set; their results arrive on their queue."""
    procs = [ctx.Process(target=target, args=args) for args in argsets]
    for p in procs:
        p.start()
    return procs


def _join(procs: list[Any]) -> list[int | None]:
    """Exit codes, once the queue is drained (a child that put data on a queue does not
    exit before it is read)."""
    for p in procs:
        p.join(timeout=60)
    return [p.exitcode for p in procs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="test", required=True)
    fo = sub.add_parser("first-open", help="P processes open one new file at once, R rounds")
    fo.add_argument("--processes", type=int, default=8)
    fo.add_argument("--rounds", type=int, default=200)
    fo.add_argument("--runs", type=int, default=1, help="repeat, and report the median")
    wr = sub.add_parser("writers", help="P processes add W memories each to one store")
    wr.add_argument("--processes", type=int, default=8)
    wr.add_argument("--writes", type=int, default=250)
    wr.add_argument("--runs", type=int, default=1, help="repeat, and report the median")
    wr.add_argument("--postgres", help="a postgresql:// URL, or 'auto' to start a server")
    args = parser.parse_args()

    server = None
    runs: list[dict[str, Any]] = []
    try:
        for _ in range(args.runs):
            if args.test == "first-open":
                result = first_open(args.processes, args.rounds)
            else:
                location = args.postgres
                if location == "auto":
                    from pgserver import PgServer

                    server = server or PgServer.start(durable=True)
                    location = server.database_url(server.create_database())
                result = writers(args.processes, args.writes, location)
            runs.append(result)
            print(json.dumps(result), flush=True)
    finally:
        if server is not None:
            server.stop()
    if len(runs) > 1:
        key = "failed" if args.test == "first-open" else "writes_per_second"
        values = [r[key] for r in runs]
        print(json.dumps({"runs": len(runs), f"{key}_each": values,
                          f"{key}_median": statistics.median(values)}))  # fmt: skip


if __name__ == "__main__":
    main()

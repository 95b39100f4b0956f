"""Round trips per memory of ``add_many`` without the model on PostgreSQL (issue 29,
pgadd26), and its rate: the scale harness's N composed texts (``compose_corpus``) added
to a new database, every statement psycopg sends counted by kind. Runs under whichever
checkout's ``src`` is first on ``PYTHONPATH``; ``ENGRAM_BENCH_SERVER`` is the server (a
URL ending in ``/``), or pass a SQLite path as the database to time SQLite (its CPU
seconds; no statement counts there).

    PYTHONPATH=src python scripts/pgadd26_trips.py 2000 trips_new [--by-kind]
    PYTHONPATH=src python scripts/pgadd26_trips.py 20000 /tmp/pgadd26-work/s20k.db

A statement is one ``execute``, one ``executemany`` (psycopg sends its rows in one
pipeline: one wait for the server), one ``COPY``, and each transaction's ``BEGIN`` and
``COMMIT`` (or savepoint and its release).
"""

from __future__ import annotations

import collections
import json
import os
import re
import resource
import sys
import time
from pathlib import Path
from typing import Any

from engram import Config, Memory
from engram.bench.scale import base_vectors, compose_corpus, locomo_turns_and_questions

SERVER = os.environ.get("ENGRAM_BENCH_SERVER", "postgresql://postgres@127.0.0.1:55654/")
LOCOMO = Path("/work/shared/bench/locomo/locomo10_dev.json")
counts: collections.Counter[str] = collections.Counter()
#: Seconds spent waiting in ``execute`` per statement text (``--by-kind``).
waited: collections.Counter[str] = collections.Counter()
counting = False


def kind(sql: Any) -> str:
    """A statement's verb and first table, as the count's key."""
    text = sql if isinstance(sql, str) else str(getattr(sql, "_obj", sql))
    words = re.sub(r"\s+", " ", text.strip()).split(" ")
    verb = words[0].upper()
    table = ""
    for marker in ("INTO", "FROM", "UPDATE"):
        if marker in (w.upper() for w in words):
            at = [w.upper() for w in words].index(marker)
            table = words[at + 1] if marker != "UPDATE" or verb == "UPDATE" else words[1]
            break
    if verb == "UPDATE":
        table = words[1]
    return f"{verb} {table}".strip()


def patch() -> None:
    """Count every statement psycopg sends while ``counting``."""
    import psycopg

    execute, executemany, copy = (
        psycopg.Cursor.execute,
        psycopg.Cursor.executemany,
        psycopg.Cursor.copy,
    )
    enter, leave = psycopg.Transaction.__enter__, psycopg.Transaction.__exit__

    def counted_execute(self: Any, query: Any, *a: Any, **k: Any) -> Any:
        if not counting:
            return execute(self, query, *a, **k)
        counts[kind(query)] += 1
        began = time.perf_counter()
        try:
            return execute(self, query, *a, **k)
        finally:
            text = query if isinstance(query, str) else str(query)
            waited[re.sub(r"\s+", " ", text)[:160]] += time.perf_counter() - began

    def counted_many(self: Any, query: Any, *a: Any, **k: Any) -> Any:
        if not counting:
            return executemany(self, query, *a, **k)
        counts["many " + kind(query)] += 1
        began = time.perf_counter()
        try:
            return executemany(self, query, *a, **k)
        finally:
            waited["many " + kind(query)] += time.perf_counter() - began

    def counted_copy(self: Any, query: Any, *a: Any, **k: Any) -> Any:
        if counting:
            counts["COPY"] += 1
        return copy(self, query, *a, **k)

    def counted_enter(self: Any) -> Any:
        if counting:
            counts["BEGIN/SAVEPOINT"] += 1
        return enter(self)

    def counted_leave(self: Any, *a: Any) -> Any:
        if not counting:
            return leave(self, *a)
        counts["COMMIT/RELEASE"] += 1
        began = time.perf_counter()
        try:
            return leave(self, *a)
        finally:
            waited["COMMIT/RELEASE"] += time.perf_counter() - began

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_many  # type: ignore[method-assign]
    psycopg.Cursor.copy = counted_copy  # type: ignore[method-assign]
    psycopg.Transaction.__enter__ = counted_enter  # type: ignore[method-assign]
    psycopg.Transaction.__exit__ = counted_leave  # type: ignore[method-assign]


def main() -> None:
    global counting
    n, name = int(sys.argv[1]), sys.argv[2]
    by_kind = "--by-kind" in sys.argv
    config = Config.load()
    turns, _ = locomo_turns_and_questions(LOCOMO)
    vectors = base_vectors(config, turns, config.home_path / "bench-cache")
    texts = compose_corpus(turns, vectors, n)[0]
    sqlite = name.endswith(".db")
    if sqlite:
        for suffix in ("", "-wal", "-shm"):
            Path(name + suffix).unlink(missing_ok=True)
        url = name
    else:
        import psycopg

        with psycopg.connect(SERVER + "postgres", autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            c.execute(f"CREATE DATABASE {name}")
        url = SERVER + name
        patch()
    with Memory(url, config=config, embedder=None) as mem:
        counting = True
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        began = time.perf_counter()
        mem.add_many(texts, namespace="scale")
        seconds = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_SELF)
        counting = False
    total = sum(counts.values())
    out: dict[str, Any] = {
        "n": n,
        "db": name,
        "src": __import__("engram").__file__,
        "load": round(os.getloadavg()[0], 2),
        "add_s": round(seconds, 2),
        "add_per_s": round(n / seconds, 1),
        "cpu_s": round(after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime, 2),
    }
    if not sqlite:
        out["statements"] = total
        out["per_memory"] = round(total / n, 2)
        if by_kind:
            out["by_kind"] = {k: round(v / n, 3) for k, v in counts.most_common()}
            out["slowest"] = {k: round(v, 2) for k, v in waited.most_common(12)}
            out["waited_s"] = round(sum(waited.values()), 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""The run log and its memory hits in the SQLite store (seed 000's ``RunTrace``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.errors import StoreError
from engram.store.protocols.runs import Run, RunHit
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

_LISTED = (
    "namespace, run_id, task, task_type, status, score, tokens_in, tokens_out, {output}, "
    "output_chars, output_path, issues, metadata, started_at, finished_at, created_at, "
    "updated_at"
)
_FULL = _LISTED.format(output="output")
_LIST = _LISTED.format(output="NULL")
_HIT = "run_id, namespace, memory_id, rank, score, title, at"


def _run(row: Sequence[Any]) -> Run:
    return Run(
        namespace=row[0],
        run_id=row[1],
        task=row[2],
        task_type=row[3],
        status=row[4],
        score=row[5],
        tokens_in=row[6],
        tokens_out=row[7],
        output=row[8],
        output_chars=int(row[9]),
        output_path=row[10],
        issues=tuple(json.loads(row[11])),
        metadata=json.loads(row[12]),
        started_at=parse_ts(row[13]),
        finished_at=parse_ts(row[14]),
        created_at=parse_ts(row[15]),
        updated_at=parse_ts(row[16]),
    )


def _hit(row: Sequence[Any]) -> RunHit:
    return RunHit(
        run_id=row[0],
        namespace=row[1],
        memory_id=row[2],
        rank=int(row[3]),
        score=row[4],
        title=row[5],
        at=datetime.fromisoformat(row[6]),
    )


def _filters(status: str | None, task_type: str | None) -> tuple[str, list[Any]]:
    sql, args = "", []
    for column, value in (("status", status), ("task_type", task_type)):
        if value is not None:
            sql += f" AND {column} = ?"
            args.append(value)
    return sql, args


def _time(value: datetime | None) -> str | None:
    return None if value is None else ts(value)


class SQLiteRuns:
    """The SQLite implementation of ``RunStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._db.tx() as conn:
                yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc

    def save(self, run: Run, *, now: datetime) -> Run:
        """Insert or replace a run (joins an open transaction)."""
        with self._write("recording the run") as conn:
            conn.execute(
                f"INSERT INTO runs({_FULL}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (namespace, run_id) DO UPDATE SET task = excluded.task, "
                "task_type = excluded.task_type, status = excluded.status, "
                "score = excluded.score, tokens_in = excluded.tokens_in, "
                "tokens_out = excluded.tokens_out, output = excluded.output, "
                "output_chars = excluded.output_chars, output_path = excluded.output_path, "
                "issues = excluded.issues, metadata = excluded.metadata, "
                "started_at = excluded.started_at, finished_at = excluded.finished_at, "
                "updated_at = excluded.updated_at",
                (
                    run.namespace,
                    run.run_id,
                    run.task,
                    run.task_type,
                    run.status,
                    run.score,
                    run.tokens_in,
                    run.tokens_out,
                    run.output,
                    len(run.output) if run.output is not None else run.output_chars,
                    run.output_path,
                    json.dumps(list(run.issues), ensure_ascii=False),
                    json.dumps(run.metadata, ensure_ascii=False),
                    _time(run.started_at),
                    _time(run.finished_at),
                    ts(now),
                    ts(now),
                ),
            )
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = ? AND run_id = ?",
                (run.namespace, run.run_id),
            ).fetchone()
        return _run(row)

    def get(self, namespace: str, run_id: str) -> Run | None:
        """One run with its output."""
        with self._db.read("reading a run") as conn:
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = ? AND run_id = ?",
                (namespace, run_id),
            ).fetchone()
        return None if row is None else _run(row)

    def select(
        self,
        namespace: str,
        *,
        status: str | None = None,
        task_type: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Run]:
        """Runs newest first, without their output."""
        where, args = _filters(status, task_type)
        with self._db.read("listing runs") as conn:
            rows = conn.execute(
                f"SELECT {_LIST} FROM runs WHERE namespace = ?{where} "
                "ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?",
                (namespace, *args, limit, offset),
            ).fetchall()
        return [_run(r) for r in rows]

    def count(
        self, namespace: str, *, status: str | None = None, task_type: str | None = None
    ) -> int:
        """How many runs match."""
        where, args = _filters(status, task_type)
        with self._db.read("counting runs") as conn:
            row = conn.execute(
                f"SELECT COUNT(*) FROM runs WHERE namespace = ?{where}", (namespace, *args)
            ).fetchone()
        return int(row[0])

    def delete(self, namespace: str, run_id: str) -> bool:
        """Remove a run; its hits cascade."""
        with self._write("deleting the run") as conn:
            cur = conn.execute(
                "DELETE FROM runs WHERE namespace = ? AND run_id = ?", (namespace, run_id)
            )
        return cur.rowcount > 0

    def log_hits(self, namespace: str, run_id: str, hits: Sequence[RunHit]) -> int:
        """Record injected memories (a memory logged again is updated)."""
        if not hits:
            return 0
        with self._write("logging the run's memory hits") as conn:
            conn.executemany(
                f"INSERT INTO run_memory_hits({_HIT}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (namespace, run_id, memory_id) DO UPDATE SET "
                "rank = excluded.rank, score = excluded.score, title = excluded.title, "
                "at = excluded.at",
                [
                    (run_id, namespace, h.memory_id, h.rank, h.score, h.title, ts(h.at))
                    for h in hits
                ],
            )
        return len(hits)

    def hits(self, namespace: str, run_id: str) -> list[RunHit]:
        """A run's injected memories by rank."""
        with self._db.read("reading the run's memory hits") as conn:
            rows = conn.execute(
                f"SELECT {_HIT} FROM run_memory_hits WHERE namespace = ? AND run_id = ? "
                "ORDER BY rank, memory_id",
                (namespace, run_id),
            ).fetchall()
        return [_hit(r) for r in rows]

    def injected_into(self, namespace: str, memory_id: str, *, limit: int = 100) -> list[RunHit]:
        """The runs a memory was injected into, newest first."""
        with self._db.read("reading a memory's runs") as conn:
            rows = conn.execute(
                f"SELECT {_HIT} FROM run_memory_hits WHERE namespace = ? AND memory_id = ? "
                "ORDER BY at DESC, run_id DESC LIMIT ?",
                (namespace, memory_id, limit),
            ).fetchall()
        return [_hit(r) for r in rows]

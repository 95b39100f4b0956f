"""The run log and its memory hits (seed 000's ``RunTrace``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import StoreError
from engram.store.protocols.runs import Run, RunHit
from engram.store.sql.dialect import Dialect
from engram.store.sql.session import Sql

_LISTED = (
    "namespace, run_id, task, task_type, status, score, tokens_in, tokens_out, {output}, "
    "output_chars, output_path, issues, metadata, started_at, finished_at, created_at, "
    "updated_at"
)
_FULL = _LISTED.format(output="output")
_LIST = _LISTED.format(output="NULL")
_HIT = "run_id, namespace, memory_id, rank, score, title, at"


def _run(d: Dialect, row: Sequence[Any]) -> Run:
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
        issues=tuple(d.loads(row[11])),
        metadata=d.loads(row[12]),
        started_at=d.time_or_none(row[13]),
        finished_at=d.time_or_none(row[14]),
        created_at=d.time(row[15]),
        updated_at=d.time(row[16]),
    )


def _hit(d: Dialect, row: Sequence[Any]) -> RunHit:
    return RunHit(
        run_id=row[0],
        namespace=row[1],
        memory_id=row[2],
        rank=int(row[3]),
        score=row[4],
        title=row[5],
        at=d.time(row[6]),
    )


def _filters(status: str | None, task_type: str | None) -> tuple[str, list[Any]]:
    sql, args = "", []
    for column, value in (("status", status), ("task_type", task_type)):
        if value is not None:
            sql += f" AND {column} = ?"
            args.append(value)
    return sql, args


class SqlRuns:
    """``RunStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._d = sql.d

    def save(self, run: Run, *, now: datetime) -> Run:
        d = self._d
        with self._sql.tx("recording the run") as conn:
            conn.execute(
                f"INSERT INTO runs({_FULL}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                f"{d.json}, {d.json}, ?, ?, ?, ?) "
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
                    d.dumps(list(run.issues)),
                    d.dumps(run.metadata),
                    d.ts_or_none(run.started_at),
                    d.ts_or_none(run.finished_at),
                    d.ts(now),
                    d.ts(now),
                ),
            )
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = ? AND run_id = ?",
                (run.namespace, run.run_id),
            ).fetchone()
        if row is None:
            raise StoreError(f"recording run {run.run_id!r} left no row")
        return _run(d, row)

    def get(self, namespace: str, run_id: str) -> Run | None:
        with self._sql.read("reading a run") as conn:
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = ? AND run_id = ?",
                (namespace, run_id),
            ).fetchone()
        return None if row is None else _run(self._d, row)

    def select(
        self,
        namespace: str,
        *,
        status: str | None = None,
        task_type: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Run]:
        where, args = _filters(status, task_type)
        with self._sql.read("listing runs") as conn:
            rows = conn.execute(
                f"SELECT {_LIST} FROM runs WHERE namespace = ?{where} "
                "ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?",
                (namespace, *args, limit, offset),
            ).fetchall()
        return [_run(self._d, r) for r in rows]

    def count(
        self, namespace: str, *, status: str | None = None, task_type: str | None = None
    ) -> int:
        where, args = _filters(status, task_type)
        with self._sql.read("counting runs") as conn:
            row = conn.execute(
                f"SELECT COUNT(*) FROM runs WHERE namespace = ?{where}", (namespace, *args)
            ).fetchone()
        return 0 if row is None else int(row[0])

    def delete(self, namespace: str, run_id: str) -> bool:
        # Its hits go by ON DELETE CASCADE.
        with self._sql.tx("deleting the run") as conn:
            cur = conn.execute(
                "DELETE FROM runs WHERE namespace = ? AND run_id = ?", (namespace, run_id)
            )
            return cur.rowcount > 0

    def log_hits(self, namespace: str, run_id: str, hits: Sequence[RunHit]) -> int:
        if not hits:
            return 0
        d = self._d
        with self._sql.tx("logging the run's memory hits") as conn:
            conn.executemany(
                f"INSERT INTO run_memory_hits({_HIT}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (namespace, run_id, memory_id) DO UPDATE SET "
                "rank = excluded.rank, score = excluded.score, title = excluded.title, "
                "at = excluded.at",
                [
                    (run_id, namespace, h.memory_id, h.rank, h.score, h.title, d.ts(h.at))
                    for h in hits
                ],
            )
        return len(hits)

    def hits(self, namespace: str, run_id: str) -> list[RunHit]:
        with self._sql.read("reading the run's memory hits") as conn:
            rows = conn.execute(
                f"SELECT {_HIT} FROM run_memory_hits WHERE namespace = ? AND run_id = ? "
                "ORDER BY rank, memory_id",
                (namespace, run_id),
            ).fetchall()
        return [_hit(self._d, r) for r in rows]

    def injected_into(self, namespace: str, memory_id: str, *, limit: int = 100) -> list[RunHit]:
        with self._sql.read("reading a memory's runs") as conn:
            rows = conn.execute(
                f"SELECT {_HIT} FROM run_memory_hits WHERE namespace = ? AND memory_id = ? "
                "ORDER BY at DESC, run_id DESC LIMIT ?",
                (namespace, memory_id, limit),
            ).fetchall()
        return [_hit(self._d, r) for r in rows]

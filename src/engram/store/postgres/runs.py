"""The run log and its memory hits in the PostgreSQL store (seed 000's ``RunTrace``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import StoreError
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.runs import Run, RunHit

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
        issues=tuple(_json(row[11])),
        metadata=_json(row[12]),
        started_at=_utc(row[13]),
        finished_at=_utc(row[14]),
        created_at=_utc(row[15]),
        updated_at=_utc(row[16]),
    )


def _hit(row: Sequence[Any]) -> RunHit:
    return RunHit(
        run_id=row[0],
        namespace=row[1],
        memory_id=row[2],
        rank=int(row[3]),
        score=row[4],
        title=row[5],
        at=codec.utc(row[6]),
    )


def _filters(status: str | None, task_type: str | None) -> tuple[str, list[Any]]:
    sql, args = "", []
    for column, value in (("status", status), ("task_type", task_type)):
        if value is not None:
            sql += f" AND {column} = %s"
            args.append(value)
    return sql, args


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else codec.utc(value)


def _json(value: Any) -> Any:
    """A ``json`` column's value (psycopg decodes it; a plain string is decoded here)."""
    return json.loads(value) if isinstance(value, str) else value


class PgRuns:
    """The PostgreSQL implementation of ``RunStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def save(self, run: Run, *, now: datetime) -> Run:
        """Insert or replace a run (joins an open transaction)."""
        with self._db.tx("recording the run") as conn:
            conn.execute(
                f"INSERT INTO runs({_FULL}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::json, %s::json, "
                "%s, %s, %s, %s) "
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
                    codec.dumps(list(run.issues)),
                    codec.dumps(run.metadata),
                    run.started_at,
                    run.finished_at,
                    now,
                    now,
                ),
            )
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = %s AND run_id = %s",
                (run.namespace, run.run_id),
            ).fetchone()
        if row is None:
            raise StoreError(f"recording run {run.run_id!r} left no row")
        return _run(row)

    def get(self, namespace: str, run_id: str) -> Run | None:
        """One run with its output."""
        with self._db.read("reading a run") as conn:
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = %s AND run_id = %s",
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
                f"SELECT {_LIST} FROM runs WHERE namespace = %s{where} "
                "ORDER BY created_at DESC, run_id DESC LIMIT %s OFFSET %s",
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
                f"SELECT COUNT(*) FROM runs WHERE namespace = %s{where}", (namespace, *args)
            ).fetchone()
        return 0 if row is None else int(row[0])

    def delete(self, namespace: str, run_id: str) -> bool:
        """Remove a run; its hits cascade."""
        with self._db.tx("deleting the run") as conn:
            cur = conn.execute(
                "DELETE FROM runs WHERE namespace = %s AND run_id = %s", (namespace, run_id)
            )
        return cur.rowcount > 0

    def log_hits(self, namespace: str, run_id: str, hits: Sequence[RunHit]) -> int:
        """Record injected memories (a memory logged again is updated)."""
        if not hits:
            return 0
        with self._db.tx("logging the run's memory hits") as conn, conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO run_memory_hits({_HIT}) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (namespace, run_id, memory_id) DO UPDATE SET "
                "rank = excluded.rank, score = excluded.score, title = excluded.title, "
                "at = excluded.at",
                [(run_id, namespace, h.memory_id, h.rank, h.score, h.title, h.at) for h in hits],
            )
        return len(hits)

    def hits(self, namespace: str, run_id: str) -> list[RunHit]:
        """A run's injected memories by rank."""
        with self._db.read("reading the run's memory hits") as conn:
            rows = conn.execute(
                f"SELECT {_HIT} FROM run_memory_hits WHERE namespace = %s AND run_id = %s "
                "ORDER BY rank, memory_id",
                (namespace, run_id),
            ).fetchall()
        return [_hit(r) for r in rows]

    def injected_into(self, namespace: str, memory_id: str, *, limit: int = 100) -> list[RunHit]:
        """The runs a memory was injected into, newest first."""
        with self._db.read("reading a memory's runs") as conn:
            rows = conn.execute(
                f"SELECT {_HIT} FROM run_memory_hits WHERE namespace = %s AND memory_id = %s "
                "ORDER BY at DESC, run_id DESC LIMIT %s",
                (namespace, memory_id, limit),
            ).fetchall()
        return [_hit(r) for r in rows]

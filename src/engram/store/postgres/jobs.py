"""The job queue in the PostgreSQL store: seed 004's ``memory_jobs``.

A lease is one statement, ``UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED)``:
workers on many connections (or machines) each lock a different pending row and never
wait on one another. Enqueue dedup rests on partial unique indexes and
``ON CONFLICT DO NOTHING``, so two writers racing for the same memory leave one job.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import InvalidInputError, NotFoundError
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.jobs import JOB_STATUSES, Job, check_jobs

_COLUMNS = (
    "id, kind, namespace, status, attempts, max_attempts, created_at, memory_id, "
    "document_id, payload, result, error, run_after, leased_at, completed_at, failed_at"
)
_SELECT = f"SELECT {_COLUMNS} FROM memory_jobs"
#: How often an enqueue retries when the job it collided with finished in between.
_ENQUEUE_TRIES = 5
_REAPED = "lease expired: its worker stopped before finishing"


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _when(value: datetime | None) -> datetime | None:
    return None if value is None else codec.utc(value)


def _job(row: Sequence[Any]) -> Job:
    return Job(
        id=int(row[0]),
        kind=row[1],
        namespace=row[2],
        status=row[3],
        attempts=int(row[4]),
        max_attempts=int(row[5]),
        created_at=codec.utc(row[6]),
        memory_id=row[7],
        document_id=row[8],
        payload=dict(_json(row[9])),
        result=None if row[10] is None else _json(row[10]),
        error=row[11],
        run_after=_when(row[12]),
        leased_at=_when(row[13]),
        completed_at=_when(row[14]),
        failed_at=_when(row[15]),
    )


def _filters(namespace: str | None, status: str | None, kind: str | None) -> tuple[str, list[Any]]:
    """A WHERE clause (maybe empty) and its parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if namespace is not None:
        clauses.append("namespace = %s")
        params.append(namespace)
    if status is not None:
        if status not in JOB_STATUSES:
            raise InvalidInputError(
                f"job status must be one of {', '.join(JOB_STATUSES)}, got {status!r}"
            )
        clauses.append("status = %s")
        params.append(status)
    if kind is not None:
        clauses.append("kind = %s")
        params.append(kind)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _dumps(value: Mapping[str, Any], what: str) -> str:
    try:
        return codec.dumps(dict(value))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"a job's {what} must be JSON: {exc}") from exc


def _text(value: str) -> str:
    """PostgreSQL text cannot hold NUL; an error message is kept readable without it."""
    return value.replace("\x00", "\\0")


class PgJobs:
    """The PostgreSQL implementation of ``JobStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def enqueue(
        self,
        kind: str,
        namespace: str,
        *,
        memory_id: str | None = None,
        document_id: str | None = None,
        payload: Mapping[str, Any] | None = None,
        max_attempts: int = 3,
        now: datetime | None = None,
    ) -> Job:
        """Queue work, or return the pending or leased job of the same kind for the same
        memory (or document): seed 004's enqueue dedup. Joins an open transaction."""
        check_jobs([kind], max_attempts)
        created = now or self._db.clock()
        body = _dumps(payload or {}, "payload")
        for _ in range(_ENQUEUE_TRIES):
            with self._db.tx(f"queueing the {kind} job") as conn:
                row = conn.execute(
                    "INSERT INTO memory_jobs(kind, namespace, memory_id, document_id, status, "
                    "attempts, max_attempts, payload, created_at, run_after) "
                    "VALUES (%s, %s, %s, %s, 'pending', 0, %s, %s::json, %s, %s) "
                    f"ON CONFLICT DO NOTHING RETURNING {_COLUMNS}",
                    (
                        codec.check_text(kind, "kind"),
                        codec.check_text(namespace, "namespace"),
                        memory_id,
                        document_id,
                        max_attempts,
                        body,
                        created,
                        created,
                    ),
                ).fetchone()
                if row is not None:
                    return _job(row)
                # The dedup index fired: hand back the job that holds it.
                existing = self._active(conn, kind, memory_id, document_id)
                if existing is not None:
                    return existing
            # It finished between the two statements: try to queue again.
        raise InvalidInputError(f"could not queue the {kind} job: it keeps colliding")

    def enqueue_many(
        self,
        jobs: Sequence[tuple[str, str, str]],
        *,
        max_attempts: int = 3,
        now: datetime | None = None,
    ) -> int:
        """Queue memory jobs in one pipeline (see ``JobStore.enqueue_many``); the dedup
        index leaves out a kind and memory that already have an active job."""
        check_jobs((kind for kind, _, _ in jobs), max_attempts)
        if not jobs:
            return 0
        created = now or self._db.clock()
        rows = [
            (
                codec.check_text(kind, "kind"),
                codec.check_text(namespace, "namespace"),
                memory_id,
                max_attempts,
                created,
                created,
            )
            for kind, namespace, memory_id in jobs
        ]
        with self._db.tx("queueing jobs") as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO memory_jobs(kind, namespace, memory_id, status, attempts, "
                "max_attempts, payload, created_at, run_after) "
                "VALUES (%s, %s, %s, 'pending', 0, %s, '{}'::json, %s, %s) "
                "ON CONFLICT DO NOTHING",
                rows,
            )
            return cur.rowcount

    @staticmethod
    def _active(
        conn: psycopg.Connection[Any], kind: str, memory_id: str | None, document_id: str | None
    ) -> Job | None:
        for column, value in (("memory_id", memory_id), ("document_id", document_id)):
            if value is None:
                continue
            row = conn.execute(
                f"{_SELECT} WHERE kind = %s AND {column} = %s AND status IN ('pending', 'leased')",
                (kind, value),
            ).fetchone()
            if row is not None:
                return _job(row)
        return None

    def lease(self, kinds: Sequence[str], *, now: datetime) -> Job | None:
        """Atomically take the oldest pending job of ``kinds`` whose ``run_after`` has
        passed: status ``leased``, ``leased_at = now``, ``attempts + 1``. None if none."""
        if not kinds:
            return None
        with self._db.tx("leasing a job") as conn:
            # SKIP LOCKED: a row another worker is leasing right now is passed over, so
            # concurrent workers take different jobs instead of queueing on one.
            row = conn.execute(
                "UPDATE memory_jobs SET status = 'leased', leased_at = %s, "
                "attempts = attempts + 1 WHERE id = ("
                "SELECT id FROM memory_jobs WHERE status = 'pending' AND kind = ANY(%s) "
                "AND run_after <= %s ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED"
                f") RETURNING {_COLUMNS}",
                (now, list(kinds), now),
            ).fetchone()
        return None if row is None else _job(row)

    def complete(
        self,
        job_id: int,
        result: Mapping[str, Any],
        *,
        now: datetime,
        attempt: int | None = None,
    ) -> Job:
        """Mark a leased job completed with its result (only while the lease ``attempt``
        holds, when given)."""
        return self._finish(
            job_id,
            "status = 'completed', result = %s::json, completed_at = %s",
            [_dumps(result, "result"), now],
            attempt,
            "completing the job",
        )

    def fail(
        self,
        job_id: int,
        error: str,
        *,
        now: datetime,
        retry_at: datetime,
        attempt: int | None = None,
    ) -> Job:
        """Record the failure: ``dead`` at ``max_attempts``, else ``pending`` until
        ``retry_at``."""
        return self._finish(
            job_id,
            "status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
            "error = %s, failed_at = %s, run_after = %s",
            [_text(error), now, retry_at],
            attempt,
            "failing the job",
        )

    def _finish(
        self, job_id: int, assignments: str, params: list[Any], attempt: int | None, what: str
    ) -> Job:
        where = "id = %s AND status = 'leased'"
        keys: list[Any] = [job_id]
        if attempt is not None:
            where += " AND attempts = %s"
            keys.append(attempt)
        with self._db.tx(what) as conn:
            row = conn.execute(
                f"UPDATE memory_jobs SET {assignments} WHERE {where} RETURNING {_COLUMNS}",
                (*params, *keys),
            ).fetchone()
        if row is None:
            raise NotFoundError(
                f"job {job_id} is not leased (by this attempt): its lease expired or it "
                "was never leased"
            )
        return _job(row)

    def reap(self, *, older_than: datetime, now: datetime) -> int:
        """Return stale leases to ``pending`` (``dead`` at ``max_attempts``)."""
        with self._db.tx("reaping stale leases") as conn:
            cur = conn.execute(
                "UPDATE memory_jobs SET "
                "status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
                "error = %s, failed_at = %s, run_after = %s "
                "WHERE status = 'leased' AND leased_at < %s",
                (_REAPED, now, now, older_than),
            )
            return int(cur.rowcount)

    def get(self, job_id: int) -> Job | None:
        """One job by id."""
        with self._db.read("reading a job") as conn:
            row = conn.execute(f"{_SELECT} WHERE id = %s", (job_id,)).fetchone()
        return None if row is None else _job(row)

    def select(
        self,
        *,
        namespace: str | None = None,
        status: str | None = None,
        kind: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Job]:
        """Jobs, newest first, filtered (``namespace=None``: every namespace)."""
        where, params = _filters(namespace, status, kind)
        with self._db.read("listing jobs") as conn:
            rows = conn.execute(
                f"{_SELECT}{where} ORDER BY id DESC LIMIT %s OFFSET %s", (*params, limit, offset)
            ).fetchall()
        return [_job(r) for r in rows]

    def counts(self, namespace: str | None = None, *, kind: str | None = None) -> dict[str, int]:
        """How many jobs have each status (every status is a key)."""
        where, params = _filters(namespace, None, kind)
        with self._db.read("counting jobs") as conn:
            rows = conn.execute(
                f"SELECT status, count(*) FROM memory_jobs{where} GROUP BY status", params
            ).fetchall()
        out = dict.fromkeys(JOB_STATUSES, 0)
        out.update({r[0]: int(r[1]) for r in rows})
        return out

    def last_failure(self, namespace: str | None = None) -> Job | None:
        """The job that failed most recently, or None."""
        where, params = _filters(namespace, None, None)
        where += (" AND" if where else " WHERE") + " failed_at IS NOT NULL"
        with self._db.read("reading the last failure") as conn:
            row = conn.execute(
                f"{_SELECT}{where} ORDER BY failed_at DESC, id DESC LIMIT 1", params
            ).fetchone()
        return None if row is None else _job(row)

    def retry(self, job_id: int, *, now: datetime) -> Job:
        """Send a dead (or failed, waiting) job back to ``pending`` now, attempts reset."""
        with self._db.tx(f"retrying job {job_id}") as conn:
            current = conn.execute(f"{_SELECT} WHERE id = %s FOR UPDATE", (job_id,)).fetchone()
            if current is None:
                raise NotFoundError(f"no job {job_id}")
            job = _job(current)
            if job.status not in ("dead", "pending"):
                raise InvalidInputError(
                    f"job {job_id} is {job.status}: only a dead or waiting job is retried"
                )
            if job.status == "dead" and (
                self._active(conn, job.kind, job.memory_id, job.document_id) is not None
            ):
                raise InvalidInputError(
                    f"job {job_id} has a newer {job.kind} job queued for the same memory or "
                    "document; that one will run"
                )
            row = conn.execute(
                "UPDATE memory_jobs SET status = 'pending', attempts = 0, run_after = %s, "
                f"leased_at = NULL WHERE id = %s RETURNING {_COLUMNS}",
                (now, job_id),
            ).fetchone()
        assert row is not None
        return _job(row)

"""The job queue in the SQLite store: seed 004's ``memory_jobs``.

Every write runs in ``Database.tx`` (``BEGIN IMMEDIATE``, or a savepoint of the
transaction this thread holds), so a lease's SELECT and UPDATE happen under the file's
one write lock: two workers, in two processes even, never take the same job. A partial
unique index keeps at most one pending or leased job per kind and memory (or document).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
from engram.store.protocols.jobs import JOB_STATUSES, Job, check_jobs
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

_COLUMNS = (
    "id, kind, namespace, status, attempts, max_attempts, created_at, memory_id, "
    "document_id, payload, result, error, run_after, leased_at, completed_at, failed_at"
)
_SELECT = f"SELECT {_COLUMNS} FROM memory_jobs"


def _job(row: Sequence[Any]) -> Job:
    return Job(
        id=int(row[0]),
        kind=row[1],
        namespace=row[2],
        status=row[3],
        attempts=int(row[4]),
        max_attempts=int(row[5]),
        created_at=datetime.fromisoformat(row[6]),
        memory_id=row[7],
        document_id=row[8],
        payload=json.loads(row[9]),
        result=None if row[10] is None else json.loads(row[10]),
        error=row[11],
        run_after=parse_ts(row[12]),
        leased_at=parse_ts(row[13]),
        completed_at=parse_ts(row[14]),
        failed_at=parse_ts(row[15]),
    )


def _filters(namespace: str | None, status: str | None, kind: str | None) -> tuple[str, list[Any]]:
    """A WHERE clause (maybe empty) and its parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if namespace is not None:
        clauses.append("namespace = ?")
        params.append(namespace)
    if status is not None:
        if status not in JOB_STATUSES:
            raise InvalidInputError(
                f"job status must be one of {', '.join(JOB_STATUSES)}, got {status!r}"
            )
        clauses.append("status = ?")
        params.append(status)
    if kind is not None:
        clauses.append("kind = ?")
        params.append(kind)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _dumps(value: Mapping[str, Any], what: str) -> str:
    try:
        return json.dumps(dict(value), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"a job's {what} must be JSON: {exc}") from exc


class SQLiteJobs:
    """The SQLite implementation of ``JobStore``."""

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
        created = ts(now or self._db.clock())
        body = _dumps(payload or {}, "payload")
        try:
            with self._db.tx() as conn:
                existing = self._active(conn, kind, memory_id, document_id)
                if existing is not None:
                    return existing
                row = conn.execute(
                    "INSERT INTO memory_jobs(kind, namespace, memory_id, document_id, status, "
                    "attempts, max_attempts, payload, created_at, run_after) "
                    f"VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?) RETURNING {_COLUMNS}",
                    (kind, namespace, memory_id, document_id, max_attempts, body, created, created),
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"queueing the {kind} job failed: {exc}") from exc
        return _job(row)

    def enqueue_many(
        self,
        jobs: Sequence[tuple[str, str, str]],
        *,
        max_attempts: int = 3,
        now: datetime | None = None,
    ) -> int:
        """Queue memory jobs in one statement (see ``JobStore.enqueue_many``); the dedup
        index leaves out a kind and memory that already have an active job."""
        check_jobs((kind for kind, _, _ in jobs), max_attempts)
        if not jobs:
            return 0
        created = ts(now or self._db.clock())
        rows = [(k, ns, mid, max_attempts, created, created) for k, ns, mid in jobs]
        try:
            with self._db.tx() as conn:
                cur = conn.executemany(
                    "INSERT OR IGNORE INTO memory_jobs(kind, namespace, memory_id, status, "
                    "attempts, max_attempts, payload, created_at, run_after) "
                    "VALUES (?, ?, ?, 'pending', 0, ?, '{}', ?, ?)",
                    rows,
                )
                return cur.rowcount
        except sqlite3.Error as exc:
            raise StoreError(f"queueing {len(jobs)} jobs failed: {exc}") from exc

    @staticmethod
    def _active(
        conn: sqlite3.Connection, kind: str, memory_id: str | None, document_id: str | None
    ) -> Job | None:
        """The pending or leased job of ``kind`` for the memory or document, if any."""
        for column, value in (("memory_id", memory_id), ("document_id", document_id)):
            if value is None:
                continue
            row = conn.execute(
                f"{_SELECT} WHERE kind = ? AND {column} = ? AND status IN ('pending', 'leased')",
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
        marks = ", ".join("?" for _ in kinds)
        try:
            # seed 004: select and update in one write transaction, so no two workers
            # can lease the same job.
            with self._db.tx() as conn:
                found = conn.execute(
                    f"SELECT id FROM memory_jobs WHERE status = 'pending' AND kind IN ({marks}) "
                    "AND run_after <= ? ORDER BY created_at, id LIMIT 1",
                    (*kinds, ts(now)),
                ).fetchone()
                if found is None:
                    return None
                row = conn.execute(
                    "UPDATE memory_jobs SET status = 'leased', leased_at = ?, "
                    f"attempts = attempts + 1 WHERE id = ? RETURNING {_COLUMNS}",
                    (ts(now), found[0]),
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"leasing a job failed: {exc}") from exc
        return _job(row)

    def complete(
        self,
        job_id: int,
        result: Mapping[str, Any],
        *,
        now: datetime,
        attempt: int | None = None,
    ) -> Job:
        """Mark a leased job completed with its result (only the lease ``attempt`` holds,
        when given)."""
        body = _dumps(result, "result")
        return self._finish(
            job_id,
            "status = 'completed', result = ?, completed_at = ?",
            [body, ts(now)],
            attempt,
            "completing",
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
            "error = ?, failed_at = ?, run_after = ?",
            [error, ts(now), ts(retry_at)],
            attempt,
            "failing",
        )

    def _finish(
        self, job_id: int, assignments: str, params: list[Any], attempt: int | None, what: str
    ) -> Job:
        where = "id = ? AND status = 'leased'"
        keys: list[Any] = [job_id]
        if attempt is not None:
            where += " AND attempts = ?"
            keys.append(attempt)
        try:
            with self._db.tx() as conn:
                row = conn.execute(
                    f"UPDATE memory_jobs SET {assignments} WHERE {where} RETURNING {_COLUMNS}",
                    (*params, *keys),
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"{what} job {job_id} failed: {exc}") from exc
        if row is None:
            raise NotFoundError(
                f"job {job_id} is not leased (by this attempt): its lease expired or it "
                "was never leased"
            )
        return _job(row)

    def reap(self, *, older_than: datetime, now: datetime) -> int:
        """Return stale leases to ``pending`` (``dead`` at ``max_attempts``)."""
        try:
            with self._db.tx() as conn:
                cur = conn.execute(
                    "UPDATE memory_jobs SET "
                    "status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
                    "error = 'lease expired: its worker stopped before finishing', "
                    "failed_at = ?, run_after = ? "
                    "WHERE status = 'leased' AND leased_at < ?",
                    (ts(now), ts(now), ts(older_than)),
                )
                return int(cur.rowcount)
        except sqlite3.Error as exc:
            raise StoreError(f"reaping stale leases failed: {exc}") from exc

    def get(self, job_id: int) -> Job | None:
        """One job by id."""
        with self._db.read("reading a job") as conn:
            row = conn.execute(f"{_SELECT} WHERE id = ?", (job_id,)).fetchone()
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
                f"{_SELECT}{where} ORDER BY id DESC LIMIT ? OFFSET ?", (*params, limit, offset)
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
        try:
            with self._db.tx() as conn:
                current = conn.execute(f"{_SELECT} WHERE id = ?", (job_id,)).fetchone()
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
                        f"job {job_id} has a newer {job.kind} job queued for the same "
                        "memory or document; that one will run"
                    )
                row = conn.execute(
                    "UPDATE memory_jobs SET status = 'pending', attempts = 0, run_after = ?, "
                    f"leased_at = NULL WHERE id = ? RETURNING {_COLUMNS}",
                    (ts(now), job_id),
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"retrying job {job_id} failed: {exc}") from exc
        return _job(row)

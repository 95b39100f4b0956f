"""The job queue: seed 004's ``memory_jobs``, on either engine.

A lease is one statement, ``UPDATE ... WHERE id = (SELECT ... LIMIT 1) RETURNING``. On
PostgreSQL the inner ``SELECT`` ends ``FOR UPDATE SKIP LOCKED``: workers on many
connections (or machines) each lock a different pending row and never wait on one
another. On SQLite every write runs in ``BEGIN IMMEDIATE`` (or a savepoint of the
transaction this thread holds), so the select and the update happen under the file's
one write lock: two workers, in two processes even, never take the same job.

Enqueue dedup rests on partial unique indexes (at most one pending or leased job per
kind and memory, or document) and ``ON CONFLICT DO NOTHING``, so two writers racing for
the same memory leave one job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError
from engram.store.protocols import JobStore
from engram.store.protocols.jobs import JOB_STATUSES, Job, check_jobs
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.rows import checked, columns, equal, record
from engram.store.sql.session import SqlPart

_COLUMNS = columns(Job)
_SELECT = f"SELECT {_COLUMNS} FROM memory_jobs"
#: How often an enqueue retries when the job it collided with finished in between.
_ENQUEUE_TRIES = 5
_REAPED = "lease expired: its worker stopped before finishing"
#: A failed attempt goes back to ``pending``, or ``dead`` once it used its attempts.
_FAILED = "status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END"


def _filters(namespace: str | None, status: str | None, kind: str | None) -> tuple[str, list[Any]]:
    """A WHERE clause and its parameters."""
    status = checked(status, JOB_STATUSES, "job status")
    where, params = equal(namespace=namespace, status=status, kind=kind)
    return f" WHERE {where}", params


def _dumps(d: Dialect, value: Mapping[str, Any], what: str) -> str:
    try:
        return d.dumps(dict(value))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"a job's {what} must be JSON: {exc}") from exc


def _error_text(d: Dialect, value: str) -> str:
    """An error message as stored: PostgreSQL text cannot hold NUL, so there it is kept
    readable without it (SQLite stores the message as it is)."""
    return value if d.name == "sqlite" else value.replace("\x00", "\\0")


class SqlJobs(SqlPart, JobStore):
    """``JobStore`` on either engine."""

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
        check_jobs([kind], max_attempts)
        d = self._d
        created = d.ts(now or self._sql.clock())
        body = _dumps(d, payload or {}, "payload")
        params = (
            d.text(kind, "kind"),
            d.text(namespace, "namespace"),
            memory_id,
            document_id,
            max_attempts,
            body,
            created,
            created,
        )
        for _ in range(_ENQUEUE_TRIES):
            with self._sql.tx(f"queueing the {kind} job") as conn:
                row = conn.execute(
                    "INSERT INTO memory_jobs(kind, namespace, memory_id, document_id, status, "
                    "attempts, max_attempts, payload, created_at, run_after) "
                    f"VALUES (?, ?, ?, ?, 'pending', 0, ?, {d.json}, ?, ?) "
                    f"ON CONFLICT DO NOTHING RETURNING {_COLUMNS}",
                    params,
                ).fetchone()
                if row is not None:
                    return record(d, Job, row)
                # The dedup index fired: hand back the job that holds it.
                existing = self._active(conn, kind, memory_id, document_id)
                if existing is not None:
                    return existing
            # It finished between the two statements (PostgreSQL): try to queue again.
        raise InvalidInputError(f"could not queue the {kind} job: it keeps colliding")

    def enqueue_many(
        self,
        jobs: Sequence[tuple[str, str, str]],
        *,
        max_attempts: int = 3,
        now: datetime | None = None,
    ) -> int:
        check_jobs((kind for kind, _, _ in jobs), max_attempts)
        if not jobs:
            return 0
        d = self._d
        created = d.ts(now or self._sql.clock())
        rows = [
            (
                d.text(kind, "kind"),
                d.text(namespace, "namespace"),
                memory_id,
                max_attempts,
                "{}",
                created,
                created,
            )
            for kind, namespace, memory_id in jobs
        ]
        with self._sql.tx(f"queueing {len(jobs)} jobs") as conn:
            cur = conn.executemany(
                "INSERT INTO memory_jobs(kind, namespace, memory_id, status, attempts, "
                "max_attempts, payload, created_at, run_after) "
                f"VALUES (?, ?, ?, 'pending', 0, ?, {d.json}, ?, ?) ON CONFLICT DO NOTHING",
                rows,
            )
            return int(cur.rowcount)

    def _active(
        self, conn: Conn, kind: str, memory_id: str | None, document_id: str | None
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
                return record(self._d, Job, row)
        return None

    def lease(self, kinds: Sequence[str], *, now: datetime) -> Job | None:
        if not kinds:
            return None
        d = self._d
        at = d.ts(now)
        with self._sql.tx("leasing a job") as conn:
            # seed 004: select and update in one statement of one write transaction, so
            # no two workers lease the same job. SKIP LOCKED (PostgreSQL): a row another
            # worker is leasing right now is passed over, so concurrent workers take
            # different jobs instead of queueing on one.
            row = conn.execute(
                "UPDATE memory_jobs SET status = 'leased', leased_at = ?, "
                "attempts = attempts + 1 WHERE id = ("
                f"SELECT id FROM memory_jobs WHERE status = 'pending' AND kind IN "
                f"({d.marks(len(kinds))}) AND run_after <= ? ORDER BY created_at, id "
                f"LIMIT 1{d.skip_locked}) RETURNING {_COLUMNS}",
                (at, *kinds, at),
            ).fetchone()
        return None if row is None else record(d, Job, row)

    def complete(
        self,
        job_id: int,
        result: Mapping[str, Any],
        *,
        now: datetime,
        attempt: int | None = None,
    ) -> Job:
        d = self._d
        return self._finish(
            job_id,
            f"status = 'completed', result = {d.json}, completed_at = ?",
            [_dumps(d, result, "result"), d.ts(now)],
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
        d = self._d
        return self._finish(
            job_id,
            f"{_FAILED}, error = ?, failed_at = ?, run_after = ?",
            [_error_text(d, error), d.ts(now), d.ts(retry_at)],
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
        with self._sql.tx(f"{what} job {job_id}") as conn:
            # No row: the UPDATE changed nothing, so the rollback loses nothing.
            return self._found(
                conn,
                Job,
                f"UPDATE memory_jobs SET {assignments} WHERE {where} RETURNING {_COLUMNS}",
                (*params, *keys),
                f"job {job_id} is not leased (by this attempt): its lease expired or it "
                "was never leased",
            )

    def reap(self, *, older_than: datetime, now: datetime) -> int:
        d = self._d
        with self._sql.tx("reaping stale leases") as conn:
            cur = conn.execute(
                f"UPDATE memory_jobs SET {_FAILED}, error = ?, failed_at = ?, run_after = ? "
                "WHERE status = 'leased' AND leased_at < ?",
                (_REAPED, d.ts(now), d.ts(now), d.ts(older_than)),
            )
            return int(cur.rowcount)

    def get(self, job_id: int) -> Job | None:
        return self._record(Job, f"{_SELECT} WHERE id = ?", (job_id,), "reading a job")

    def select(
        self,
        *,
        namespace: str | None = None,
        status: str | None = None,
        kind: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Job]:
        where, params = _filters(namespace, status, kind)
        return self._records(
            Job,
            f"{_SELECT}{where} ORDER BY id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
            what="listing jobs",
        )

    def counts(self, namespace: str | None = None, *, kind: str | None = None) -> dict[str, int]:
        where, params = _filters(namespace, None, kind)
        rows = self._rows(
            f"SELECT status, count(*) FROM memory_jobs{where} GROUP BY status",
            params,
            what="counting jobs",
        )
        out = dict.fromkeys(JOB_STATUSES, 0)
        out.update({r[0]: int(r[1]) for r in rows})
        return out

    def last_failure(self, namespace: str | None = None) -> Job | None:
        where, params = _filters(namespace, None, None)
        where += " AND failed_at IS NOT NULL"
        return self._record(
            Job,
            f"{_SELECT}{where} ORDER BY failed_at DESC, id DESC LIMIT 1",
            params,
            what="reading the last failure",
        )

    def retry(self, job_id: int, *, now: datetime) -> Job:
        # A failed job is a pending one waiting for its ``run_after``: either kind runs
        # from ``now``.
        d = self._d
        with self._sql.tx(f"retrying job {job_id}") as conn:
            sql = f"{_SELECT} WHERE id = ?{d.for_update}"
            job = self._found(conn, Job, sql, (job_id,), f"no job {job_id}")
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
                "UPDATE memory_jobs SET status = 'pending', attempts = 0, run_after = ?, "
                f"leased_at = NULL WHERE id = ? RETURNING {_COLUMNS}",
                (d.ts(now), job_id),
            ).fetchone()
        assert row is not None  # the row was read (and, on PostgreSQL, locked) above
        return record(d, Job, row)

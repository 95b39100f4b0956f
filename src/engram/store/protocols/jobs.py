"""The jobs part of a store: seed 004's ``memory_jobs`` queue.

Work that follows a write (extraction, hints, document ingest, classification) is a row
here, enqueued in the same transaction as the memory it is about, leased atomically by
one worker at a time, retried with ``attempts`` up to ``max_attempts`` and then kept as
``dead`` for audit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.errors import InvalidInputError
from engram.store.protocols.record import Record

#: The kinds of work the pipeline queues.
JOB_KINDS = ("extract", "hints", "document_ingest", "classify", "chat_mine")
#: seed 004's job statuses.
JOB_STATUSES = ("pending", "leased", "completed", "dead")


def check_jobs(kinds: Iterable[str], max_attempts: int) -> None:
    """``InvalidInputError`` for a job without a kind or with ``max_attempts`` < 1: what
    every backend's ``enqueue`` and ``enqueue_many`` refuse before writing."""
    if not all(kinds):
        raise InvalidInputError("a job needs a kind")
    if max_attempts < 1:
        raise InvalidInputError(f"max_attempts must be >= 1, got {max_attempts}")


@dataclass(frozen=True, slots=True)
class Job(Record):
    """One queued piece of pipeline work."""

    id: int
    kind: str
    namespace: str
    status: str
    attempts: int
    max_attempts: int
    created_at: datetime
    memory_id: str | None = None
    document_id: str | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: str | None = None
    run_after: datetime | None = None
    """A retried job waits until this time (the backoff)."""
    leased_at: datetime | None = None
    completed_at: datetime | None = None
    failed_at: datetime | None = None
    """When its latest attempt failed (for a ``dead`` job: when it died)."""


@runtime_checkable
class JobStore(Protocol):
    """The job queue: enqueue (deduplicated), lease atomically, finish, fail, reap."""

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
        memory (or document): seed 004's enqueue dedup. Joins an open transaction.
        ``now`` (default: the current time) is its ``created_at`` and first ``run_after``."""
        ...

    def enqueue_many(
        self,
        jobs: Sequence[tuple[str, str, str]],
        *,
        max_attempts: int = 3,
        now: datetime | None = None,
    ) -> int:
        """Queue ``(kind, namespace, memory_id)`` jobs, in order, in one transaction
        (joining an open one): the rows ``enqueue`` with no payload would add for each,
        so a kind and memory that already have a pending or leased job get no second
        one. Returns how many were queued."""
        ...

    def lease(self, kinds: Sequence[str], *, now: datetime) -> Job | None:
        """Atomically take the oldest pending job of ``kinds`` whose ``run_after`` has
        passed: status ``leased``, ``leased_at = now``, ``attempts + 1``. None if none."""
        ...

    def complete(
        self,
        job_id: int,
        result: Mapping[str, Any],
        *,
        now: datetime,
        attempt: int | None = None,
    ) -> Job:
        """Mark a leased job completed with its result. With ``attempt`` (the lease's
        ``attempts``), only while that lease still holds: ``NotFoundError`` if the job
        was reaped and leased again meanwhile."""
        ...

    def fail(
        self,
        job_id: int,
        error: str,
        *,
        now: datetime,
        retry_at: datetime,
        attempt: int | None = None,
    ) -> Job:
        """A leased job failed (``error`` and ``failed_at`` recorded): back to
        ``pending`` until ``retry_at``, or ``dead`` once its attempts reached
        ``max_attempts``. ``attempt`` as for ``complete``."""
        ...

    def reap(self, *, older_than: datetime, now: datetime) -> int:
        """Return leases taken before ``older_than`` to ``pending`` (their worker died);
        a job whose attempts already reached ``max_attempts`` becomes ``dead`` instead,
        so a job that kills its worker cannot loop for ever. Returns how many."""
        ...

    def get(self, job_id: int) -> Job | None:
        """One job by id."""
        ...

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
        ...

    def counts(self, namespace: str | None = None, *, kind: str | None = None) -> dict[str, int]:
        """How many jobs (of ``namespace`` and ``kind`` when given) have each status;
        every status is a key."""
        ...

    def last_failure(self, namespace: str | None = None) -> Job | None:
        """The job (of ``namespace`` when given) that failed most recently, or None."""
        ...

    def retry(self, job_id: int, *, now: datetime) -> Job:
        """Send a dead (or failed) job back to ``pending`` with its attempts reset."""
        ...

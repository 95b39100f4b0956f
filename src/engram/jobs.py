"""``mem.jobs``: seed 004's job queue and the worker that drains it (FEATURES P6).

Work that follows a write (extraction, hints, document ingest, classification) is
queued in the store with the memory it is about. Three ways run it:

- ``Memory(..., background=True)`` (or ``mem.jobs.start()``) runs a worker thread in
  the process until ``close``; ``engram serve`` and ``engram mcp`` run one while they
  serve (``worker_while_serving(mem.jobs)``, entered by ``engram.serving.serving``);
- ``engram worker`` runs a worker as a process of its own;
- ``mem.jobs.process_pending()`` runs what is runnable now, in the caller's thread (for
  scripts and tests).

Jobs are operational records: with no scope argument a verb here sees every
namespace's jobs (the operator's view); with ``namespace``/``user_id``/... only that
namespace's, resolved by the library's namespace rule.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Unpack, overload

from engram.core import Core, Part
from engram.errors import NotFoundError
from engram.pipeline.handlers import HANDLERS
from engram.pipeline.worker import Worker
from engram.records import iso, utcnow
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols import JOB_KINDS, JOB_STATUSES, Job
from engram.store.protocols.record import Record
from engram.validate import choice, offset_value, optional_str, positive_int, row_id

__all__ = ["JOB_KINDS", "JOB_STATUSES", "Job", "JobPage", "Jobs", "worker_while_serving"]


@dataclass(frozen=True, slots=True)
class JobPage(Record, Sequence[Job]):
    """One page of ``mem.jobs.list``: the jobs, newest first, and where the page sits."""

    items: tuple[Job, ...]
    total: int
    """How many jobs match the filters, on every page."""
    limit: int
    offset: int

    @overload
    def __getitem__(self, index: int) -> Job: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Job]: ...

    def __getitem__(self, index: int | slice) -> Job | Sequence[Job]:
        return self.items[index]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Job]:
        return iter(self.items)


class Jobs(Part):
    """The job queue of a ``Memory``, and its in-process worker."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self._worker: Worker | None = None
        self._lock = threading.Lock()

    def _namespace(self, who: ScopeArgs) -> str | None:
        """None (every namespace) when no scope is given, else the resolved namespace."""
        self._core.check_open()
        if all(value is None for value in who.values()):
            return None
        return self._core.scope(**who).namespace

    # -- reading ------------------------------------------------------------------------
    @scoped
    def list(
        self,
        *,
        status: str | None = None,
        kind: str | None = None,
        limit: int = 100,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> JobPage:
        """Jobs, newest first, filtered by ``status`` (pending, leased, completed, dead)
        and ``kind``."""
        ns = self._namespace(who)
        positive_int("limit", limit, upper=10_000)
        offset_value(offset)
        if status is not None:
            choice("job status", status, JOB_STATUSES)
        kind = optional_str("kind", kind)
        store = self._core.store.jobs
        items = store.select(namespace=ns, status=status, kind=kind, limit=limit, offset=offset)
        counts = store.counts(ns, kind=kind)
        total = counts[status] if status is not None else sum(counts.values())
        return JobPage(tuple(items), total, limit, offset)

    @scoped
    def get(self, job_id: int, **who: Unpack[ScopeArgs]) -> Job:
        """One job; ``NotFoundError`` if there is none (in this namespace, when given)."""
        ns = self._namespace(who)
        job = self._core.store.jobs.get(row_id("a job id", job_id))
        if job is None or (ns is not None and job.namespace != ns):
            where = "" if ns is None else f" in namespace {ns!r}"
            raise NotFoundError(f"no job {job_id}{where}")
        return job

    @scoped
    def counts(self, *, kind: str | None = None, **who: Unpack[ScopeArgs]) -> dict[str, int]:
        """How many jobs have each status (every status is a key)."""
        ns = self._namespace(who)
        return self._core.store.jobs.counts(ns, kind=optional_str("kind", kind))

    @scoped
    def status(self, **who: Unpack[ScopeArgs]) -> dict[str, Any]:
        """seed 004's pipeline status: queue counts per status and per kind, whether
        this process runs a worker, and the latest failure.

        ``last_error`` is the job that failed last (in the namespace, when given). The
        in-process worker's own record (``worker.last_error``, which may name any
        namespace's job) is shown only to the unscoped, operator's view.
        """
        ns = self._namespace(who)
        store = self._core.store.jobs
        kinds = sorted(set(JOB_KINDS) | set(HANDLERS.kinds()))
        failure = store.last_failure(ns)
        worker = self._worker
        stats = worker.stats().to_dict() if worker is not None else {"running": False}
        if ns is not None:
            stats = {"running": bool(stats["running"])}
        return {
            "namespace": ns,
            "counts": store.counts(ns),
            "kinds": {k: store.counts(ns, kind=k) for k in kinds},
            "handlers": list(HANDLERS.kinds()),
            "worker": stats,
            "last_error": None
            if failure is None
            else {
                "job_id": failure.id,
                "kind": failure.kind,
                "status": failure.status,
                "error": failure.error,
                "failed_at": None if failure.failed_at is None else iso(failure.failed_at),
            },
        }

    # -- acting -------------------------------------------------------------------------
    @scoped
    def retry(self, job_id: int, **who: Unpack[ScopeArgs]) -> Job:
        """Send a dead (or waiting, failed) job back to the queue, runnable now, with its
        attempts reset."""
        job = self.get(job_id, **who)
        return self._core.store.jobs.retry(job.id, now=utcnow())

    def process_pending(self, limit: int | None = None) -> int:
        """Run the jobs that are runnable now, in this thread, until none is left (or
        ``limit`` ran); returns how many ran. For scripts and tests; a failed job waits
        out its backoff."""
        self._core.check_open()
        if limit is not None:
            positive_int("limit", limit, upper=10_000_000)
        return Worker(self._core).run_pending(limit)

    # -- the in-process worker ----------------------------------------------------------
    def start(self) -> None:
        """Start the background worker thread (no-op if it runs); ``stop`` or closing
        the ``Memory`` ends it."""
        self._core.check_open()
        with self._lock:
            if self._worker is None:
                self._worker = Worker(self._core)
            self._worker.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the background worker after its current job (waits up to ``timeout``
        seconds); no-op if none runs."""
        with self._lock:
            worker = self._worker
        if worker is not None:
            worker.stop(timeout)

    @property
    def running(self) -> bool:
        """True while this ``Memory``'s background worker runs."""
        worker = self._worker
        return worker is not None and worker.running


@contextmanager
def worker_while_serving(jobs: Jobs, enabled: bool = True) -> Iterator[None]:
    """Run ``jobs``' background worker while a server (``engram serve``, ``engram mcp``)
    serves, so what its writes queue gets done; stop it at the end only if this call
    started it (a ``Memory(background=True)`` keeps its own)."""
    started = enabled and not jobs.running
    if started:
        jobs.start()
    try:
        yield
    finally:
        if started:
            jobs.stop()

"""The job worker (seed 004's "Worker Model", FEATURES P6).

``Worker.run_once`` leases one job (atomically, in the store's own short transaction),
runs its handler with no transaction open (seed 004: no model call inside a write
transaction), then completes the job with the handler's result, or fails it: the error
is recorded and the job waits out a backoff, or is ``dead`` once its attempts reach
``max_attempts``.

``start()`` runs the loop in a background thread. Each tick first returns stale leases
(older than ``lease_timeout_s``, checked every ``reaper_interval_s``), then runs jobs
until none is runnable, then waits:

- ``poll_ms`` (seed 004: 2 000 ms) when the tick ended idle;
- after a failure, seed 004's backoff: ``backoff_base_ms`` (1 000 ms) doubled for each
  consecutive failure up to ``backoff_cap_ms`` (30 000 ms), plus up to ``jitter_ms``
  (500 ms) of random jitter. A failed job's own ``run_after`` uses the same curve, by
  its attempt number.

The seed leases one job per tick; engram keeps running while jobs are runnable (and
polls only once the queue is idle), so a backlog drains at the handlers' speed rather
than one job per ``poll_ms``.

Time comes from ``clock`` (aware UTC datetimes), so tests move it instead of sleeping.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engram.core import Core
from engram.errors import InvalidInputError, NotFoundError, StoreClosedError, shown
from engram.pipeline.handlers import HANDLERS, Registry
from engram.records import utcnow
from engram.settings import WorkerConfig
from engram.store.protocols import JOB_KINDS, Job, ListQuery
from engram.store.protocols.record import Record
from engram.store.sql.history import job_run

log = logging.getLogger("engram.worker")

Clock = Callable[[], datetime]
#: A failed job's error is kept to this many characters.
MAX_ERROR_CHARS = 2000


def backoff_ms(failures: int, config: WorkerConfig, rng: random.Random) -> float:
    """seed 004's delay after ``failures`` consecutive failures (>= 1): the base doubled
    per failure, capped, plus random jitter."""
    steps = min(max(failures, 1) - 1, 32)  # 2**32 x the base is past any cap
    delay = min(config.backoff_base_ms * 2**steps, config.backoff_cap_ms)
    return float(delay) + rng.uniform(0, config.jitter_ms)


def describe(exc: BaseException) -> str:
    """The error a failed job records: the exception's type and message."""
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


@dataclass(frozen=True, slots=True)
class WorkerStats(Record):
    """What a worker has done since it was made."""

    running: bool
    processed: int
    """Jobs run, completed or failed."""
    completed: int
    failed: int
    reaped: int
    consecutive_failures: int
    last_error: str | None
    last_error_at: datetime | None


class Worker:
    """Leases jobs of ``kinds`` from the core's store and runs their handlers."""

    def __init__(
        self,
        core: Core,
        kinds: Sequence[str] = JOB_KINDS,
        *,
        clock: Clock = utcnow,
        handlers: Registry = HANDLERS,
        config: WorkerConfig | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._core = core
        self.kinds = tuple(kinds)
        self.clock = clock
        self.handlers = handlers
        self.config = config or core.config.worker
        self._rng = rng or random.Random()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._next_reap: datetime | None = None
        self._processed = self._completed = self._failed = self._reaped = 0
        self._consecutive = 0
        self._last_error: str | None = None
        self._last_error_at: datetime | None = None

    # -- one job ------------------------------------------------------------------------
    def runnable_kinds(self) -> tuple[str, ...]:
        """The worker's kinds that have a handler: a job nothing here can run is left
        pending for a worker that can, instead of failing."""
        return tuple(k for k in self.kinds if self.handlers.handler_for(k) is not None)

    def run_once(self) -> Job | None:
        """Lease one runnable job, run its handler, and complete or fail it; the job as
        it ends, or None when nothing is runnable now."""
        store = self._core.store.jobs
        job = store.lease(self.runnable_kinds(), now=self.clock())
        if job is None:
            return None
        handler = self.handlers.handler_for(job.kind)
        try:
            if handler is None:  # unregistered between the lease and now
                raise LookupError(f"no handler for {shown(job.kind)} jobs")
            with job_run(job.id):  # a re-run after a kill writes no history twice
                result = dict(handler(self._core, job))
        except StoreClosedError:
            raise  # the Memory closed under the job: its lease will be reaped
        except Exception as exc:
            return self._failed_job(job, exc)
        try:
            finished = store.complete(job.id, result, now=self.clock(), attempt=job.attempts)
        except NotFoundError:
            # Reaped (and maybe leased again) while the handler ran: the newer lease
            # owns the job now, so this run is not recorded. Or erased with its memory:
            # what the handler wrote after the erase goes too.
            if self._swept(job):
                return None
            log.warning("job %s: its lease expired while it ran; result dropped", job.id)
            return store.get(job.id)
        except InvalidInputError as exc:  # the result is not JSON
            return self._failed_job(job, exc)
        self._processed += 1
        self._completed += 1
        self._consecutive = 0
        return finished

    def _failed_job(self, job: Job, exc: Exception) -> Job | None:
        error = describe(exc)
        now = self.clock()
        retry_at = now + timedelta(milliseconds=backoff_ms(job.attempts, self.config, self._rng))
        self._processed += 1
        self._failed += 1
        self._consecutive += 1
        self._last_error, self._last_error_at = f"job {job.id} ({job.kind}): {error}", now
        log.warning("job %s (%s) attempt %d failed: %s", job.id, job.kind, job.attempts, error)
        try:
            return self._core.store.jobs.fail(
                job.id, error, now=now, retry_at=retry_at, attempt=job.attempts
            )
        except NotFoundError:  # reaped meanwhile (the newer lease owns it), or erased
            self._swept(job)
            return self._core.store.jobs.get(job.id)

    def _swept(self, job: Job) -> bool:
        """Whether the job's memory (or document) was erased while it ran; what the job
        wrote after the erase is then erased too (``sweep_erased``, ``sweep_document``)."""
        if self._core.store.jobs.get(job.id) is not None:
            return False  # reaped, not erased: the job's row is still queued
        if job.memory_id is not None:
            swept = sweep_erased(self._core, job.namespace, job.memory_id)
        elif job.document_id is not None:  # an ingest: its chunks (left42)
            swept = sweep_document(self._core, job.namespace, job.document_id)
        else:
            return False
        if swept is None:
            return False  # the memory or document is there: not erased
        log.info(
            "job %s: its memory was erased while it ran; %d written since erased", job.id, swept
        )
        return True

    def reap(self) -> int:
        """Return leases older than ``lease_timeout_s`` (their worker died) to pending."""
        now = self.clock()
        count = self._core.store.jobs.reap(
            older_than=now - timedelta(seconds=self.config.lease_timeout_s), now=now
        )
        if count:
            log.warning("returned %d stale job leases to the queue", count)
        self._reaped += count
        return count

    def run_pending(self, limit: int | None = None) -> int:
        """Reap stale leases, then run jobs until none is runnable now (or ``limit``
        ran); returns how many ran. A failed job waits out its backoff, so it is not
        run again in the same call unless that backoff passes meanwhile."""
        self.reap()
        ran = 0
        while limit is None or ran < limit:
            if self.run_once() is None:
                break
            ran += 1
        return ran

    # -- the loop -----------------------------------------------------------------------
    def tick(self) -> float:
        """One turn of the loop: reap when due, run jobs while they are runnable and
        succeed; returns seconds until the next tick (``poll_ms``, or seed 004's backoff
        while failures run on)."""
        try:
            while not self._stop.is_set():
                now = self.clock()
                if self._next_reap is None or now >= self._next_reap:
                    self._next_reap = now + timedelta(seconds=self.config.reaper_interval_s)
                    self.reap()
                failed = self._failed
                if self.run_once() is None:
                    self._consecutive = 0  # idle: nothing is failing
                    break
                if self._failed > failed:
                    break
        except StoreClosedError:
            self._stop.set()
            return 0.0
        except Exception as exc:  # the store is unreachable: back off and try again
            self._consecutive += 1
            self._last_error, self._last_error_at = describe(exc), self.clock()
            log.warning("job worker tick failed: %s", exc)
        if self._consecutive:
            return backoff_ms(self._consecutive, self.config, self._rng) / 1000
        return self.config.poll_ms / 1000

    def _loop(self) -> None:
        delay = 0.0
        while not self._stop.wait(delay):
            delay = self.tick()

    def start(self) -> None:
        """Run the loop in a daemon thread (no-op if it runs)."""
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="engram-worker", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the loop after the job it is running; wait up to ``timeout`` seconds."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning("the job worker is still running a job after %.0f s", timeout)
        self._thread = None

    @property
    def running(self) -> bool:
        """True while the background loop runs."""
        return self._thread is not None and self._thread.is_alive()

    def stats(self) -> WorkerStats:
        """What this worker has done, and its latest error."""
        return WorkerStats(
            running=self.running,
            processed=self._processed,
            completed=self._completed,
            failed=self._failed,
            reaped=self._reaped,
            consecutive_failures=self._consecutive,
            last_error=self._last_error,
            last_error_at=self._last_error_at,
        )


#: The erase audit's actor for what a job wrote after an erase took its memory.
SWEEP_ACTOR = "pipeline"


def sweep_erased(core: Core, namespace: str, memory_id: str) -> int | None:
    """Erase what a pipeline job wrote from ``memory_id`` after an erase took it.

    A job reads its memory, works with no transaction open, then writes facts, history
    and review items in its own: an erase that commits meanwhile cannot see rows not yet
    written, so the facts (the customer's phone, "User lives in Lisbon") landed in the
    erased namespace after it (round thirty). The store's erase of the id takes the
    history and review rows written under it and every memory derived from it. Returns
    the memories erased (an audit row, actor ``pipeline``, records them), or None when
    the memory is still there (not erased: nothing swept). The one read of the memory
    is here (left42: the worker read it first as well)."""
    if core.store.memories.get(namespace, memory_id, include_deleted=True) is not None:
        return None
    return _erase_swept(core, namespace, [memory_id], {"source_memory_id": memory_id})


#: Chunk memories read per page while sweeping an erased document's.
SWEEP_PAGE = 1000


def sweep_document(core: Core, namespace: str, document_id: str) -> int | None:
    """Erase the chunks a ``document_ingest`` job wrote after an erase took its
    document (an erase of its namespace): the job reads the document, then stores its
    chunks as memories with no transaction open, so an erase between the two left the
    chunks in the erased namespace (pass40's notes). Every memory of the namespace that
    names the document (``metadata.document_id``) goes. Returns the memories erased
    (an audit row, actor ``pipeline``, records them; 0 and no row when the erase came
    before any chunk was written), or None when the document is still there."""
    store = core.store
    if store.documents.get(namespace, document_id) is not None:
        return None
    ids: list[str] = []
    while True:
        page = store.memories.select(
            namespace,
            ListQuery(
                metadata={"document_id": document_id},
                include_deleted=True,
                limit=SWEEP_PAGE,
                offset=len(ids),
            ),
        )
        ids.extend(r.id for r in page)
        if len(page) < SWEEP_PAGE:
            break
    if not ids:  # the erase came before any chunk was written: nothing to erase or audit
        return 0
    return _erase_swept(core, namespace, ids, {"document_id": document_id})


def _erase_swept(core: Core, namespace: str, ids: list[str], filters: dict[str, str]) -> int:
    """Erase what a job wrote after an erase (``ids``, and what derives from them), with
    an audit row of actor ``pipeline`` naming ``filters``; drop the namespace's index
    when a memory went. Returns the memories erased."""
    audit = core.store.erase.erase(namespace, ids, actor=SWEEP_ACTOR, filters=filters, now=utcnow())
    if core.index is not None and audit.memories:
        core.index.invalidate(namespace)
    return audit.memories

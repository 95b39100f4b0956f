"""The job worker (seed 004's Worker Model) on both backends, with time in the tests'
hands: a fake clock moves instead of the tests sleeping.

Handlers are registered through the real seam, a ``Registry`` given to the worker.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engram import Config, Memory
from engram.core import Core
from engram.errors import InvalidInputError
from engram.pipeline.handlers import Registry
from engram.pipeline.worker import Worker, backoff_ms, describe
from engram.settings import WorkerConfig
from engram.store import Store, open_store
from engram.store.protocols import Job

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The tests' clock: aware UTC time that moves only when told to."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def core(config: Config, any_store: Store) -> Core:
    """A core over each backend, without an embedder (handlers here need none)."""
    return Core(config, any_store, None)


def registry(**handlers: Any) -> Registry:
    out = Registry()
    for kind, handler in handlers.items():
        out.register(kind, handler)
    return out


def boom(core: Core, job: Job) -> Mapping[str, Any]:
    raise RuntimeError(f"model unreachable for job {job.id}")


def test_run_once_completes_the_job_with_the_handlers_result(core: Core) -> None:
    clock = Clock()
    seen: list[Job] = []

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        seen.append(job)
        return {"facts": 2, "memory": job.memory_id}

    job = core.store.jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    worker = Worker(core, clock=clock, handlers=registry(extract=extract))
    clock.advance(1)
    done = worker.run_once()
    assert done is not None and done.id == job.id
    assert (done.status, done.attempts, done.result) == (
        "completed",
        1,
        {"facts": 2, "memory": "m1"},
    )
    assert done.completed_at == clock.now
    assert [j.status for j in seen] == ["leased"]  # the handler sees its lease
    assert worker.run_once() is None
    assert worker.stats().completed == 1


def test_a_failing_handler_records_its_error_and_backs_off(core: Core) -> None:
    clock = Clock()
    cfg = core.config.worker
    job = core.store.jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    worker = Worker(core, clock=clock, handlers=registry(extract=boom), rng=random.Random(7))
    failed = worker.run_once()
    assert failed is not None and failed.status == "pending" and failed.attempts == 1
    assert failed.error == f"RuntimeError: model unreachable for job {job.id}"
    # seed 004: the first retry waits the 1 000 ms base plus up to 500 ms of jitter.
    wait = (failed.run_after - clock.now).total_seconds()  # type: ignore[operator]
    assert cfg.backoff_base_ms / 1000 <= wait <= (cfg.backoff_base_ms + cfg.jitter_ms) / 1000
    assert worker.run_once() is None  # backing off: not runnable yet
    clock.advance(wait)
    again = worker.run_once()
    assert again is not None and again.attempts == 2
    wait2 = (again.run_after - clock.now).total_seconds()  # type: ignore[operator]
    assert (
        2 * cfg.backoff_base_ms / 1000 <= wait2 <= (2 * cfg.backoff_base_ms + cfg.jitter_ms) / 1000
    )
    clock.advance(wait2)
    dead = worker.run_once()  # seed 004: max_attempts 3, then dead
    assert dead is not None and (dead.status, dead.attempts) == ("dead", 3)
    assert dead.failed_at == clock.now
    clock.advance(3600)
    assert worker.run_once() is None
    assert worker.stats().failed == 3


def test_the_backoff_doubles_to_its_cap_plus_jitter() -> None:
    cfg = WorkerConfig()
    no_jitter = WorkerConfig(jitter_ms=0)
    rng = random.Random(1)
    # seed 004: 1 000 ms doubling per failure, capped at 30 000 ms.
    assert [backoff_ms(n, no_jitter, rng) for n in range(1, 8)] == [
        1000,
        2000,
        4000,
        8000,
        16000,
        30000,
        30000,
    ]
    assert backoff_ms(10_000, no_jitter, rng) == 30000
    jittered = [backoff_ms(1, cfg, rng) for _ in range(200)]
    assert all(1000 <= d <= 1500 for d in jittered) and len(set(jittered)) > 100


def test_ticks_poll_when_idle_and_back_off_while_failures_run_on(core: Core) -> None:
    clock = Clock()
    cfg = WorkerConfig(poll_ms=2000, backoff_base_ms=1000, backoff_cap_ms=4000, jitter_ms=0)
    outcome = {"fail": True}

    def flaky(core: Core, job: Job) -> Mapping[str, Any]:
        if outcome["fail"]:
            raise RuntimeError("down")
        return {}

    worker = Worker(core, clock=clock, handlers=registry(extract=flaky), config=cfg)
    assert worker.tick() == 2.0  # idle: seed 004's workerPollMs
    delays = []
    for i in range(4):
        core.store.jobs.enqueue("extract", "default", memory_id=f"m{i}", now=clock.now)
        delays.append(worker.tick())
    assert delays == [1.0, 2.0, 4.0, 4.0]  # consecutive failures double up to the cap
    outcome["fail"] = False
    core.store.jobs.enqueue("extract", "default", memory_id="ok", now=clock.now)
    assert worker.tick() == 2.0  # a success ends the run of failures
    assert worker.stats().consecutive_failures == 0


def test_a_tick_drains_runnable_jobs_and_reaps_on_its_interval(core: Core) -> None:
    clock = Clock()
    cfg = WorkerConfig(lease_timeout_s=300, reaper_interval_s=60)
    ran: list[str | None] = []

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        ran.append(job.memory_id)
        return {}

    jobs = core.store.jobs
    for i in range(3):
        jobs.enqueue("extract", "default", memory_id=f"m{i}", now=T0)
    worker = Worker(core, clock=clock, handlers=registry(extract=extract), config=cfg)
    worker.tick()
    assert ran == ["m0", "m1", "m2"]
    # A worker elsewhere died holding a lease.
    orphan = jobs.enqueue("extract", "default", memory_id="orphan", now=clock.now)
    assert jobs.lease(["extract"], now=clock.now) is not None
    clock.advance(59)
    worker.tick()
    assert jobs.get(orphan.id).status == "leased"  # type: ignore[union-attr]
    clock.advance(1)  # the reaper's 60 s interval, but the lease is not 300 s old yet
    worker.tick()
    assert worker.stats().reaped == 0
    clock.advance(300)
    worker.tick()  # reaped, then run in the same tick
    assert worker.stats().reaped == 1 and ran[-1] == "orphan"
    assert jobs.get(orphan.id).attempts == 2  # type: ignore[union-attr]


def test_jobs_nothing_here_can_run_stay_pending(core: Core) -> None:
    job = core.store.jobs.enqueue("classify", "default", memory_id="m1", now=T0)
    worker = Worker(core, clock=Clock(), handlers=registry(extract=boom))
    assert worker.runnable_kinds() == ("extract",)
    assert worker.run_pending() == 0
    assert core.store.jobs.get(job.id).status == "pending"  # type: ignore[union-attr]


def test_run_pending_stops_when_nothing_is_runnable_now(core: Core) -> None:
    clock = Clock()
    ok = registry(extract=lambda core, job: {"id": job.id}, hints=boom)
    for i in range(5):
        core.store.jobs.enqueue("extract", "default", memory_id=f"m{i}", now=T0)
        core.store.jobs.enqueue("hints", "default", memory_id=f"m{i}", now=T0)
    worker = Worker(core, clock=clock, handlers=ok)
    assert worker.run_pending(limit=3) == 3
    assert worker.run_pending() == 7  # the failed hints wait out their backoff
    assert core.store.jobs.counts() == {"pending": 5, "leased": 0, "completed": 5, "dead": 0}


def test_the_handler_runs_with_no_transaction_open(core: Core) -> None:
    """seed 004: no model call inside a write transaction. From inside the handler,
    another thread writes to the job's own row; it would wait for ever behind a
    transaction the worker held (SQLite's write lock, PostgreSQL's row lock)."""
    outcome: dict[str, Any] = {}

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        def other_writer() -> None:
            try:
                core.store.jobs.retry(job.id, now=T0)
            except InvalidInputError as exc:  # reached the row: it is leased
                outcome["error"] = str(exc)

        thread = threading.Thread(target=other_writer)
        thread.start()
        thread.join(timeout=10)
        outcome["blocked"] = thread.is_alive()
        return {}

    core.store.jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    Worker(core, clock=Clock(), handlers=registry(extract=extract)).run_pending()
    assert outcome == {"blocked": False, "error": outcome["error"]}
    assert "leased" in outcome["error"]


def test_a_result_that_is_not_json_fails_the_job(core: Core) -> None:
    core.store.jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    worker = Worker(core, clock=Clock(), handlers=registry(extract=lambda c, j: {"x": object()}))
    failed = worker.run_once()
    assert failed is not None and failed.status == "pending"
    assert failed.error is not None and failed.error.startswith("InvalidInputError")


def test_a_job_reaped_while_it_ran_is_left_to_its_new_lease(core: Core) -> None:
    clock = Clock()

    def slow(core: Core, job: Job) -> Mapping[str, Any]:
        # Meanwhile the lease times out and another worker takes the job.
        clock.advance(301)
        core.store.jobs.reap(older_than=clock.now - timedelta(seconds=300), now=clock.now)
        assert core.store.jobs.lease(["extract"], now=clock.now) is not None
        return {"late": True}

    job = core.store.jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    after = Worker(core, clock=clock, handlers=registry(extract=slow)).run_once()
    assert after is not None and (after.status, after.attempts) == ("leased", 2)
    assert core.store.jobs.get(job.id).result is None  # type: ignore[union-attr]


def test_describe_keeps_errors_short() -> None:
    assert describe(ValueError("bad")) == "ValueError: bad"
    assert len(describe(RuntimeError("x" * 5000))) == 2000


def test_the_background_thread_runs_jobs_until_stopped(config: Config, tmp_path: Path) -> None:
    fast = config.with_overrides(worker={"poll_ms": 100})
    done = threading.Event()

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        done.set()
        return {}

    core = Core(fast, open_store(str(tmp_path / "bg.db"), fast), None)
    try:
        worker = Worker(core, handlers=registry(extract=extract))
        worker.start()
        worker.start()  # idempotent
        assert worker.running
        core.store.jobs.enqueue("extract", "default", memory_id="m1")
        assert done.wait(timeout=10)
        worker.stop()
        assert not worker.running
        assert core.store.jobs.counts()["completed"] == 1
    finally:
        core.close()


def test_memory_background_starts_the_worker_and_close_stops_it(config: Config) -> None:
    mem = Memory(":memory:", config=config, embedder=None, background=True)
    assert mem.jobs.running
    threads = [t for t in threading.enumerate() if t.name == "engram-worker"]
    mem.close()
    assert not mem.jobs.running
    assert all(not t.is_alive() for t in threads)
    with Memory(":memory:", config=config, embedder=None) as quiet:
        assert not quiet.jobs.running
        quiet.jobs.start()
        assert quiet.jobs.running
        quiet.jobs.stop()
        assert not quiet.jobs.running

"""The job queue part of both stores (seed 004's ``memory_jobs``): dedup, atomic lease,
attempts and dead jobs, the reaper, retry; the same tests on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from conftest import in_threads, opened_store, postgres_before
from engram import Config, InvalidInputError, NotFoundError
from engram.records import MemoryRecord
from engram.store import Store, open_store
from engram.store.protocols import JOB_STATUSES, JobStore
from engram.store.sql import migrations
from engram.store.sqlite.dialect import SQLITE
from engram.validate import build_record

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    """A moment ``seconds`` after T0 (the tests' clock)."""
    return T0 + timedelta(seconds=seconds)


def memory(content: str) -> MemoryRecord:
    return build_record(content, namespace="default", max_chars=1000)


def test_the_jobs_part_implements_its_protocol(any_store: Store) -> None:
    assert isinstance(any_store.jobs, JobStore)
    job = any_store.jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    assert (job.status, job.attempts, job.max_attempts) == ("pending", 0, 3)
    assert job.created_at == job.run_after == T0
    assert job.to_dict()["created_at"] == "2030-01-01T12:00:00Z"


def test_enqueue_dedups_a_pending_or_leased_job_of_the_same_kind(any_store: Store) -> None:
    jobs = any_store.jobs
    first = jobs.enqueue("extract", "default", memory_id="m1", payload={"a": 1}, now=T0)
    assert jobs.enqueue("extract", "default", memory_id="m1", now=at(1)).id == first.id
    other_kind = jobs.enqueue("hints", "default", memory_id="m1", now=at(1))
    other_memory = jobs.enqueue("extract", "default", memory_id="m2", now=at(1))
    assert len({first.id, other_kind.id, other_memory.id}) == 3
    leased = jobs.lease(["extract"], now=at(2))
    assert leased is not None and leased.id == first.id
    assert jobs.enqueue("extract", "default", memory_id="m1", now=at(3)).id == first.id
    jobs.complete(first.id, {"done": True}, now=at(4))
    # Once the job is finished, the memory may be queued again (e.g. after an update).
    again = jobs.enqueue("extract", "default", memory_id="m1", now=at(5))
    assert again.id != first.id and again.status == "pending"
    doc = jobs.enqueue("document_ingest", "default", document_id="d1", now=T0)
    assert jobs.enqueue("document_ingest", "default", document_id="d1", now=T0).id == doc.id
    assert jobs.counts()["pending"] == 4


def test_enqueue_commits_or_rolls_back_with_the_memory(any_store: Store) -> None:
    kept, lost = memory("Kept with its job"), memory("Lost with its job")
    with any_store.transaction():
        any_store.memories.insert([kept])
        any_store.jobs.enqueue("extract", kept.namespace, memory_id=kept.id, now=T0)
    with pytest.raises(RuntimeError), any_store.transaction():
        any_store.memories.insert([lost])
        any_store.jobs.enqueue("extract", lost.namespace, memory_id=lost.id, now=T0)
        raise RuntimeError("the caller failed after both writes")
    assert any_store.memories.get("default", kept.id) is not None
    assert any_store.memories.get("default", lost.id) is None
    assert [j.memory_id for j in any_store.jobs.select()] == [kept.id]


def test_lease_takes_the_oldest_runnable_job_and_counts_the_attempt(any_store: Store) -> None:
    jobs = any_store.jobs
    old = jobs.enqueue("extract", "default", memory_id="old", now=T0)
    new = jobs.enqueue("extract", "default", memory_id="new", now=at(10))
    hint = jobs.enqueue("hints", "default", memory_id="old", now=at(-10))
    assert jobs.lease(["extract"], now=at(5)).id == old.id  # type: ignore[union-attr]
    assert jobs.lease(["extract"], now=at(5)) is None  # "new" is not runnable until 10 s
    assert jobs.lease([], now=at(60)) is None
    taken = jobs.lease(["extract", "hints"], now=at(60))
    assert taken is not None and taken.id == hint.id  # oldest first across kinds
    taken = jobs.lease(["extract"], now=at(60))
    assert taken is not None and taken.id == new.id
    assert (taken.status, taken.attempts, taken.leased_at) == ("leased", 1, at(60))
    assert jobs.counts() == {"pending": 0, "leased": 3, "completed": 0, "dead": 0}


def test_fail_backs_off_then_keeps_the_job_dead(any_store: Store) -> None:
    jobs = any_store.jobs
    job = jobs.enqueue("extract", "default", memory_id="m1", max_attempts=2, now=T0)
    leased = jobs.lease(["extract"], now=T0)
    assert leased is not None
    failed = jobs.fail(job.id, "LlmError: timeout", now=at(1), retry_at=at(3))
    assert (failed.status, failed.attempts, failed.error) == ("pending", 1, "LlmError: timeout")
    assert (failed.run_after, failed.failed_at) == (at(3), at(1))
    assert jobs.lease(["extract"], now=at(2)) is None  # still backing off
    assert jobs.lease(["extract"], now=at(3)) is not None
    dead = jobs.fail(job.id, "LlmError: timeout again", now=at(4), retry_at=at(8))
    assert (dead.status, dead.attempts, dead.failed_at) == ("dead", 2, at(4))
    assert jobs.lease(["extract"], now=at(100)) is None  # dead jobs stay for audit
    assert jobs.get(job.id) == dead
    with pytest.raises(NotFoundError):
        jobs.complete(job.id, {}, now=at(101))


def test_finishing_checks_the_lease_is_still_the_callers(any_store: Store) -> None:
    jobs = any_store.jobs
    job = jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    first = jobs.lease(["extract"], now=T0)
    assert first is not None and first.attempts == 1
    assert jobs.reap(older_than=at(301), now=at(301)) == 1  # its worker looked dead
    second = jobs.lease(["extract"], now=at(302))
    assert second is not None and second.attempts == 2
    with pytest.raises(NotFoundError):  # the first worker finishes late: refused
        jobs.complete(job.id, {"by": "first"}, now=at(303), attempt=first.attempts)
    with pytest.raises(NotFoundError):
        jobs.fail(job.id, "late", now=at(303), retry_at=at(304), attempt=first.attempts)
    done = jobs.complete(job.id, {"by": "second"}, now=at(304), attempt=second.attempts)
    assert (done.status, done.result, done.completed_at) == ("completed", {"by": "second"}, at(304))


def test_reap_returns_stale_leases_and_buries_jobs_out_of_attempts(any_store: Store) -> None:
    jobs = any_store.jobs
    stale = jobs.enqueue("extract", "default", memory_id="stale", now=T0)
    fresh = jobs.enqueue("extract", "default", memory_id="fresh", now=at(1))
    last_try = jobs.enqueue("hints", "default", memory_id="x", max_attempts=1, now=at(2))
    for when in (0, 250, 2):
        assert jobs.lease(["extract", "hints"], now=at(when)) is not None
    # seed 004: leases older than the lease timeout (300 s) go back to pending.
    assert jobs.reap(older_than=at(300 - 300), now=at(300)) == 0
    assert jobs.reap(older_than=at(300 - 50), now=at(300)) == 2
    back = jobs.get(stale.id)
    assert back is not None and (back.status, back.attempts, back.run_after) == (
        "pending",
        1,
        at(300),
    )
    assert back.error is not None and "lease expired" in back.error
    assert jobs.get(fresh.id).status == "leased"  # type: ignore[union-attr]
    buried = jobs.get(last_try.id)  # its only attempt died with its worker
    assert buried is not None and buried.status == "dead"


def test_retry_revives_a_dead_job_with_its_attempts_reset(any_store: Store) -> None:
    jobs = any_store.jobs
    job = jobs.enqueue("extract", "default", memory_id="m1", max_attempts=1, now=T0)
    jobs.lease(["extract"], now=T0)
    jobs.fail(job.id, "boom", now=at(1), retry_at=at(2))
    revived = jobs.retry(job.id, now=at(10))
    assert (revived.status, revived.attempts, revived.run_after) == ("pending", 0, at(10))
    assert jobs.lease(["extract"], now=at(10)) is not None
    with pytest.raises(InvalidInputError, match="leased"):
        jobs.retry(job.id, now=at(11))
    jobs.complete(job.id, {}, now=at(12))
    with pytest.raises(InvalidInputError, match="completed"):
        jobs.retry(job.id, now=at(13))
    with pytest.raises(NotFoundError):
        jobs.retry(987654, now=at(13))


def test_retry_refuses_when_a_newer_job_holds_the_memory(any_store: Store) -> None:
    jobs = any_store.jobs
    old = jobs.enqueue("extract", "default", memory_id="m1", max_attempts=1, now=T0)
    jobs.lease(["extract"], now=T0)
    jobs.fail(old.id, "boom", now=at(1), retry_at=at(2))
    newer = jobs.enqueue("extract", "default", memory_id="m1", now=at(3))
    assert newer.id != old.id
    with pytest.raises(InvalidInputError, match="newer"):
        jobs.retry(old.id, now=at(4))


def test_select_counts_and_last_failure_by_namespace(any_store: Store) -> None:
    jobs = any_store.jobs
    a1 = jobs.enqueue("extract", "user:a", memory_id="a1", now=T0)
    jobs.enqueue("hints", "user:a", memory_id="a1", now=at(1))
    b1 = jobs.enqueue("extract", "user:b", memory_id="b1", now=at(2))
    assert [j.id for j in jobs.select(namespace="user:a", kind="extract")] == [a1.id]
    assert [j.namespace for j in jobs.select()] == ["user:b", "user:a", "user:a"]  # newest first
    assert len(jobs.select(limit=1, offset=1)) == 1
    assert jobs.counts("user:a") == {"pending": 2, "leased": 0, "completed": 0, "dead": 0}
    assert jobs.counts(kind="extract")["pending"] == 2
    assert set(jobs.counts()) == set(JOB_STATUSES)
    assert jobs.last_failure() is None
    for job, when in ((a1, 10), (b1, 20)):
        leased = jobs.lease([job.kind], now=at(when))
        assert leased is not None
        jobs.fail(leased.id, f"failed {job.namespace}", now=at(when), retry_at=at(999))
    assert jobs.last_failure().id == b1.id  # type: ignore[union-attr]
    assert jobs.last_failure("user:a").error == "failed user:a"  # type: ignore[union-attr]
    with pytest.raises(InvalidInputError):
        jobs.select(status="exploded")


def test_jobs_refuse_bad_input(any_store: Store) -> None:
    with pytest.raises(InvalidInputError):
        any_store.jobs.enqueue("", "default")
    with pytest.raises(InvalidInputError):
        any_store.jobs.enqueue("extract", "default", max_attempts=0)
    with pytest.raises(InvalidInputError):
        any_store.jobs.enqueue("extract", "default", payload={"x": object()})


def test_threads_leasing_together_never_share_a_job(any_store: Store) -> None:
    """Eight threads lease from one store (on PostgreSQL, eight pooled connections)."""
    for i in range(60):
        any_store.jobs.enqueue("extract", "default", memory_id=f"m{i}", now=T0)
    taken: list[int] = []
    lock = threading.Lock()

    def drain() -> None:
        while (job := any_store.jobs.lease(["extract"], now=at(1))) is not None:
            with lock:
                taken.append(job.id)

    in_threads(drain, 8, timeout=30)
    assert len(taken) == 60 and len(set(taken)) == 60


def test_threads_enqueueing_one_memory_leave_one_job(any_store: Store) -> None:
    ids: list[int] = []
    barrier = threading.Barrier(6)

    def enqueue() -> None:
        barrier.wait(timeout=10)
        ids.append(any_store.jobs.enqueue("extract", "default", memory_id="same", now=T0).id)

    in_threads(enqueue, 6, timeout=30)
    assert len(ids) == 6 and len(set(ids)) == 1
    assert any_store.jobs.counts()["pending"] == 1


def test_an_older_sqlite_store_gains_the_queue(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, SQLITE, upto="009_unembedded")
    conn.close()
    store = open_store(str(path), config)
    try:
        assert store.jobs.enqueue("extract", "default", memory_id="m1").id == 1
    finally:
        store.close()


@pytest.mark.postgres
def test_an_older_postgres_database_gains_the_queue(pg_server: object, config: Config) -> None:
    with postgres_before(pg_server, "006_jobs") as url, opened_store(url, config) as store:
        assert store.jobs.enqueue("extract", "default", memory_id="m1").status == "pending"


def test_enqueue_many_adds_what_enqueue_one_by_one_adds(any_store: Store) -> None:
    jobs = any_store.jobs
    held = jobs.enqueue("extract", "default", memory_id="m1", now=T0)
    done = jobs.enqueue("hints", "default", memory_id="m2", now=T0)
    assert jobs.lease(["hints"], now=at(1)) is not None
    jobs.complete(done.id, {}, now=at(2))
    wanted = [("extract", "default", "m1"), ("hints", "default", "m1")]
    wanted += [("extract", "other", "m2"), ("hints", "other", "m2")]
    assert jobs.enqueue_many(wanted, max_attempts=5, now=at(3)) == 3
    assert jobs.enqueue_many(wanted, now=at(4)) == 0  # all active now
    assert jobs.enqueue_many([], now=at(4)) == 0
    pending = jobs.select(status="pending")
    added = sorted((j for j in pending if j.id != held.id), key=lambda j: j.id)
    assert [(j.kind, j.namespace, j.memory_id) for j in added] == wanted[1:]
    for job in added:
        assert (job.payload, job.max_attempts, job.attempts) == ({}, 5, 0)
        assert job.created_at == job.run_after == at(3)
        assert job.document_id is None and job.result is None
    with pytest.raises(InvalidInputError):
        jobs.enqueue_many([("", "default", "m3")])
    with pytest.raises(InvalidInputError):
        jobs.enqueue_many([("extract", "default", "m3")], max_attempts=0)

"""The reads a recall needs only later run as one task (``workers.Batch``,
docs/benchmarks.md, "lat28"): on SQLite the shared space's count and the policy block
are read one after the other on one worker beside the model, so two threads run beside
it (this one and the keyword leg's), not three; each answers its own future; without
``one_task`` (PostgreSQL) each starts at once, so the round trips overlap."""

from __future__ import annotations

import threading
from concurrent.futures import CancelledError, Future
from pathlib import Path

import pytest

from engram import Config, Memory
from engram.errors import StoreClosedError
from engram.recall import waiting
from engram.recall.request import RecallRequest
from engram.recall.shared import SharedLeg
from engram.recall.workers import Batch, Workers
from hashembed import HashEmbedder

WAIT = 10.0  # seconds a step may take before the test calls it a hang


@pytest.fixture
def pool() -> Workers:
    workers = Workers(3, "batch-test")
    yield workers
    workers.close()


def _named(log: list[tuple[str, str]], what: str, answer: object = None) -> object:
    log.append((what, threading.current_thread().name))
    return answer


def test_a_batch_runs_its_reads_in_one_task_once_started(pool: Workers) -> None:
    log: list[tuple[str, str]] = []
    with Batch(pool, one_task=True) as batch:
        count = batch.submit(_named, log, "count", 3)
        block = batch.submit(_named, log, "block", "Policy")
        assert not log  # queued: nothing runs before the batch starts
    assert count.result(WAIT) == 3 and block.result(WAIT) == "Policy"
    assert [what for what, _ in log] == ["count", "block"]
    assert len({thread for _, thread in log}) == 1  # one worker woken, not two
    assert log[0][1] != threading.current_thread().name
    batch.start()  # already started: nothing runs twice
    later = batch.submit(_named, log, "later")  # after the start: at once
    later.result(WAIT)
    assert [what for what, _ in log] == ["count", "block", "later"]


def test_each_read_answers_its_own_future_as_it_ends(pool: Workers) -> None:
    release = threading.Event()
    batch = Batch(pool, one_task=True)
    first = batch.submit(lambda: "counted")
    slow = batch.submit(release.wait, WAIT)
    batch.start()
    assert first.result(WAIT) == "counted"  # not held back by the read after it
    assert not slow.done()
    release.set()
    assert slow.result(WAIT) is True


def test_a_failing_read_fails_only_its_own_future(pool: Workers) -> None:
    def broken() -> int:
        raise ValueError("the count failed")

    with Batch(pool, one_task=True) as batch:
        count = batch.submit(broken)
        block = batch.submit(lambda: "Policy")
    with pytest.raises(ValueError, match="the count failed"):
        count.result(WAIT)
    assert block.result(WAIT) == "Policy"


def test_an_empty_batch_and_a_failed_block_start_nothing(pool: Workers) -> None:
    Batch(pool, one_task=True).start()  # nothing queued: nothing submitted, no error
    ran: list[str] = []
    with pytest.raises(RuntimeError, match="before the start"), Batch(pool, one_task=True) as b:
        never = b.submit(ran.append, "Policy")
        also = b.submit(ran.append, "count")
        raise RuntimeError("before the start")
    # The recall failed before its reads were needed: they never run, but their futures
    # end, so a later reader is told so at once instead of waiting forever.
    for future in (never, also):
        assert future.cancelled()
        with pytest.raises(CancelledError):
            future.result(timeout=0)
    b.start()  # already ended: nothing starts
    assert not ran


def test_a_batch_that_cannot_start_ends_its_futures_with_the_error() -> None:
    closed = Workers(1, "batch-closed")
    with Batch(closed, one_task=True) as batch:
        count = batch.submit(lambda: 3)
        closed.close()  # the store closed between the submit and the start
        # leaving the block starts the batch, which raises the closed store's error
        with pytest.raises(StoreClosedError):
            batch.start()
    with pytest.raises(StoreClosedError):
        count.result(timeout=0)  # the reader sees why, not a wait forever


def test_without_one_task_each_read_starts_at_once(pool: Workers) -> None:
    started = threading.Event()
    batch = Batch(pool, one_task=False)  # PostgreSQL: round trips overlap
    read: Future[bool] = batch.submit(started.set)
    read.result(WAIT)  # no ``start`` needed
    assert started.is_set()


def test_a_recall_without_a_keyword_leg_reads_them_too(tmp_path: Path, config: Config) -> None:
    # The dense strategy starts no keyword leg: the batch still runs (and the recall
    # does not wait forever for its futures). Which thread reads what: test_fuse_ahead.
    with Memory(tmp_path / "m.db", config=config, embedder=HashEmbedder()) as mem:
        mem.add("zebras cross the river in march")
        mem.shared.publish("bob", "the zebra crossing guide, published for every agent")
        mem._core.retriever.preamble = lambda: "Policy: be brief."
        found = mem.recall("zebra river march", strategy="dense", abstain=False)
    assert found.context.startswith("Policy: be brief.")
    assert found.hits


def test_the_shared_count_joins_the_batch_only_when_it_queues(pool: Workers) -> None:
    threads: list[str] = []

    def count(namespace: str) -> int:
        threads.append(threading.current_thread().name)
        return 0

    leg = SharedLeg(count)
    request = RecallRequest(query="q", namespace="ns", limit=4, shared="shared:default")
    try:
        # PostgreSQL: not queued, on the shared leg's own thread as before.
        assert leg.probe(request, Batch(pool, one_task=False)).result(WAIT) == 0
        with Batch(pool, one_task=True) as batch:
            queued = leg.probe(request, batch)
            assert not threads[1:]  # queued until the batch starts
        assert queued.result(WAIT) == 0
    finally:
        leg.close()
    assert threads[0].startswith("engram-shared") and threads[1].startswith("batch-test")


def test_the_unembedded_count_joins_the_batch_only_when_it_queues(pool: Workers) -> None:
    class Vectors:
        def __init__(self) -> None:
            self.threads: list[str] = []

        def unembedded(self, namespace: str) -> int:
            self.threads.append(threading.current_thread().name)
            return 2

    vectors = Vectors()
    # PostgreSQL: not started ahead; the dense leg reads it after its search, in line.
    assert waiting.count_bare(Batch(pool, one_task=False), vectors, "ns") is None  # type: ignore[arg-type]
    assert waiting.unembedded(vectors, "ns", None) == 2  # type: ignore[arg-type]
    with Batch(pool, one_task=True) as batch:
        queued = waiting.count_bare(batch, vectors, "ns")  # type: ignore[arg-type]
        assert queued is not None and len(vectors.threads) == 1  # queued, not run yet
    assert waiting.unembedded(vectors, "ns", queued) == 2  # type: ignore[arg-type]
    main = threading.current_thread().name
    assert vectors.threads[0] == main and vectors.threads[1].startswith("batch-test")

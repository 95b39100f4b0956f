"""The reads a recall needs only later queued behind its keyword leg (``workers.Behind``,
docs/benchmarks.md, "lat28"): on SQLite they run after the leg on its worker, one thread
beside the model instead of three; each answers its own future, the leg's as soon as it
ends; without queueing (PostgreSQL) each starts at once."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path

import pytest

from engram import Config, Memory
from engram.recall import ranking
from engram.recall.workers import Behind, Workers
from hashembed import HashEmbedder

WAIT = 10.0  # seconds a step may take before the test calls it a hang
FROZEN = datetime.fromisoformat("2026-12-01T00:00:00+00:00")


@pytest.fixture
def pool() -> Workers:
    workers = Workers(3, "behind-test")
    yield workers
    workers.close()


def _named(log: list[tuple[str, str]], what: str, answer: object = None) -> object:
    log.append((what, threading.current_thread().name))
    return answer


def test_queued_reads_run_after_the_first_on_its_worker(pool: Workers) -> None:
    log: list[tuple[str, str]] = []
    behind = Behind(pool, queue=True)
    count = behind.submit(_named, log, "count", 3)
    block = behind.submit(_named, log, "block", "Policy")
    assert not log  # queued: nothing runs before the keyword leg starts
    leg = behind.first(_named, log, "leg", ["a", "b"])
    assert leg.result(WAIT) == ["a", "b"]
    assert count.result(WAIT) == 3 and block.result(WAIT) == "Policy"
    assert [what for what, _ in log] == ["leg", "count", "block"]
    assert len({thread for _, thread in log}) == 1  # one worker woken, not three
    behind.start()  # the queue went with the leg: nothing runs twice
    later = behind.submit(_named, log, "later")  # after the start: at once
    later.result(WAIT)
    assert [what for what, _ in log] == ["leg", "count", "block", "later"]


def test_the_first_answers_before_the_reads_behind_it(pool: Workers) -> None:
    release = threading.Event()
    behind = Behind(pool, queue=True)
    slow = behind.submit(release.wait, WAIT)
    leg = behind.first(lambda: "ranked")
    assert leg.result(WAIT) == "ranked"  # the recall never waits for the reads behind
    assert not slow.done()
    release.set()
    assert slow.result(WAIT) is True


def test_a_failing_read_behind_fails_only_its_own_future(pool: Workers) -> None:
    def broken() -> int:
        raise ValueError("the count failed")

    behind = Behind(pool, queue=True)
    count = behind.submit(broken)
    block = behind.submit(lambda: "Policy")
    leg = behind.first(lambda: ["a"])
    assert leg.result(WAIT) == ["a"]
    with pytest.raises(ValueError, match="the count failed"):
        count.result(WAIT)
    assert block.result(WAIT) == "Policy"


def test_start_runs_the_queue_when_no_keyword_leg_took_it(pool: Workers) -> None:
    behind = Behind(pool, queue=True)
    block = behind.submit(lambda: "Policy")
    behind.start()
    assert block.result(WAIT) == "Policy"
    empty = Behind(pool, queue=True)
    empty.start()  # nothing queued: nothing submitted, nothing fails


def test_without_queueing_each_read_starts_at_once(pool: Workers) -> None:
    started = threading.Event()
    behind = Behind(pool, queue=False)  # PostgreSQL: round trips overlap
    read: Future[bool] = behind.submit(started.set)
    read.result(WAIT)  # no ``first`` or ``start`` needed
    assert started.is_set()


def test_a_recall_reads_the_count_and_block_behind_its_keyword_leg(
    tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ranking, "utcnow", lambda: FROZEN)
    cfg = config.with_overrides(recall={"keyword_index_min": 5, "keyword_index_background": False})
    with Memory(tmp_path / "m.db", config=cfg, embedder=HashEmbedder()) as mem:
        mem.add_many([f"the harbor train {i} leaves at noon" for i in range(20)])
        published = "the harbor train leaves at noon, published for every agent"
        mem.shared.publish("bob", published)
        retriever = mem._core.retriever
        threads: dict[str, str] = {}
        count, search = retriever.memories.count, retriever.keyword.search

        def counted(namespace: str, **options: object) -> int:
            threads["count"] = threading.current_thread().name
            return count(namespace, **options)  # type: ignore[arg-type]

        def searched(namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
            threads.setdefault("leg", threading.current_thread().name)
            return search(namespace, match, limit)

        def block() -> str:
            threads["block"] = threading.current_thread().name
            return "Policy: be brief."

        before = mem.recall("harbor train noon", abstain=False)
        monkeypatch.setattr(retriever.memories, "count", counted)
        monkeypatch.setattr(retriever.keyword, "search", searched)
        retriever.preamble = block
        found = mem.recall("harbor train noon", abstain=False)
        assert published in [h.memory.content for h in found.hits]
        assert found.context == f"Policy: be brief.\n\n{before.context}"
        assert [h.to_dict() for h in found.hits] == [h.to_dict() for h in before.hits]
        main = threading.current_thread().name
        assert threads["leg"] != main
        assert threads["count"] == threads["leg"] and threads["block"] == threads["leg"]


@pytest.mark.parametrize("strategy", ["dense", "hybrid"])
def test_the_queued_reads_run_with_or_without_a_keyword_leg(
    tmp_path: Path, config: Config, strategy: str
) -> None:
    with Memory(tmp_path / "m.db", config=config, embedder=HashEmbedder()) as mem:
        mem.add("zebras cross the river in march")
        published = "the zebra crossing guide, published for every agent"
        mem.shared.publish("bob", published)
        mem._core.retriever.preamble = lambda: "Policy: be brief."
        # The dense leg alone starts no keyword leg: the queue starts after the legs.
        found = mem.recall("zebra river march", strategy=strategy, abstain=False)
    assert found.context.startswith("Policy: be brief.")
    assert published in [h.memory.content for h in found.hits]

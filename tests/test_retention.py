"""``mem.lifecycle`` retention (seed 002 rules, seed 004 worker; FEATURES S9): the
resolution order, expiry, the sweep's strict order, batches of 500 in short
transactions, and the grace windows — on both backends, with a hand-moved clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import NO_PIPELINE, section_config
from engram import Memory
from engram.config import Config
from engram.errors import InvalidInputError
from engram.lifecycle import STEPS
from engram.lifecycle.retention import BATCH, resolve
from engram.settings import LifecycleConfig
from engram.store.protocols.lifecycle import SWEEP_STEPS

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def _config(tmp_path: Path, **lifecycle: Any) -> Config:
    return section_config(tmp_path, NO_PIPELINE, "lifecycle", lifecycle)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _open(tmp_path: Path, store_location: str, clock: Clock, **lifecycle: Any) -> Memory:
    mem = Memory(store_location, config=_config(tmp_path, **lifecycle), embedder=None)
    mem.lifecycle.clock = clock
    return mem


@pytest.fixture
def mem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    with _open(tmp_path, store_location, clock) as m:
        yield m


def _add(mem: Memory, n: int, *, category: str | None, age_days: float, ns: str = "a") -> None:
    items = [
        {"content": f"note {category} {age_days} {i}", "created_at": T0 - timedelta(days=age_days)}
        | ({"category": category} if category else {})
        for i in range(n)
    ]
    mem.add_many(items, namespace=ns)


# -- the rules -----------------------------------------------------------------------
def test_resolution_order_is_agent_category_company_category_agent_global_company_global() -> None:
    company = LifecycleConfig(episodic_retention_days=20, retention_days=90)
    agent = {"episodic": 5, "*": 30}
    assert resolve("episodic", agent, company) == 5  # 1. agent per-category
    assert resolve("episodic", {"*": 30}, company) == 20  # 2. company per-category
    assert resolve("semantic", agent, company) == 30  # 3. agent global
    assert resolve("semantic", {}, company) == 90  # 4. company global
    assert resolve("semantic", {}, LifecycleConfig()) is None  # 5. forever (seed default)
    assert resolve(None, {"episodic": 5}, company) == 90  # uncategorised: global only


def test_rules_and_overrides_through_the_part(mem: Memory) -> None:
    assert set(mem.lifecycle.rules(namespace="a").values()) == {None}
    mem.lifecycle.set_retention(7, category="working", namespace="a")
    rules = mem.lifecycle.set_retention(60, namespace="a")
    assert rules["working"] == 7 and rules["episodic"] == 60 and rules["*"] == 60
    assert mem.lifecycle.rules(namespace="b")["working"] is None  # per agent
    rules = mem.lifecycle.set_retention(None, category="working", namespace="a")
    assert rules["working"] == 60
    with pytest.raises(InvalidInputError, match="category must be one of"):
        mem.lifecycle.set_retention(3, category="nonsense", namespace="a")
    with pytest.raises(InvalidInputError):
        mem.lifecycle.set_retention(0, namespace="a")


def test_expired_memories_are_tombstoned_then_purged_after_the_grace(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    with _open(tmp_path, store_location, clock, working_retention_days=7) as mem:
        _add(mem, 3, category="working", age_days=10)
        _add(mem, 2, category="working", age_days=1)
        _add(mem, 2, category="semantic", age_days=400)
        report = mem.lifecycle.retention()
        assert report.steps["expired"] == 3
        assert mem.store.memories.count("a") == 4
        assert mem.store.memories.count("a", include_deleted=True) == 7  # tombstones wait
        gone = [r for r in mem.store.memories.select("a", _deleted()) if r.deleted]
        history = mem.store.memories.history("a", gone[0].id)
        assert history[-1].event == "expire" and history[-1].actor == "engram-retention"
        clock.now += timedelta(days=29)
        assert mem.lifecycle.retention().steps["tombstones"] == 0  # seed 004: 30 days
        clock.now += timedelta(days=2)
        assert mem.lifecycle.retention().steps["tombstones"] == 3
        assert mem.store.memories.count("a", include_deleted=True) == 4


def _deleted() -> Any:
    from engram.store.protocols import ListQuery

    return ListQuery(include_deleted=True, newest_first=False, limit=100)


def test_the_sweep_runs_in_seed_order() -> None:
    assert SWEEP_STEPS == (
        "graph_links",
        "embeddings",
        "tombstones",
        "history",
        "completed_jobs",
        "dead_jobs",
    )
    assert ("expired", "archive_expired", "archive_compacted", *SWEEP_STEPS) == STEPS


class Recorder:
    """Wraps the store's lifecycle part: records every call, in order."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[tuple[str, str | None, int | None]] = []

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if name not in ("sweep", "expire"):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            out = target(*args, **kwargs)
            step = args[0] if name == "sweep" else None
            self.calls.append((name, step, kwargs.get("limit")))
            return out

        return call


def test_each_step_is_its_own_call_of_at_most_500_rows_in_order(mem: Memory) -> None:
    recorder = Recorder(mem.store.lifecycle)
    mem.store.lifecycle = recorder  # type: ignore[misc]
    mem.lifecycle.retention()
    assert [c[1] for c in recorder.calls if c[0] == "sweep"] == list(SWEEP_STEPS)
    assert all(limit is not None and limit <= BATCH for _, _, limit in recorder.calls)
    assert BATCH == 500


def test_more_than_a_batch_is_caught_by_the_next_sweeps(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    with _open(tmp_path, store_location, clock, retention_days=1) as mem:
        _add(mem, 1200, category=None, age_days=5)
        steps = [mem.lifecycle.retention().steps["expired"] for _ in range(3)]
        assert steps == [500, 500, 200]
        clock.now += timedelta(days=31)
        purged = [mem.lifecycle.retention().steps["tombstones"] for _ in range(3)]
        assert purged == [500, 500, 200]


def test_every_step_is_one_short_transaction(tmp_path: Path, clock: Clock) -> None:
    """SQLite: each step begins its own write transaction (BEGIN IMMEDIATE)."""
    with _open(tmp_path, ":memory:", clock, retention_days=1) as mem:
        _add(mem, 3, category=None, age_days=5)
        db = mem.store._db  # type: ignore[attr-defined]
        begins: list[str] = []
        db.conn.set_trace_callback(
            lambda sql: begins.append(sql) if sql.startswith("BEGIN") else None
        )
        report = mem.lifecycle.retention()
        db.conn.set_trace_callback(None)
    assert report.steps["expired"] == 3
    # two expiry calls (live, archived) and seed 004's six steps: one transaction each
    assert len(begins) == 2 + len(SWEEP_STEPS)


def test_history_and_jobs_have_their_own_windows(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))  # the pipeline queues jobs
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.lifecycle.clock = clock  # the store stamps history and the job by it too
        mem.add("a memory the pipeline will work on", namespace="a")
        done_at = T0 + timedelta(minutes=1)
        leased = mem.store.jobs.lease(["extract"], now=done_at)
        assert leased is not None
        mem.store.jobs.complete(leased.id, {}, now=done_at)
        before = mem.store.lifecycle.sizes()["memory_history"]
        assert before > 0
        clock.now = done_at + timedelta(days=13)
        assert mem.lifecycle.retention().steps["completed_jobs"] == 0  # seed 004: 14 days
        clock.now = done_at + timedelta(days=15)
        assert mem.lifecycle.retention().steps["completed_jobs"] == 1
        assert mem.lifecycle.retention().steps["history"] == 0  # seed 004: 180 days
        clock.now = T0 + timedelta(days=181)
        assert mem.lifecycle.retention().steps["history"] == before


def test_archived_originals_expire_by_the_same_rules(mem: Memory, clock: Clock) -> None:
    mem.lifecycle.set_retention(30, namespace="a")
    _add(mem, 4, category="episodic", age_days=40)
    summary = mem.add("the summary", namespace="a")
    originals = mem.store.memories.select("a", _deleted().__class__(limit=4, newest_first=False))
    mem.store.lifecycle.archive(
        "a",
        [o for o in originals if o.id != summary.id],
        summary_id=summary.id,
        mode="extractive",
        now=T0,
    )
    report = mem.lifecycle.retention()
    assert report.steps["archive_expired"] == 4
    assert mem.store.lifecycle.counts("a") == {}

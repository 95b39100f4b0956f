"""The store stays bounded over time (issue 16): the clock seam that stamps history,
tombstones and queued jobs by the lifecycle's clock, and archive compaction past
``archive_max_per_agent`` — on both backends, with a hand-moved clock (no sleeps)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from conftest import bearer_client as client
from engram import Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.config import Config
from engram.errors import NotFoundError
from engram.records import utcnow
from engram.store.protocols.lifecycle import COMPACT_EVENT

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
NS = "agent:a"


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def _open(tmp_path: Path, store_location: str, clock: Clock | None, **lifecycle: Any) -> Memory:
    env = {"ENGRAM_PIPELINE_ENABLED": "false"}
    config = Config.load(env=env, home=str(tmp_path / "home")).with_overrides(
        lifecycle={"max_memories_per_agent": 5, "group_size": 3, **lifecycle}
    )
    mem = Memory(store_location, config=config, embedder=None)
    if clock is not None:
        mem.lifecycle.clock = clock
    return mem


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def mem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    with _open(tmp_path, store_location, clock, archive_max_per_agent=4) as m:
        yield m


def _fill(mem: Memory, n: int = 14) -> list[str]:
    """``n`` memories a day apart, the oldest first; returns their ids."""
    items = [
        {"content": f"day {i}: the deploy of service s{i} went fine", "created_at": T0
         - timedelta(days=n - i)}
        for i in range(n)
    ]  # fmt: skip
    return [r.id for r in mem.add_many(items, namespace=NS)]


def _consolidated(mem: Memory) -> tuple[list[str], dict[str, str]]:
    """``_fill``'s ids, consolidated: each archived original's summary, by original."""
    ids = _fill(mem)
    done = mem.lifecycle.consolidate(namespace=NS)
    return ids, {e.original_id: e.summary_id for e in done.archival_index}


# -- the clock seam -------------------------------------------------------------------
def test_history_rows_are_stamped_by_the_moved_clock_and_pruned_after_180_days(
    mem: Memory, clock: Clock
) -> None:
    kept = mem.add("a memory written at the simulated time", namespace=NS)
    [create] = mem.store.memories.history(NS, kept.id)
    assert create.created_at == T0  # the lifecycle's clock, not the wall clock
    clock.now = T0 + timedelta(days=179)
    assert mem.lifecycle.retention().steps["history"] == 0  # seed 004: 180 days
    clock.now = T0 + timedelta(days=181)
    assert mem.lifecycle.retention().steps["history"] == 1
    assert mem.store.memories.history(NS, kept.id) == []
    assert mem.get(kept.id, namespace=NS).content == kept.content  # the memory stays


def test_tombstones_are_stamped_by_the_moved_clock_and_purged_after_30_days(
    mem: Memory, clock: Clock
) -> None:
    gone = mem.add("a memory deleted at the simulated time", namespace=NS)
    mem.delete(gone.id, namespace=NS)
    tomb = mem.store.memories.get(NS, gone.id, include_deleted=True)
    assert tomb is not None and tomb.deleted_at == T0
    clock.now = T0 + timedelta(days=29)
    assert mem.lifecycle.retention().steps["tombstones"] == 0
    clock.now = T0 + timedelta(days=31)
    assert mem.lifecycle.retention().steps["tombstones"] == 1
    assert mem.store.memories.get(NS, gone.id, include_deleted=True) is None


def test_queued_jobs_are_stamped_by_the_moved_clock(mem: Memory) -> None:
    job = mem.store.jobs.enqueue("extract", NS, memory_id="m1")
    assert job.created_at == T0


def test_without_a_moved_clock_the_store_stamps_the_wall_clock(
    tmp_path: Path, store_location: str
) -> None:
    with _open(tmp_path, store_location, None) as mem:
        assert mem.lifecycle.clock is utcnow and mem.store.clock is utcnow
        before = utcnow()
        made = mem.add("a memory written now", namespace=NS)
        [create] = mem.store.memories.history(NS, made.id)
        assert before <= create.created_at <= utcnow()


# -- archive compaction ---------------------------------------------------------------
def test_the_sweep_compacts_the_oldest_archived_originals_beyond_the_cap(
    mem: Memory, clock: Clock
) -> None:
    ids = _fill(mem)
    done = mem.lifecycle.consolidate(namespace=NS)
    assert done.archived == 14 and mem.store.lifecycle.counts(NS) == {NS: 14}
    clock.now = T0 + timedelta(hours=6)
    report = mem.lifecycle.retention()
    assert report.steps["archive_compacted"] == 10  # 14 archived, cap 4
    assert list(report.steps).index("archive_compacted") == 2  # after the rules
    kept = {e.original_id for e in mem.lifecycle.archived(namespace=NS)}
    assert kept == set(ids[-4:])  # the newest four originals stay verbatim
    # every summary stays live, so what the compacted originals said is still recalled
    assert all(mem.store.memories.get(NS, s) is not None for s in done.summaries)
    # the audit: one compact row per dropped original, naming its summary, at the clock
    summary_of = {e.original_id: e.summary_id for e in done.archival_index}
    for original in ids[:10]:
        [row] = [h for h in mem.store.memories.history(NS, original) if h.event == COMPACT_EVENT]
        assert row.created_at == clock.now and row.actor == "engram-lifecycle"
        assert row.after is not None and row.after["summary_id"] == summary_of[original]
        assert summary_of[original] in (row.reason or "")
    assert mem.lifecycle.retention().steps["archive_compacted"] == 0  # at the cap now


def test_restoring_a_compacted_original_says_when_and_which_summary_holds_it(
    mem: Memory, clock: Clock
) -> None:
    ids, summary_of = _consolidated(mem)
    clock.now = T0 + timedelta(days=1)
    mem.lifecycle.retention()
    with pytest.raises(NotFoundError) as caught:
        mem.lifecycle.restore(ids[0], namespace=NS)
    message = str(caught.value)
    assert "compacted at 2026-01-02T09:00:00" in message
    assert summary_of[ids[0]] in message and "archive_max_per_agent" in message
    # a kept original still comes back exactly
    [back] = mem.lifecycle.restore(ids[-1], namespace=NS)
    assert back.id == ids[-1] and back.content.startswith("day 13:")


def test_a_summary_whose_originals_were_compacted_is_kept_on_restore(
    mem: Memory, clock: Clock
) -> None:
    ids, summary_of = _consolidated(mem)
    mixed = summary_of[ids[-4]]  # holds kept originals and, being a run of 3, older ones
    members = [o for o, s in summary_of.items() if s == mixed]
    assert any(o in ids[:10] for o in members) and any(o in ids[-4:] for o in members)
    mem.lifecycle.retention()
    restored = mem.lifecycle.restore(mixed, namespace=NS)
    assert {r.id for r in restored} == {o for o in members if o in ids[-4:]}
    # the summary is all that holds the compacted ones: it stays
    assert mem.store.memories.get(NS, mixed) is not None
    with pytest.raises(NotFoundError, match="no archived originals left"):
        mem.lifecycle.restore(mixed, namespace=NS)


def test_once_the_audit_aged_out_restore_still_names_the_summary(mem: Memory, clock: Clock) -> None:
    ids, summary_of = _consolidated(mem)
    mem.lifecycle.retention()
    clock.now = T0 + timedelta(days=181)
    assert mem.lifecycle.retention().steps["history"] > 0  # the compact rows go too
    with pytest.raises(NotFoundError, match="no longer in the archive") as caught:
        mem.lifecycle.restore(ids[0], namespace=NS)
    assert summary_of[ids[0]] in str(caught.value)
    with pytest.raises(NotFoundError, match="neither an archived memory nor a summary"):
        mem.lifecycle.restore("0" * 32, namespace=NS)


def test_retention_rules_apply_before_the_cap(mem: Memory, clock: Clock) -> None:
    _fill(mem)
    mem.lifecycle.consolidate(namespace=NS)
    mem.lifecycle.set_retention(12, namespace=NS)  # originals 13 and 14 days old expire
    report = mem.lifecycle.retention()
    assert report.steps["archive_expired"] == 2
    assert report.steps["archive_compacted"] == 8  # 12 left, cap 4
    assert mem.store.lifecycle.counts(NS) == {NS: 4}


def test_null_keeps_the_whole_archive(tmp_path: Path, store_location: str, clock: Clock) -> None:
    with _open(tmp_path, store_location, clock, archive_max_per_agent=None) as mem:
        _fill(mem)
        mem.lifecycle.consolidate(namespace=NS)
        clock.now = T0 + timedelta(days=400)
        assert mem.lifecycle.retention().steps["archive_compacted"] == 0
        assert mem.store.lifecycle.counts(NS) == {NS: 14}


def test_the_store_step_is_batch_limited_and_per_namespace(mem: Memory) -> None:
    _fill(mem)
    mem.lifecycle.consolidate(namespace=NS)
    lifecycle = mem.store.lifecycle
    assert lifecycle.compact("other", keep=0, now=T0, limit=10) == []
    first = lifecycle.compact(NS, keep=4, now=T0, limit=3)
    assert len(first) == 3 and lifecycle.counts(NS) == {NS: 11}
    ages = [e.original_created_at for e in first]
    assert ages == sorted(ages)  # oldest first
    rest = lifecycle.compact(NS, keep=4, now=T0, limit=500)
    assert len(rest) == 7 and lifecycle.counts(NS) == {NS: 4}
    assert min(e.original_created_at for e in lifecycle.entries(NS)) > max(
        e.original_created_at for e in rest
    )


def test_an_empty_setting_turns_compaction_off(tmp_path: Path) -> None:
    env = {"ENGRAM_LIFECYCLE_ARCHIVE_MAX_PER_AGENT": ""}
    assert Config.load(env=env, home=str(tmp_path)).lifecycle.archive_max_per_agent is None
    assert Config.load(env={}, home=str(tmp_path)).lifecycle.archive_max_per_agent == 10_000


def test_over_http_the_sweep_counts_it_and_restore_is_a_404_that_says_why(
    config: Config, clock: Clock
) -> None:
    small = {"max_memories_per_agent": 5, "group_size": 3, "archive_max_per_agent": 4}
    settings = config.with_overrides(
        lifecycle={**small, "consolidation_interval": "never"}, pipeline={"enabled": False}
    )
    with Memory(":memory:", config=settings, embedder=HashEmbedder()) as mem:
        mem.lifecycle.clock = clock
        alice = mem.keys.create("alice")[1]
        admin = mem.keys.create("root", admin=True)[1]
        ns = "user:alice"
        items = [
            {"content": f"Alice planted tomato row {i}", "created_at": T0 - timedelta(days=9 - i)}
            for i in range(9)
        ]
        first = mem.add_many(items, namespace=ns)[0].id
        done = mem.lifecycle.consolidate(namespace=ns)
        assert done.archived > 4
        with (
            serve_in_thread(create_app(mem, worker=False)) as url,
            client(url, alice) as user,
            client(url, admin) as root,
        ):
            sweep = root.post("/v1/lifecycle/retention").json()
            assert sweep["steps"]["archive_compacted"] == done.archived - 4
            status = user.get("/v1/lifecycle/status").json()
            assert status["archived"] == 4 and status["archive_max_per_agent"] == 4
            gone = user.post(f"/v1/lifecycle/restore/{first}")
            assert gone.status_code == 404
            assert "compacted at 2026-01-01T09:00:00" in gone.text

"""``mem.maintenance``: seed 004's diagnostics and health score, observe and execute
modes, cooldowns and hourly budgets, the halt tracker, recorded runs, the schedule and
semantic dedup at 0.92 — on both backends, with time moved by hand (no sleeps)."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import (
    NO_PIPELINE,
    Clock,
    postgres_before,
    run_doc_example,
    section_config,
    sqlite_before,
)
from engram import Memory
from engram.config import Config
from engram.embed.base import BaseEmbedder, Vectors
from engram.errors import CapabilityError, ConfigError, InvalidInputError

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)


def _unit(x: float, axis: int) -> list[float]:
    """A unit vector at cosine ``x`` to e0, leaning towards ``axis``."""
    v = [0.0] * 8
    v[0] = x
    v[axis] = math.sqrt(1 - x * x)
    return v


class TableEmbedder(BaseEmbedder):
    """Vectors chosen by the test: a text holding a key gets that key's vector, so
    cosines between memories are exact (0.92 at the boundary)."""

    name = "test-table"
    dimension = 8
    TABLE = {
        "alpha": _unit(1.0, 1),
        "beta": _unit(0.92, 1),  # cosine 0.92 to alpha: a duplicate, at the threshold
        "gamma": _unit(0.919, 2),  # 0.919: just below
        "delta": _unit(0.0, 3),
    }

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        rows = []
        for text in texts:
            key = next((k for k in self.TABLE if k in text), "delta")
            rows.append(self.TABLE[key])
        return np.asarray(rows, dtype=np.float32)


def _config(tmp_path: Path, **maintenance: Any) -> Config:
    return section_config(tmp_path, NO_PIPELINE, "maintenance", maintenance)


@pytest.fixture
def mem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    """Keyword-only (no vectors), so the score depends on queue and storage alone."""
    with Memory(store_location, config=_config(tmp_path), embedder=None) as m:
        m.maintenance.clock = clock
        yield m


@pytest.fixture
def vmem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path), embedder=TableEmbedder()) as m:
        m.maintenance.clock = clock
        yield m


def _dead_job(mem: Memory, now: datetime, n: int = 1) -> None:
    """Queue ``n`` jobs and kill every pending one (one attempt each)."""
    jobs = mem.store.jobs
    for i in range(n):
        jobs.enqueue("extract", "default", payload={"n": i}, max_attempts=1, now=now)
    while (job := jobs.lease(["extract"], now=now)) is not None:
        jobs.fail(job.id, "boom", now=now, retry_at=now, attempt=job.attempts)


# -- diagnostics -----------------------------------------------------------------------
def test_a_healthy_store_scores_one_and_recommends_nothing(mem: Memory) -> None:
    mem.add("the kettle is in the left cupboard")
    report = mem.maintenance.diagnose()
    assert report.score == 1.0 and report.recommendations() == []
    assert report.to_dict()["status"] == "healthy"


def test_the_health_score_is_the_mean_of_queue_index_and_storage(mem: Memory, clock: Clock) -> None:
    ids = [mem.add(f"memory number {i}").id for i in range(10)]
    for memory_id in ids[:4]:
        mem.delete(memory_id)
    _dead_job(mem, T0)
    jobs = mem.store.jobs
    jobs.enqueue("extract", "default", payload={"ok": True}, now=T0)
    done = jobs.lease(["extract"], now=T0)
    assert done is not None
    jobs.complete(done.id, {}, now=T0)  # one of the two jobs dead
    report = mem.maintenance.diagnose()
    c = report.counts
    assert (c.live, c.tombstoned, c.jobs_total, c.jobs_dead) == (6, 4, 2, 1)
    # queue: 1 - ½·min(1, 10·0.5) = 0.5; index 1; storage 1 - 4/10 = 0.6
    assert report.queue_score == 0.5 and report.index_score == 1.0
    assert report.storage_score == pytest.approx(0.6)
    assert report.score == pytest.approx((0.5 + 1.0 + 0.6) / 3)
    # seed 004: dead rate > 1 % and tombstones > 30 %
    assert report.recommendations() == ["requeue_dead_jobs", "retention_sweep"]
    assert report.to_dict()["status"] == "degraded"


def test_stale_leases_are_seen_after_the_lease_timeout(mem: Memory, clock: Clock) -> None:
    mem.store.jobs.enqueue("extract", "default", payload={}, now=T0)
    assert mem.store.jobs.lease(["extract"], now=T0) is not None
    clock.advance(seconds=300)  # seed 004: leaseTimeoutMs 300 000
    assert mem.maintenance.diagnose().counts.stale_leases == 0
    clock.advance(seconds=1)
    report = mem.maintenance.diagnose()
    assert report.counts.stale_leases == 1 and "release_stale_leases" in report.recommendations()
    run = mem.maintenance.run(execute=True)
    assert run.actions[0] == {
        "action": "release_stale_leases",
        "outcome": "done",
        "detail": {"released": 1},
    }
    assert run.score_after > run.score_before


# -- observe and execute -----------------------------------------------------------------
def test_observe_reports_and_changes_nothing(mem: Memory) -> None:
    _dead_job(mem, T0)
    run = mem.maintenance.run(execute=False)
    assert run.mode == "observe"
    assert run.actions == ({"action": "requeue_dead_jobs", "outcome": "recommended", "detail": {}},)
    assert mem.store.jobs.counts()["dead"] == 1
    assert run.score_after == run.score_before


def test_execute_repairs_and_records_the_score_delta(mem: Memory) -> None:
    _dead_job(mem, T0, n=2)
    run = mem.maintenance.run(execute=True)
    assert run.actions[0]["outcome"] == "done" and run.actions[0]["detail"] == {"requeued": 2}
    assert mem.store.jobs.counts()["dead"] == 0
    assert run.score_before == pytest.approx(0.5 / 3 + 2 / 3)
    assert run.score_after == 1.0
    assert run.to_dict()["delta"] == pytest.approx(1.0 - run.score_before)


def test_the_mode_defaults_to_the_config(tmp_path: Path, store_location: str) -> None:
    with Memory(store_location, config=_config(tmp_path, mode="observe"), embedder=None) as mem:
        _dead_job(mem, T0)
        assert mem.maintenance.run().mode == "observe"
    with pytest.raises(ConfigError):
        _config(tmp_path, mode="repair")
    assert Config.load(env={}, home=str(tmp_path)).maintenance.mode == "execute"  # seed 004


# -- cooldown and hourly budget ----------------------------------------------------------
def test_an_action_waits_out_its_cooldown_and_its_hourly_budget(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    config = _config(tmp_path, requeue_cooldown_ms=5000, requeue_hourly_budget=2)
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.maintenance.clock = clock

        def outcome() -> str:
            _dead_job(mem, clock.now)
            return str(mem.maintenance.run(execute=True).actions[0]["outcome"])

        assert outcome() == "done"
        clock.advance(milliseconds=4999)
        assert outcome() == "cooldown"
        clock.advance(milliseconds=1)
        assert outcome() == "done"
        clock.advance(seconds=10)
        assert outcome() == "budget"  # two in the last hour
        clock.advance(seconds=3600 - 10 - 5 + 1)  # the first one left the hour
        assert outcome() == "done"


def test_the_seed_defaults_of_the_limits() -> None:
    from engram.maintenance.limits import limits
    from engram.settings import MaintenanceConfig

    table = limits(MaintenanceConfig())
    assert table["reembed"].cooldown == timedelta(minutes=5)
    assert table["reembed"].hourly_budget == 10
    assert table["requeue_dead_jobs"].cooldown == timedelta(minutes=1)
    assert table["requeue_dead_jobs"].hourly_budget == 50
    assert table["semantic_dedup"].cooldown == timedelta(minutes=10)
    assert table["semantic_dedup"].hourly_budget == 3


# -- the halt tracker ----------------------------------------------------------------------
def _tombstone_heavy(mem: Memory) -> None:
    ids = [mem.add(f"a passing thought {i}").id for i in range(4)]
    for memory_id in ids[:2]:
        mem.delete(memory_id)  # 50 % tombstones; fresh, so no retention sweep removes them


def test_an_action_halts_after_three_runs_that_did_not_improve_and_can_resume(
    mem: Memory, clock: Clock
) -> None:
    _tombstone_heavy(mem)
    for streak in (1, 2, 3):
        run = mem.maintenance.run(execute=True)
        assert run.actions[0]["action"] == "retention_sweep"
        assert run.actions[0]["outcome"] == "done"
        assert run.score_after <= run.score_before
        assert mem.maintenance.halts()["retention_sweep"].streak == streak
        clock.advance(minutes=11)  # past the sweep's cooldown
    state = mem.maintenance.halts()["retention_sweep"]
    assert state.halted_at == T0 + timedelta(minutes=22)
    assert mem.maintenance.run(execute=True).actions[0]["outcome"] == "halted"
    assert mem.maintenance.status()["halts"]["retention_sweep"]["halted"] is True
    assert mem.maintenance.resume("retention_sweep") == 1
    assert mem.maintenance.run(execute=True).actions[0]["outcome"] == "done"
    with pytest.raises(InvalidInputError, match="unknown repair action"):
        mem.maintenance.resume("defragment")


def test_an_improving_run_resets_the_streak_and_a_clean_cycle_resets_the_tracker(
    mem: Memory, clock: Clock
) -> None:
    _tombstone_heavy(mem)
    mem.maintenance.run(execute=True)
    clock.advance(minutes=11)
    mem.maintenance.run(execute=True)
    assert mem.maintenance.halts()["retention_sweep"].streak == 2
    mem.admin.purge()  # health is good again
    run = mem.maintenance.run(execute=True)
    assert run.recommendations == ()
    assert mem.maintenance.halts() == {}
    # an improving run: requeueing the dead job lifts the score, the streak stays 0
    _dead_job(mem, clock.now)
    mem.maintenance.run(execute=True)
    assert mem.maintenance.halts()["requeue_dead_jobs"].streak == 0


# -- runs are recorded -------------------------------------------------------------------
def test_every_run_is_recorded_and_readable_newest_first(mem: Memory, clock: Clock) -> None:
    first = mem.maintenance.run(execute=False)
    clock.advance(seconds=1)
    second = mem.maintenance.run(execute=True)
    runs = mem.maintenance.runs()
    assert [r.id for r in runs] == [second.id, first.id]
    assert runs[0].started_at == T0 + timedelta(seconds=1)
    assert runs[0].report["score"] == 1.0
    assert mem.maintenance.runs(kind="dedup") == []
    assert mem.maintenance.runs(limit=1, offset=1)[0].id == first.id
    with pytest.raises(InvalidInputError):
        mem.maintenance.runs(kind="everything")
    assert mem.maintenance.status()["last_run"]["id"] == second.id


# -- the schedule --------------------------------------------------------------------------
def test_upkeep_runs_a_cycle_every_interval_in_the_configured_mode(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    config = _config(tmp_path, interval_ms=60_000, mode="observe")
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.maintenance.clock = clock
        assert "cycle" not in mem.maintenance.upkeep()  # the first one after an interval
        clock.advance(seconds=59)
        assert "cycle" not in mem.maintenance.upkeep()
        clock.advance(seconds=1)
        assert mem.maintenance.upkeep()["cycle"].mode == "observe"
        clock.advance(seconds=60)
        assert "cycle" in mem.maintenance.upkeep()
        assert len(mem.maintenance.runs()) == 2


@pytest.mark.parametrize("switch", [{"enabled": False}, {"frozen": True}])
def test_a_disabled_or_frozen_worker_runs_no_scheduled_cycle(
    tmp_path: Path, store_location: str, clock: Clock, switch: dict[str, bool]
) -> None:
    config = _config(tmp_path, interval_ms=60_000, **switch)
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.maintenance.clock = clock
        for _ in range(3):
            assert "cycle" not in mem.maintenance.upkeep()
            clock.advance(minutes=2)
        assert mem.maintenance.runs() == []
        assert mem.maintenance.run(execute=False).mode == "observe"  # by hand still works


# -- semantic dedup -----------------------------------------------------------------------
def test_dedup_finds_pairs_at_exactly_0_92_and_not_below(vmem: Memory) -> None:
    alpha = vmem.add("alpha: the boat is moored at pier 4")
    beta = vmem.add("beta: our boat sits at pier four")
    gamma = vmem.add("gamma: the boat was at pier 5 last year")
    report = vmem.maintenance.dedup()
    assert report.threshold == 0.92 and report.scanned == 3 and not report.executed
    assert [(g.kept, set(g.duplicates)) for g in report.groups] == [(alpha.id, {beta.id})]
    assert report.groups[0].duplicates[beta.id] == pytest.approx(0.92, abs=1e-6)
    assert gamma.id not in {m for g in report.groups for m in g.duplicates}
    # observing changed nothing
    assert vmem.get(beta.id).superseded_by is None
    lower = vmem.maintenance.dedup(threshold=0.919)
    assert {m for g in lower.groups for m in g.duplicates} == {beta.id, gamma.id}


def test_dedup_execute_supersedes_never_deletes_and_audits(vmem: Memory) -> None:
    alpha = vmem.add("alpha: the boat is moored at pier 4")
    beta = vmem.add("beta: our boat sits at pier four")
    vmem.feedback(beta.id, 1)  # more thumbs up: beta is the one kept
    report = vmem.maintenance.dedup(execute=True)
    assert report.merged == 1 and report.groups[0].kept == beta.id
    old = vmem.get(alpha.id)
    assert old.superseded_by == beta.id and old.content.startswith("alpha")  # content kept
    assert [e.event for e in vmem.history(alpha.id)][-1] == "dedup"
    assert "dedup_merge" in [e.event for e in vmem.history(beta.id)]
    hits = vmem.search("boat pier", limit=5)
    assert [h.memory.id for h in hits] == [beta.id]
    # a second pass finds nothing left to merge
    assert vmem.maintenance.dedup(execute=True).groups == []
    run = vmem.maintenance.runs(kind="dedup")[0]
    assert run.namespace == "default" and run.mode == "execute"


def test_dedup_execute_keeps_to_its_cooldown_and_budget(vmem: Memory, clock: Clock) -> None:
    vmem.add("alpha one")
    vmem.add("beta one")
    assert vmem.maintenance.dedup(execute=True).merged == 1
    vmem.add("alpha two is a different text")
    clock.advance(minutes=9)  # seed 004: dedupCooldownMs 600 000
    blocked = vmem.maintenance.dedup(execute=True)
    assert blocked.skipped == "cooldown" and blocked.merged == 0
    clock.advance(minutes=1)
    assert vmem.maintenance.dedup(execute=True).merged == 1


def test_dedup_stays_inside_its_namespace(vmem: Memory) -> None:
    vmem.add("alpha in one namespace", namespace="a")
    vmem.add("beta in another", namespace="b")
    assert vmem.maintenance.dedup(namespace="a").groups == []
    assert vmem.maintenance.dedup(namespace="b").groups == []


def test_a_scheduled_execute_cycle_dedups_a_namespace(vmem: Memory) -> None:
    vmem.add("alpha here")
    duplicate = vmem.add("beta here")
    run = vmem.maintenance.run(execute=True)
    dedup = [a for a in run.actions if a["action"] == "semantic_dedup"][0]
    assert dedup["outcome"] == "done" and dedup["detail"]["merged"] == 1
    assert vmem.get(duplicate.id).superseded_by is not None


def test_dedup_needs_an_embedder_and_a_valid_threshold(mem: Memory, vmem: Memory) -> None:
    with pytest.raises(CapabilityError, match="embedder"):
        mem.maintenance.dedup()
    for bad in (1.5, -0.1, "high", True):
        with pytest.raises(InvalidInputError, match="threshold"):
            vmem.maintenance.dedup(threshold=bad)  # type: ignore[arg-type]


# -- keyword index repair ------------------------------------------------------------------
def _drop_from_keyword_index(location: str, backend: str, memory_id: str) -> None:
    """Damage the keyword index behind the store's back, as a crash or a bug could."""
    if backend == "sqlite":
        conn = sqlite3.connect(location)
        seq, ns = conn.execute(
            "SELECT seq, namespace FROM memories WHERE id = ?", (memory_id,)
        ).fetchone()
        (ident,) = conn.execute(
            "SELECT id FROM fts_namespaces WHERE namespace = ?", (ns,)
        ).fetchone()
        conn.execute(f"DELETE FROM fts_{ident}_docsize WHERE id = ?", (seq,))
        conn.commit()
        conn.close()
        return
    import psycopg

    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute("UPDATE memories SET search = NULL WHERE id = %s", (memory_id,))


def test_an_inconsistent_keyword_index_is_found_and_rebuilt(
    tmp_path: Path, reopenable: str, backend: str, clock: Clock
) -> None:
    config = _config(tmp_path)
    with Memory(reopenable, config=config, embedder=None) as mem:
        ids = [mem.add(f"lighthouse keeper log {i}").id for i in range(4)]
    _drop_from_keyword_index(reopenable, backend, ids[0])
    with Memory(reopenable, config=config, embedder=None) as mem:
        mem.maintenance.clock = clock
        report = mem.maintenance.diagnose()
        assert report.counts.index_mismatch == 1
        assert report.index_score == pytest.approx(0.75)
        assert report.recommendations() == ["check_fts_consistency"]
        run = mem.maintenance.run(execute=True)
        assert run.actions[0] == {
            "action": "check_fts_consistency",
            "outcome": "done",
            "detail": {"repaired": 1},
        }
        assert run.score_after == 1.0
        assert ids[0] in {h.memory.id for h in mem.search("lighthouse keeper log 0")}


def test_the_docs_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path))
    monkeypatch.setenv("ENGRAM_CONFIG", "")
    run_doc_example(capsys, "maintenance.md")


# -- migrations and the async twin -----------------------------------------------------------
def test_an_older_sqlite_store_gains_the_maintenance_tables(tmp_path: Path) -> None:
    path = sqlite_before(tmp_path / "old.db", "027_maintenance")
    with Memory(path, config=_config(tmp_path), embedder=None) as mem:
        assert mem.maintenance.run(execute=False).id == 1


@pytest.mark.postgres
def test_an_older_postgres_database_gains_the_maintenance_tables(
    pg_server: object, tmp_path: Path
) -> None:
    with (
        postgres_before(pg_server, "023_maintenance") as url,
        Memory(url, config=_config(tmp_path), embedder=None) as mem,
    ):
        assert mem.maintenance.run(execute=False).id == 1


def test_every_verb_has_an_async_twin() -> None:
    from engram.aio import AsyncMaintenance
    from engram.maintenance import Maintenance

    public = {n for n, v in vars(Maintenance).items() if not n.startswith("_") and callable(v)}
    # run_upkeep is a thread's blocking loop, not a call to await
    assert public - {"run_upkeep"} <= set(vars(AsyncMaintenance))

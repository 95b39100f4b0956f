"""``mem.maintenance``: seed 004's maintenance worker and embedding tracker (FEATURES
S10).

A maintenance *cycle* diagnoses the store (queue, keyword index and vectors, storage:
``diagnose``), turns the report into recommended repair actions and, in ``execute``
mode, runs each one unless its cooldown or hourly budget says no, or the halt tracker
halted it after 3 runs in a row that did not improve the health score (``resume``
lifts that). Every cycle and dedup run is recorded (``runs``). ``dedup`` finds
near-duplicate memories of a namespace at cosine 0.92 and, in execute mode only,
supersedes all but one of each group. The embedding tracker (``track``) re-embeds a
small batch of memories whose vectors are missing, stale or from another model.

``engram serve`` and ``engram mcp`` call ``upkeep`` every second (``engram.serving``;
``run_upkeep`` is the same loop, unleased, for a program of its own): a tracker cycle every
``tracker_poll_ms`` and a maintenance cycle every ``interval_ms`` in the configured
mode, unless ``[maintenance]`` is disabled or frozen. ``engram maintenance`` runs each
piece by hand. Time comes from ``self.clock``, so tests move it by hand.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Unpack

from engram.core import Core, Part
from engram.errors import CapabilityError, EngramError, InvalidInputError, shown
from engram.maintenance import dedup as _dedup
from engram.maintenance import limits as _limits
from engram.maintenance.dedup import DedupReport, DuplicateGroup
from engram.maintenance.diagnostics import ACTIONS, DEDUP, Diagnostics
from engram.maintenance.tracker import EmbeddingTracker, TrackerCycle, TrackerStats
from engram.records import iso, utcnow
from engram.schedule import run_every
from engram.scoping import OwnerArgs, scoped
from engram.store.protocols.maintenance import HaltState, MaintenanceRun, NewRun
from engram.store.protocols.vectors import IndexRebuild, RebuildsIndexes
from engram.validate import offset_value, positive_int, type_name

__all__ = [
    "ACTIONS",
    "DedupReport",
    "Diagnostics",
    "DuplicateGroup",
    "HaltState",
    "Maintenance",
    "MaintenanceRun",
    "Sweep",
    "TrackerCycle",
    "TrackerStats",
]

log = logging.getLogger("engram.maintenance")

#: A PostgreSQL memory size as ``maintenance_work_mem`` takes it: "512MB", "4GB".
WORK_MEM = re.compile(r"[1-9][0-9]{0,6}(kB|MB|GB|TB)")

#: The retention sweep a ``retention_sweep`` repair runs (``mem.lifecycle``'s, handed in
#: by ``Memory`` so the parts stay apart); it returns how many rows it removed.
Sweep = Callable[[], int]
#: Dead jobs one ``requeue_dead_jobs`` repair sends back to the queue.
REQUEUE_BATCH = 100
#: How often a server runs the maintenance round (``engram.serving``; ``run_upkeep``'s
#: default); a round does only what the tracker's and the repairs' clocks say is due.
UPKEEP_INTERVAL_S = 1.0


class Maintenance(Part):
    """Diagnostics, repairs, semantic dedup and the embedding tracker of a store."""

    def __init__(self, core: Core, sweep: Sweep | None = None) -> None:
        super().__init__(core)
        self._sweep = sweep
        self._tracker = EmbeddingTracker(core)
        self._lock = threading.Lock()
        self._tracker_due: datetime | None = None
        self._cycle_due: datetime | None = None
        self._dedup_turn = 0
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-moved clock."""

    # -- diagnostics ------------------------------------------------------------------
    def diagnose(self) -> Diagnostics:
        """The health report: queue, index (keyword index and vectors) and storage
        counts, each domain's score, the composite score and its recommendations."""
        core = self._core
        core.check_open()
        cutoff = self.clock() - timedelta(seconds=core.config.worker.lease_timeout_s)
        model = core.embedder.name if core.embedder is not None else None
        counts = core.store.maintenance.health_counts(lease_cutoff=cutoff, model=model)
        return Diagnostics(counts=counts, vectors_checked=model is not None)

    # -- a cycle ----------------------------------------------------------------------
    def run(self, *, execute: bool | None = None) -> MaintenanceRun:
        """One maintenance cycle: diagnose, recommend and, when ``execute`` (default:
        the configured ``mode``), repair within each action's limits; then diagnose again,
        update the halt tracker, dedup one namespace in turn, and record the run."""
        core = self._core
        core.check_open()
        if execute is None:
            execute = core.config.maintenance.mode == "execute"
        elif not isinstance(execute, bool):
            raise InvalidInputError(f"execute must be true or false, got {type_name(execute)}")
        with self._lock:
            return self._run(execute)

    def _run(self, execute: bool) -> MaintenanceRun:
        store = self._core.store.maintenance
        started = self.clock()
        before = self.diagnose()
        recommended = before.recommendations()
        if not recommended:  # seed 004: "The tracker resets when a cycle produces no
            store.clear_halts()  # recommendations (i.e., health is good)"
        actions: list[dict[str, Any]] = []
        after = before
        if not execute:
            actions = [{"action": a, "outcome": "recommended", "detail": {}} for a in recommended]
        else:
            executed = self._repairs(recommended, started, actions)
            if executed:
                after = self.diagnose()
                improved = after.score > before.score
                halts = store.halts()
                for action in executed:
                    state = _limits.after_run(halts.get(action), action, improved, started)
                    store.set_halt(state)
                    if state.halted_at == started:
                        log.warning("maintenance: %s halted after %d runs", action, state.streak)
            actions.append(self._scheduled_dedup(started))
        return store.record_run(
            NewRun(
                kind="cycle",
                mode="execute" if execute else "observe",
                started_at=started,
                finished_at=self.clock(),
                score_before=before.score,
                score_after=after.score,
                recommendations=tuple(recommended),
                actions=tuple(actions),
                report=after.to_dict(),
            )
        )

    def _allowed(self, action: str, now: datetime) -> str | None:
        """Why ``action`` may not run now (``cooldown``, ``budget``), else None."""
        limit = _limits.limits(self._core.config.maintenance)[action]
        executed = self._core.store.maintenance.actions_since(
            action, _limits.window_start(limit, now)
        )
        return _limits.blocked(limit, executed, now)

    def _repairs(
        self, recommended: list[str], now: datetime, out: list[dict[str, Any]]
    ) -> list[str]:
        """Run the recommended actions within their limits; returns those executed."""
        store = self._core.store.maintenance
        halts = store.halts()
        executed: list[str] = []
        for action in recommended:
            state = halts.get(action)
            if state is not None and state.halted_at is not None:
                out.append({"action": action, "outcome": "halted", "detail": {}})
                continue
            why = self._allowed(action, now)
            if why is not None:
                out.append({"action": action, "outcome": why, "detail": {}})
                continue
            if action == "retention_sweep" and self._sweep is None:
                detail = {"reason": "no retention worker is attached"}
                out.append({"action": action, "outcome": "unavailable", "detail": detail})
                continue
            try:
                detail = self._repair(action, now)
            except EngramError as exc:
                out.append({"action": action, "outcome": "failed", "detail": {"error": str(exc)}})
                continue
            store.record_action(action, now=now, outcome="done")
            executed.append(action)
            out.append({"action": action, "outcome": "done", "detail": detail})
        return executed

    def _repair(self, action: str, now: datetime) -> dict[str, Any]:
        """Run one repair action; returns what it did."""
        core = self._core
        if action == "requeue_dead_jobs":
            dead = core.store.jobs.select(status="dead", limit=REQUEUE_BATCH)
            for job in dead:
                core.store.jobs.retry(job.id, now=now)
            return {"requeued": len(dead)}
        if action == "release_stale_leases":
            cutoff = now - timedelta(seconds=core.config.worker.lease_timeout_s)
            return {"released": core.store.jobs.reap(older_than=cutoff, now=now)}
        if action == "check_fts_consistency":
            return {"repaired": core.store.maintenance.repair_keyword_index()}
        if action == "retention_sweep":
            assert self._sweep is not None
            return {"removed": self._sweep()}
        if action == "reembed":
            batch = core.config.maintenance.tracker_batch_size
            return self._tracker.cycle(now, batch).to_dict()
        raise InvalidInputError(
            f"unknown repair action {shown(action)}; one of {', '.join(ACTIONS)}"
        )

    # -- halt tracker -----------------------------------------------------------------
    def halts(self) -> dict[str, HaltState]:
        """The halt tracker: per repair action, its non-improving streak and whether it
        is halted."""
        self._core.check_open()
        return self._core.store.maintenance.halts()

    def resume(self, action: str | None = None) -> int:
        """Lift the halt of ``action`` (None: every action) and reset its streak;
        returns how many actions were reset."""
        self._core.check_open()
        if action is not None and action not in ACTIONS:
            raise InvalidInputError(
                f"unknown repair action {shown(action)}; one of {', '.join(ACTIONS)}"
            )
        actions = None if action is None else [action]
        return self._core.store.maintenance.clear_halts(actions)

    # -- vector indexes ---------------------------------------------------------------
    def reindex_vectors(
        self, *, work_mem: str | None = None, force: bool = False
    ) -> list[IndexRebuild]:
        """Rebuild the database's vector indexes whose HNSW build differs from
        ``postgres.hnsw_m`` / ``hnsw_ef_construction`` (every one with ``force``),
        beside the old ones, so reads and writes go on (PostgreSQL: ``m`` and
        ``ef_construction`` are fixed when an index is built). ``work_mem`` ("4GB") is
        the build's ``maintenance_work_mem``: a graph that fits in it builds several
        times faster."""
        core = self._core
        core.check_open()
        if work_mem is not None and (
            not isinstance(work_mem, str) or not WORK_MEM.fullmatch(work_mem)
        ):
            raise InvalidInputError(
                f"work_mem must be a size such as 512MB or 4GB, got {shown(work_mem)}"
            )
        if not isinstance(force, bool):
            raise InvalidInputError(f"force must be true or false, got {type_name(force)}")
        vectors = core.store.vectors
        if not isinstance(vectors, RebuildsIndexes):
            raise CapabilityError(
                f"the {core.store.backend_name} store keeps no database vector index to "
                "rebuild: its in-memory graph is rebuilt on its own when its build "
                "settings change"
            )
        if core.config.postgres.read_only:
            raise CapabilityError(
                "this store is opened read-only (postgres.read_only): rebuild the vector "
                "indexes on the primary"
            )
        return vectors.rebuild_indexes(work_mem=work_mem, force=force)

    # -- semantic dedup ---------------------------------------------------------------
    @scoped
    def dedup(
        self, *, execute: bool = False, threshold: float | None = None, **who: Unpack[OwnerArgs]
    ) -> DedupReport:
        """Find near-duplicates among a namespace's newest ``dedup_batch_size``
        memories (cosine at or above ``threshold``, default seed 004's 0.92); with
        ``execute``, supersede all but one of each group (within the dedup cooldown and
        hourly budget). Needs an embedder. The run is recorded."""
        core = self._core
        scope = core.open_scope(**who)
        cfg = core.config.maintenance
        limit = cfg.dedup_semantic_threshold if threshold is None else threshold
        if isinstance(limit, bool) or not isinstance(limit, int | float) or not 0 <= limit <= 1:
            raise InvalidInputError(f"threshold must be a number in [0, 1], got {shown(limit)}")
        if not isinstance(execute, bool):
            raise InvalidInputError(f"execute must be true or false, got {type_name(execute)}")
        if core.embedder is None or core.index is None:
            raise CapabilityError(
                "semantic dedup compares vectors: configure an embedder (embedder.name)"
            )
        with self._lock:
            return self._dedup_run(scope.namespace, float(limit), execute, self.clock())

    def _dedup_run(
        self, namespace: str, threshold: float, execute: bool, now: datetime
    ) -> DedupReport:
        core = self._core
        batch = core.config.maintenance.dedup_batch_size
        scanned, groups = _dedup.find(core, namespace, threshold, batch)
        report = DedupReport(namespace, threshold, scanned, groups, executed=execute)
        if execute and groups:
            why = self._allowed(DEDUP, now)
            if why is not None:
                report = DedupReport(namespace, threshold, scanned, groups, True, 0, why)
            else:
                merged = sum(_dedup.merge(core, namespace, g, now) for g in groups)
                core.store.maintenance.record_action(DEDUP, now=now, outcome="done")
                if core.index is not None:
                    core.index.invalidate(namespace)
                report = DedupReport(namespace, threshold, scanned, groups, True, merged)
        score = self.diagnose().score
        core.store.maintenance.record_run(
            NewRun(
                kind="dedup",
                mode="execute" if execute else "observe",
                started_at=now,
                finished_at=self.clock(),
                score_before=score,
                score_after=score,
                recommendations=(DEDUP,) if groups else (),
                actions=({"action": DEDUP, "outcome": _outcome(report), "detail": {}},),
                report=report.to_dict(),
                namespace=namespace,
            )
        )
        return report

    def _scheduled_dedup(self, now: datetime) -> dict[str, Any]:
        """Dedup the next namespace in turn (a cycle in execute mode)."""
        core = self._core
        if core.embedder is None or core.index is None:
            return {"action": DEDUP, "outcome": "unavailable", "detail": {"reason": "no embedder"}}
        namespaces = sorted(core.store.memories.namespaces())
        if not namespaces:
            return {"action": DEDUP, "outcome": "nothing", "detail": {}}
        namespace = namespaces[self._dedup_turn % len(namespaces)]
        self._dedup_turn += 1
        threshold = core.config.maintenance.dedup_semantic_threshold
        batch = core.config.maintenance.dedup_batch_size
        scanned, groups = _dedup.find(core, namespace, threshold, batch)
        detail: dict[str, Any] = {"namespace": namespace, "scanned": scanned, "groups": len(groups)}
        if not groups:
            return {"action": DEDUP, "outcome": "nothing", "detail": detail}
        why = self._allowed(DEDUP, now)
        if why is not None:
            return {"action": DEDUP, "outcome": why, "detail": detail}
        detail["merged"] = sum(_dedup.merge(core, namespace, g, now) for g in groups)
        core.store.maintenance.record_action(DEDUP, now=now, outcome="done")
        core.index.invalidate(namespace)
        return {"action": DEDUP, "outcome": "done", "detail": detail}

    # -- embedding tracker ------------------------------------------------------------
    def track(self, *, batch_size: int | None = None) -> TrackerCycle:
        """One embedding-tracker cycle: re-embed up to ``batch_size`` (default seed
        004's 8) memories whose vectors are missing, stale or from another model."""
        self._core.check_open()
        size = self._core.config.maintenance.tracker_batch_size
        if batch_size is not None:
            size = positive_int("batch_size", batch_size, upper=1000)
        return self._tracker.cycle(self.clock(), size)

    def tracker_stats(self) -> TrackerStats:
        """seed 004's ``getStats()``: processed, failed, skipped cycles, queue depth."""
        return self._tracker.stats

    # -- records and status -----------------------------------------------------------
    def runs(
        self, *, limit: int = 20, offset: int = 0, kind: str | None = None
    ) -> list[MaintenanceRun]:
        """Recorded cycles and dedup runs, newest first (``kind``: ``cycle``/``dedup``)."""
        self._core.check_open()
        positive_int("limit", limit, upper=1000)
        offset_value(offset)
        if kind not in (None, "cycle", "dedup"):
            raise InvalidInputError(f"kind must be 'cycle' or 'dedup', got {shown(kind)}")
        return self._core.store.maintenance.runs(limit=limit, offset=offset, kind=kind)

    def status(self) -> dict[str, Any]:
        """The schedule's settings, the halt tracker, the latest cycle and the tracker."""
        core = self._core
        core.check_open()
        cfg = core.config.maintenance
        last = core.store.maintenance.runs(limit=1, kind="cycle")
        return {
            "enabled": cfg.enabled,
            "frozen": cfg.frozen,
            "mode": cfg.mode,
            "interval_ms": cfg.interval_ms,
            "halts": {a: _halt_dict(h) for a, h in self.halts().items()},
            "last_run": last[0].to_dict() if last else None,
            "tracker": {
                "enabled": cfg.tracker_enabled,
                "poll_ms": cfg.tracker_poll_ms,
                "batch_size": cfg.tracker_batch_size,
                **self._tracker.stats.to_dict(),
            },
        }

    # -- the schedule -----------------------------------------------------------------
    def upkeep(self) -> dict[str, Any]:
        """One round of what ``engram serve`` runs every second: a tracker cycle when
        ``tracker_poll_ms`` has passed since the last, a maintenance cycle when
        ``interval_ms`` has (the first one interval after the first round), unless
        disabled or frozen. Returns what ran (``tracker``, ``cycle``)."""
        core = self._core
        core.check_open()
        cfg = core.config.maintenance
        now = self.clock()
        done: dict[str, Any] = {}
        if cfg.tracker_enabled and (self._tracker_due is None or now >= self._tracker_due):
            self._tracker_due = now + timedelta(milliseconds=cfg.tracker_poll_ms)
            done["tracker"] = self._tracker.cycle(now, cfg.tracker_batch_size)
        if cfg.enabled and not cfg.frozen:
            if self._cycle_due is None:
                self._cycle_due = now + timedelta(milliseconds=cfg.interval_ms)
            elif now >= self._cycle_due:
                self._cycle_due = now + timedelta(milliseconds=cfg.interval_ms)
                done["cycle"] = self.run()
        return done

    def run_upkeep(self, stop: threading.Event, *, interval_s: float = UPKEEP_INTERVAL_S) -> None:
        """Call ``upkeep`` every ``interval_s`` until ``stop`` is set (a thread's body;
        a failing round is logged and the next one runs)."""
        run_every(self.upkeep, stop, interval_s, "maintenance upkeep")


def _outcome(report: DedupReport) -> str:
    if report.skipped is not None:
        return report.skipped
    if not report.groups:
        return "nothing"
    return "done" if report.executed else "recommended"


def _halt_dict(state: HaltState) -> dict[str, Any]:
    return {
        "streak": state.streak,
        "halted": state.halted_at is not None,
        "halted_at": None if state.halted_at is None else iso(state.halted_at),
    }

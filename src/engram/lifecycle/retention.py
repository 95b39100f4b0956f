"""seed 002's retention rules and seed 004's retention worker.

Resolution order per category (seed 002): the agent's per-category rule, the company's
per-category rule, the agent's global default, the company's global default, else keep
forever. An agent here is a namespace (seed 002: "Each agent maintains its own memory
store"); its overrides live in the store (``mem.lifecycle.set_retention``), the company
rules in ``[lifecycle]``.

A sweep first expires what the rules say is past retention (live memories are
tombstoned, archived originals deleted), then compacts each namespace's archive down to
``archive_max_per_agent`` (ours, ``compaction``), then runs seed 004's six steps in
their strict order. Every step is its own short transaction of at most ``BATCH`` rows; what is left
over is caught by the next sweep (seed 004).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engram.lifecycle.compaction import compact
from engram.records import MemoryCategory, iso
from engram.settings import LifecycleConfig
from engram.store.protocols.lifecycle import ANY_CATEGORY, SWEEP_STEPS, LifecycleStore

#: seed 004: "Each step is also batch-limited to 500 rows per sweep".
BATCH = 500
#: Where expiry by the rules runs, before seed 004's six steps.
EXPIRY_STEPS = ("expired", "archive_expired")
#: Archive compaction (ours): after the rules, before seed 004's steps.
COMPACT_STEP = "archive_compacted"
#: Every step of one sweep, in order.
STEPS = (*EXPIRY_STEPS, COMPACT_STEP, *SWEEP_STEPS)
CATEGORIES: tuple[str, ...] = tuple(c.value for c in MemoryCategory)


def company_rules(config: LifecycleConfig) -> dict[str, int]:
    """The company per-category rules set in ``[lifecycle]`` (category -> days)."""
    out: dict[str, int] = {}
    for category in CATEGORIES:
        days = getattr(config, f"{category}_retention_days")
        if days is not None:
            out[category] = int(days)
    return out


def resolve(category: str | None, agent: Mapping[str, int], config: LifecycleConfig) -> int | None:
    """Retention days of ``category`` for one agent, in seed 002's order; None =
    forever. Uncategorised memories take the global defaults."""
    company = company_rules(config)
    if category is not None:
        if category in agent:
            return agent[category]
        if category in company:
            return company[category]
    if ANY_CATEGORY in agent:
        return agent[ANY_CATEGORY]
    return config.retention_days


@dataclass(frozen=True, slots=True)
class SweepReport:
    """What one retention sweep removed, step by step in the order it ran."""

    at: datetime
    steps: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Rows removed (or memories tombstoned) by every step."""
        return sum(self.steps.values())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"at": iso(self.at), "steps": dict(self.steps), "total": self.total}


def step_cutoffs(config: LifecycleConfig, now: datetime) -> dict[str, datetime]:
    """seed 004's windows: tombstones 30 days, history 180, completed jobs 14, dead 30."""
    tomb = now - timedelta(days=config.tombstone_days)
    return {
        "graph_links": tomb,
        "embeddings": tomb,
        "tombstones": tomb,
        "history": now - timedelta(days=config.history_days),
        "completed_jobs": now - timedelta(days=config.completed_jobs_days),
        "dead_jobs": now - timedelta(days=config.dead_jobs_days),
    }


def sweep(
    store: LifecycleStore,
    namespaces: list[str],
    config: LifecycleConfig,
    now: datetime,
    *,
    removed: Callable[[str, list[str]], None],
) -> SweepReport:
    """One sweep: expiry by the rules, archive compaction, then seed 004's six steps
    in order. ``removed``
    hears of every memory tombstoned (the in-memory vector index drops it)."""
    report = SweepReport(at=now)
    overrides = store.overrides()
    for archived, name in ((False, "expired"), (True, "archive_expired")):
        budget = BATCH
        for ns in namespaces:
            agent = overrides.get(ns, {})
            by_days: dict[int, list[str | None]] = {}
            for category in (*CATEGORIES, None):
                days = resolve(category, agent, config)
                if days is not None:
                    by_days.setdefault(days, []).append(category)
            for days, categories in sorted(by_days.items()):
                if budget <= 0:
                    break
                ids = store.expire(
                    ns,
                    categories,
                    cutoff=now - timedelta(days=days),
                    now=now,
                    limit=budget,
                    archived=archived,
                )
                budget -= len(ids)
                if ids and not archived:
                    removed(ns, ids)
        report.steps[name] = BATCH - budget
    # The rules applied first: only what they kept counts against the archive cap.
    report.steps[COMPACT_STEP] = compact(
        store, namespaces, config.archive_max_per_agent, now, limit=BATCH
    )
    for step, cutoff in step_cutoffs(config, now).items():
        report.steps[step] = store.sweep(step, cutoff=cutoff, limit=BATCH)
    return report

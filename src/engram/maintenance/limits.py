"""Rate limits and the halt tracker of repair actions (seed 004).

seed 004: each recommendation "is executed through the corresponding repair action,
subject to rate limiting (cooldown and hourly budget per action type)", and "After 3
consecutive runs that do not improve the health score, the action is halted ... The
tracker resets when a cycle produces no recommendations (i.e., health is good)."

Pure functions over the times an action ran and its halt state; the part reads and
writes those through the store, so a restarted server and the CLI share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from engram.settings import MaintenanceConfig
from engram.store.protocols.maintenance import HaltState

#: seed 004: "After 3 consecutive runs that do not improve the health score".
HALT_AFTER = 3
HOUR = timedelta(hours=1)
#: Cooldown and budget of the actions seed 004 gives none for (engram's choice: a
#: keyword-index rebuild or a retention sweep at most every 10 min, 6 an hour).
_OTHER_COOLDOWN = timedelta(minutes=10)
_OTHER_BUDGET = 6


@dataclass(frozen=True, slots=True)
class Limit:
    """How often one repair action may run."""

    cooldown: timedelta
    hourly_budget: int


def limits(cfg: MaintenanceConfig) -> dict[str, Limit]:
    """Each action's limit: seed 004's ``repair`` settings; releasing stale leases
    counts as a requeue (it sends leased jobs back to the queue)."""
    requeue = Limit(timedelta(milliseconds=cfg.requeue_cooldown_ms), cfg.requeue_hourly_budget)
    other = Limit(_OTHER_COOLDOWN, _OTHER_BUDGET)
    return {
        "requeue_dead_jobs": requeue,
        "release_stale_leases": requeue,
        "check_fts_consistency": other,
        "retention_sweep": other,
        "reembed": Limit(
            timedelta(milliseconds=cfg.reembed_cooldown_ms), cfg.reembed_hourly_budget
        ),
        "semantic_dedup": Limit(
            timedelta(milliseconds=cfg.dedup_cooldown_ms), cfg.dedup_hourly_budget
        ),
    }


def window_start(limit: Limit, now: datetime) -> datetime:
    """The earliest execution time that can still block one at ``now``."""
    return now - max(HOUR, limit.cooldown)


def blocked(limit: Limit, executed: list[datetime], now: datetime) -> str | None:
    """``"cooldown"`` or ``"budget"`` when the action may not run at ``now`` (given when
    it ran, oldest first), else None."""
    if executed and now - executed[-1] < limit.cooldown:
        return "cooldown"
    if sum(1 for t in executed if t > now - HOUR) >= limit.hourly_budget:
        return "budget"
    return None


def after_run(state: HaltState | None, action: str, improved: bool, now: datetime) -> HaltState:
    """The halt state of ``action`` after a run that executed it: an improving run
    resets the streak; the third non-improving one in a row halts it."""
    if improved:
        return HaltState(action, 0, None)
    streak = (state.streak if state is not None else 0) + 1
    halted = state.halted_at if state is not None else None
    if streak >= HALT_AFTER and halted is None:
        halted = now
    return HaltState(action, streak, halted)

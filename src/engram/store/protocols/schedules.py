"""Who runs each store-wide schedule now (``engram.serving``): a lease per schedule, so
two engram processes on one store (``engram serve`` and ``engram mcp``, say) never run
one schedule at the same time.

It is the job queue's guard (``JobStore.lease``) applied to a schedule: one statement
in one write transaction takes the lease, and a lease whose holder stopped renewing it
(the process died) lapses, as the worker's reaper returns a stale job lease.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.record import Record


@dataclass(frozen=True, slots=True)
class ScheduleLease(Record):
    """One schedule's lease: the process holding it and until when."""

    name: str
    holder: str
    leased_at: datetime
    expires_at: datetime


@runtime_checkable
class ScheduleLeaseStore(Protocol):
    """Leases on the schedules an engram server runs (sessions, lifecycle, maintenance)."""

    def take(self, name: str, holder: str, *, now: datetime, until: datetime) -> bool:
        """Atomically take, or renew, the lease on schedule ``name`` for ``holder`` up
        to ``until``: True if ``holder`` holds it now (nobody did, it was ``holder``'s,
        or its holder's lease had expired by ``now``), False if another holds it."""
        ...

    def release(self, name: str, holder: str) -> None:
        """Give the lease up, if ``holder`` holds it, so another process takes the
        schedule at its next round instead of waiting for the lease to expire."""
        ...

    def leases(self) -> list[ScheduleLease]:
        """Every schedule's lease (expired ones too), by name."""
        ...

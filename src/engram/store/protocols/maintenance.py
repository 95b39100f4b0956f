"""The maintenance part of a store (seed 004's maintenance worker and embedding tracker;
FEATURES S10).

It reads the counts the diagnostics score (queue, keyword index, tombstones, vectors),
repairs the keyword index, finds memories whose vectors need refreshing, pages vectors
for semantic dedup, and keeps the worker's own records: every run (append-only), every
executed repair action (for cooldowns and hourly budgets) and the halt tracker's state,
so a restarted server and the CLI see the same limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord
from engram.store.protocols.record import Record

#: Why a memory's vector needs refreshing (seed 004's embedding tracker).
BACKLOG_REASONS = ("missing", "stale", "model")


@dataclass(frozen=True, slots=True)
class HealthCounts:
    """The raw numbers the diagnostics score, read in one snapshot."""

    live: int
    """Live (not tombstoned) memories, every namespace."""
    tombstoned: int
    indexed: int
    """Rows the keyword index holds."""
    index_mismatch: int
    """Sum over namespaces of |indexed rows - live memories| (0 when consistent)."""
    jobs_total: int
    jobs_dead: int
    stale_leases: int
    """Leased jobs whose lease is older than the cutoff asked for."""
    vectors_missing: int = 0
    """Live memories without a vector (0 when no model was asked for)."""
    vectors_stale: int = 0
    """... whose vector was made from older content."""
    vectors_other_model: int = 0
    """... whose vector was made by another model than the active one."""


@dataclass(frozen=True, slots=True)
class NewRun:
    """What the worker hands the store to record about one run."""

    kind: str
    """``cycle`` (diagnose and repair) or ``dedup``."""
    mode: str
    """``observe`` or ``execute``."""
    started_at: datetime
    finished_at: datetime
    score_before: float
    score_after: float
    recommendations: tuple[str, ...] = ()
    actions: tuple[dict[str, Any], ...] = ()
    """One ``{"action", "outcome", "detail"}`` per recommendation handled."""
    report: dict[str, Any] = field(default_factory=dict)
    namespace: str | None = None
    """The namespace a dedup run scanned; None for a store-wide cycle."""


@dataclass(frozen=True, slots=True)
class MaintenanceRun(NewRun, Record):
    """One recorded run."""

    id: int = 0
    _extra = ("delta",)

    @property
    def delta(self) -> float:
        """How much the run moved the health score."""
        return round(self.score_after - self.score_before, 6)


@dataclass(frozen=True, slots=True)
class HaltState:
    """The halt tracker's state of one repair action."""

    action: str
    streak: int
    """Consecutive executed runs that did not improve the health score."""
    halted_at: datetime | None = None
    """Set once the streak reached the limit; the action is skipped until resumed."""


@runtime_checkable
class MaintenanceStore(Protocol):
    """Counts, repairs and the maintenance worker's records."""

    def health_counts(self, *, lease_cutoff: datetime, model: str | None) -> HealthCounts:
        """The counts of ``HealthCounts``; leases taken before ``lease_cutoff`` are stale;
        vector counts for ``model`` (all 0 when None)."""
        ...

    def repair_keyword_index(self) -> int:
        """Re-index the live memories the keyword index lacks (or holds wrongly);
        returns how many rows the index held wrongly or lacked before."""
        ...

    def embedding_backlog(self, model: str, *, limit: int) -> list[tuple[MemoryRecord, str]]:
        """Live memories whose vector is missing, stale (content hash changed) or by
        another model than ``model``, newest ``updated_at`` first, with the reason (one
        of ``BACKLOG_REASONS``)."""
        ...

    def vector_page(
        self, namespace: str, model: str, *, before_seq: int | None, limit: int
    ) -> list[tuple[int, str, npt.NDArray[np.float32]]]:
        """(seq, memory id, vector) of live, not superseded memories of ``namespace``
        with a current vector by ``model``, newest first, below ``before_seq``."""
        ...

    def record_run(self, run: NewRun) -> MaintenanceRun:
        """Append one run (runs are never changed or deleted)."""
        ...

    def runs(self, *, limit: int, offset: int = 0, kind: str | None = None) -> list[MaintenanceRun]:
        """Recorded runs, newest first."""
        ...

    def record_action(self, action: str, *, now: datetime, outcome: str) -> None:
        """Note one executed repair action (what cooldowns and budgets count)."""
        ...

    def actions_since(self, action: str, since: datetime) -> list[datetime]:
        """When ``action`` was executed at or after ``since``, oldest first."""
        ...

    def halts(self) -> dict[str, HaltState]:
        """The halt tracker's state per action (actions never tracked are absent)."""
        ...

    def set_halt(self, state: HaltState) -> None:
        """Write one action's halt state."""
        ...

    def clear_halts(self, actions: Sequence[str] | None = None) -> int:
        """Reset the halt state of ``actions`` (None: all); returns how many rows."""
        ...

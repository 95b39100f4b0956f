"""The runs part of a store: seed 000's run log (``RunTrace``) and its memory hits.

A run is one completed (or running) task of an agent harness: its task, the output it
produced, the evaluator's final score and issues, and token counts. The observation
``compress_and_store`` makes of it carries the run's id (``MemoryRecord.run_id``), and
``run_memory_hits`` records which memories were injected into the run before
synthesis (seed 000's ``log_memory_hits``: ``memory_hits`` and their titles), so the
provenance chain can be walked both ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: Where a run is: ``running`` until it finishes, then ``completed`` or ``failed``.
RUN_STATUSES = ("running", "completed", "failed")


@dataclass(frozen=True, slots=True)
class Run(Record):
    """One run of the run log."""

    run_id: str
    namespace: str
    task: str | None = None
    task_type: str | None = None
    status: str = "completed"
    score: float | None = None
    """The evaluator's final score on a 0-10 scale (seed 000's ``final_score``)."""
    tokens_in: int | None = None
    tokens_out: int | None = None
    output: str | None = None
    """The run's output text; ``RunStore.select`` leaves it out (None), ``get`` has it."""
    output_chars: int = 0
    """How long ``output`` is, also when a listing leaves it out."""
    output_path: str | None = None
    """Where the output was written, when it lives in a file."""
    issues: tuple[str, ...] = ()
    """The evaluator's issues, verbatim."""
    metadata: dict[str, Any] = field(default_factory=dict)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    agent_id: str | None = None
    """The agent that recorded the run (the first ``agent_id`` it was recorded with)."""


@dataclass(frozen=True, slots=True)
class RunHit(Record):
    """One memory injected into a run (seed 000: ``memory_hits`` with their titles)."""

    run_id: str
    namespace: str
    memory_id: str
    rank: int
    """1 for the first memory of the injected block."""
    score: float | None
    title: str | None
    """The memory's title when it was injected (kept if the memory is purged later)."""
    at: datetime


@runtime_checkable
class RunStore(Protocol):
    """The run log and the memories injected into each run."""

    def save(self, run: Run, *, now: datetime) -> Run:
        """Insert ``run``, or replace the stored run with the same namespace and id (its
        ``created_at`` is kept). Joins an open transaction."""
        ...

    def get(self, namespace: str, run_id: str) -> Run | None:
        """One run of ``namespace`` with its output, or None."""
        ...

    def select(
        self,
        namespace: str,
        *,
        status: str | None = None,
        task_type: str | None = None,
        agent_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Run]:
        """Runs of ``namespace``, newest first, without their output."""
        ...

    def count(
        self,
        namespace: str,
        *,
        status: str | None = None,
        task_type: str | None = None,
        agent_id: str | None = None,
    ) -> int:
        """How many runs ``select`` with the same filters would page through."""
        ...

    def delete(self, namespace: str, run_id: str) -> bool:
        """Remove a run and its hits (its observations stay); False if it was not there."""
        ...

    def log_hits(self, namespace: str, run_id: str, hits: Sequence[RunHit]) -> int:
        """Record memories injected into a run; a memory logged again for the same run
        gets the new rank, score, title and time. Returns how many were written."""
        ...

    def hits(self, namespace: str, run_id: str) -> list[RunHit]:
        """The memories injected into a run, by rank."""
        ...

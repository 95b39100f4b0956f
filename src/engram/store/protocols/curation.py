"""The curation part of a store: the reads behind ``mem.review``'s prune candidates,
graph view and preference export (seed 000's memory panel).

Each read is one query over rows other parts write (memories, their vectors, the
feedback log); the library decides what to do with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord


@dataclass(frozen=True, slots=True)
class PreferenceRow:
    """One feedback rating joined with the memory it rates (seed 000: "each row is a
    (memory_id, rating, comment) triple")."""

    id: int
    """The feedback log row's id: rows come in this order, and it is the export's cursor."""
    memory_id: str
    content: str
    title: str | None
    rating: int
    comment: str | None
    at: datetime
    quality: int
    """The memory's quality now (after every rating so far)."""


@dataclass(frozen=True, slots=True)
class RecentVectors:
    """The newest live memories of a namespace that have a current vector of one model."""

    records: list[MemoryRecord]
    """Newest first."""
    matrix: npt.NDArray[np.float32]
    """One row per record, in the same order; shape (0, 0) when there are none."""
    total: int
    """How many such memories the namespace holds in all (of the type asked for)."""


@runtime_checkable
class CurationStore(Protocol):
    """Reads for reviewing a namespace: prune candidates, recent vectors, preferences."""

    def prune_candidates(
        self,
        namespace: str,
        *,
        quality_at_most: int,
        score_below: float,
        limit: int,
        offset: int,
    ) -> list[MemoryRecord]:
        """Live memories with ``quality <= quality_at_most``, or with ``score <
        score_below`` and ``quality < 0``: lowest quality first, then lowest score (no
        score last), then oldest."""
        ...

    def count_prune_candidates(
        self, namespace: str, *, quality_at_most: int, score_below: float
    ) -> int:
        """How many memories ``prune_candidates`` would list in all."""
        ...

    def recent_vectors(
        self, namespace: str, model: str, *, limit: int, type: str | None = None
    ) -> RecentVectors:
        """The ``limit`` newest (``created_at``) live memories with a current vector of
        ``model``, of one ``type`` if given, with their vectors."""
        ...

    def preference_rows(
        self, namespace: str, *, after_id: int = 0, limit: int = 1000
    ) -> list[PreferenceRow]:
        """Feedback rows of ``namespace`` with ``id > after_id``, oldest first, joined
        with their memories (tombstoned ones too: a downvoted memory that was pruned is
        still a label)."""
        ...

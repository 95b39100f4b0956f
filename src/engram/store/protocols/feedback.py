"""The feedback part of a store: seed 000's thumbs, applied to quality and logged."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.records import MemoryRecord


@dataclass(frozen=True, slots=True)
class FeedbackRow:
    """One row of the feedback log (seed 000's labelled preference data)."""

    memory_id: str
    namespace: str
    rating: int
    comment: str | None
    created_at: datetime
    id: int | None = None
    """The row's local id; None for a row about to be imported (the store assigns one)."""


@runtime_checkable
class FeedbackStore(Protocol):
    """Ratings: quality moves, the rating is logged, the change is audited, in one
    transaction."""

    def record(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """Apply a rating to quality (clamped to [-3, 3]), log it, audit it; returns
        (before, after)."""
        ...

    def log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
        """Rows of the feedback log of ``namespace`` (of one memory), oldest first."""
        ...

"""The review part of a store: proposals the write pipeline held back for a person.

When contradiction detection fires on an UPDATE or DELETE proposal (seed 004's
``reviewNeeded``), the proposal is queued here instead of being applied; approving it
applies it, rejecting it records the decision. Every item and its resolution also leave
rows in ``memory_history``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: Where a review item stands.
REVIEW_STATUSES = ("pending", "approved", "rejected")


@dataclass(frozen=True, slots=True)
class ReviewItem(Record):
    """One held-back proposal."""

    id: int
    namespace: str
    memory_id: str
    """The memory the fact was extracted from."""
    target_id: str | None
    """The memory the proposal would change."""
    action: str
    proposal: dict[str, Any]
    reason: str
    """Why it needs review (the contradiction found)."""
    status: str
    created_at: datetime
    resolved_by: str | None = None
    note: str | None = None
    resolved_at: datetime | None = None

    _extra = ("sides",)

    @property
    def sides(self) -> dict[str, Any]:
        """The old claim beside the new one (issue 28): each side's memory id, its
        text and the clause that conflicts, with the reason in words. ``mem.review``
        fills in what a proposal queued without them lacks."""
        old = self.proposal.get("old")
        new = self.proposal.get("new")
        return {
            "old": dict(old) if isinstance(old, Mapping) else {"memory_id": self.target_id},
            "new": dict(new)
            if isinstance(new, Mapping)
            else {"memory_id": self.memory_id, "text": self.proposal.get("content")},
            "reason": self.reason,
        }


@runtime_checkable
class ReviewStore(Protocol):
    """The review queue: add, read, resolve."""

    def add(
        self,
        namespace: str,
        memory_id: str,
        *,
        target_id: str | None,
        action: str,
        proposal: Mapping[str, Any],
        reason: str,
        now: datetime,
    ) -> ReviewItem:
        """Queue a proposal for review (joins an open transaction); the pending item of
        the same memory, target and action when there is one, so a change proposed by
        two passes is reviewed once."""
        ...

    def get(self, namespace: str, item_id: int) -> ReviewItem | None:
        """One item of ``namespace``."""
        ...

    def select(
        self, namespace: str, *, status: str | None = "pending", limit: int = 100, offset: int = 0
    ) -> list[ReviewItem]:
        """Items of ``namespace``, oldest first."""
        ...

    def count(self, namespace: str, *, status: str | None = "pending") -> int:
        """How many items of ``namespace`` have ``status`` (all when None)."""
        ...

    def resolve(
        self,
        namespace: str,
        item_id: int,
        *,
        status: str,
        actor: str | None,
        note: str | None,
        now: datetime,
    ) -> ReviewItem:
        """Approve or reject a pending item; ``NotFoundError`` if it is not pending in
        ``namespace`` (joins an open transaction, so the change it approves commits with
        it)."""
        ...

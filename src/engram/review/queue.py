"""``mem.review``'s queue: the proposals contradiction detection held back (seed 004's
``reviewNeeded``), for a person to approve (then they are applied) or reject."""

from __future__ import annotations

import builtins
import dataclasses
from typing import Any, Unpack

from engram.core import Part
from engram.errors import InvalidInputError, NotFoundError, PermissionDeniedError, shown
from engram.pipeline import contradiction
from engram.pipeline.apply import apply_destructive, mode_of, review_sides
from engram.pipeline.decisions import Proposal
from engram.records import utcnow
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols import REVIEW_STATUSES, ReviewItem
from engram.validate import choice, offset_value, positive_int, row_id


def _proposal(data: dict[str, Any]) -> Proposal:
    return Proposal(
        action=str(data["action"]),
        content=str(data["content"]),
        fact_type=str(data.get("fact_type", "fact")),
        fact_confidence=float(data.get("fact_confidence", 0.0)),
        confidence=float(data.get("confidence", 0.0)),
        reason=str(data.get("reason", "")),
        target_id=data.get("target_id"),
        candidates=tuple(data.get("candidates", ())),
        decided_by=str(data.get("decided_by", "rule")),
    )


class ReviewQueue(Part):
    """The review queue of a ``Memory``."""

    @scoped
    def list(
        self,
        *,
        status: str | None = "pending",
        limit: int = 100,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> builtins.list[ReviewItem]:
        """Held-back proposals of a namespace, oldest first (``status=None``: all)."""
        core = self._core
        scope = core.open_scope(**who)
        positive_int("limit", limit, upper=10_000)
        offset_value(offset)
        status = _status(status)
        items = core.store.review.select(scope.namespace, status=status, limit=limit, offset=offset)
        return [self._sided(item) for item in items]

    @scoped
    def count(self, *, status: str | None = "pending", **who: Unpack[ScopeArgs]) -> int:
        """How many items of a namespace have ``status``."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.review.count(scope.namespace, status=_status(status))

    @scoped
    def get(self, item_id: int, **who: Unpack[ScopeArgs]) -> ReviewItem:
        """One item; ``NotFoundError`` if it is not in this namespace."""
        core = self._core
        scope = core.open_scope(**who)
        item = core.store.review.get(scope.namespace, row_id("a review item id", item_id))
        if item is None:
            raise NotFoundError(f"no review item {item_id} in namespace {shown(scope.namespace)}")
        return self._sided(item)

    def _sided(self, item: ReviewItem) -> ReviewItem:
        """``item`` with its old and new claims side by side (``ReviewItem.sides``):
        proposals queued without them (retroactive supersession, or before issue 28)
        get them from the target memory and the claims the check reads."""
        if "old" in item.proposal and "new" in item.proposal:
            return item
        target = self._core.store.memories.get(
            item.namespace, item.target_id or "", include_deleted=True
        )
        if target is None:
            return item
        new_text = str(item.proposal.get("content", ""))
        verdict = contradiction.syntactic(new_text, target.content)
        sides = review_sides(target, verdict.old_claim, item.memory_id, new_text, verdict.new_claim)
        return dataclasses.replace(item, proposal={**item.proposal, **sides})

    @scoped
    def approve(
        self,
        item_id: int,
        *,
        note: str | None = None,
        actor: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> ReviewItem:
        """Apply the held-back UPDATE (the target is superseded by the fact) or DELETE
        (the target is tombstoned), then mark the item approved."""
        core = self._core
        item = self.get(item_id, **who)
        if item.status != "pending":
            raise InvalidInputError(f"review item {item.id} is already {item.status}")
        if mode_of(core.config.pipeline) == "shadow":
            raise PermissionDeniedError(
                "the pipeline is in shadow mode (shadow_mode or mutations_frozen): nothing "
                "is written, so nothing can be approved; reject it or change the mode"
            )
        proposal = _proposal(item.proposal)
        source = core.store.memories.get(item.namespace, item.memory_id, include_deleted=True)
        target = core.store.memories.get(item.namespace, item.target_id or "")
        if source is None or target is None:
            raise NotFoundError(
                f"review item {item.id}: its memory is gone (purged or deleted); reject it"
            )
        now = utcnow()
        outcome, successor = apply_destructive(
            core, source, proposal, target, model=item.proposal.get("model"), now=now
        )
        details = {"applied": outcome, "successor_id": successor}
        return self._resolve(item, "approved", actor, note, details)

    @scoped
    def reject(
        self,
        item_id: int,
        *,
        note: str | None = None,
        actor: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> ReviewItem:
        """Drop the held-back proposal: nothing changes but the audit trail."""
        item = self.get(item_id, **who)
        return self._resolve(item, "rejected", actor, note, {})

    def _resolve(
        self,
        item: ReviewItem,
        status: str,
        actor: str | None,
        note: str | None,
        details: dict[str, Any],
    ) -> ReviewItem:
        if note is not None and (not isinstance(note, str) or len(note) > 2000):
            raise InvalidInputError("a review note is a string of at most 2000 characters")
        store = self._core.store
        now = utcnow()
        with store.transaction():
            resolved = store.review.resolve(
                item.namespace, item.id, status=status, actor=actor, note=note, now=now
            )
            store.audit.record(
                item.namespace,
                item.memory_id,
                "review",
                payload={"review_id": item.id, "status": status, "note": note, **details},
                actor=actor,
                reason=f"{item.action} {status}",
                now=now,
            )
        return self._sided(resolved)


def _status(value: object) -> str | None:
    """A review status to filter on (None: every status)."""
    return None if value is None else choice("review status", value, REVIEW_STATUSES)

"""Prune candidates and bulk delete with a dry run (FEATURES H4, seed 000's review tab).

A memory is a prune candidate when people have downvoted it at least twice (quality
<= -2), or when it scored badly (``MemoryRecord.score``, the evaluator's final score on
0-10, below 6) and has at least one net downvote (quality < 0). A memory without a
score is judged by its quality alone. Pruning tombstones: ``admin.purge`` removes the
rows for good, and until then ``history`` shows who pruned what and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engram.core import Core, Scope
from engram.errors import InvalidInputError, NotFoundError
from engram.records import MemoryRecord, Page, utcnow
from engram.store.protocols.record import Record
from engram.validate import memory_id_value, offset_value, positive_int

#: seed 000: "observations with quality <= -2 ..."
PRUNE_QUALITY_AT_MOST = -2
#: seed 000: "... or observations with both final_score < 6 and quality < 0".
PRUNE_SCORE_BELOW = 6.0
#: Ids one ``prune`` call takes (a page of candidates, or a brush selection of the graph).
MAX_PRUNE_IDS = 1000

Action = Literal["would_delete", "deleted", "skipped", "not_found"]


def prune_reason(record: MemoryRecord) -> str | None:
    """Which half of seed 000's rule ``record`` meets, or None if it is no candidate."""
    if record.quality <= PRUNE_QUALITY_AT_MOST:
        return f"quality {record.quality:+d} <= {PRUNE_QUALITY_AT_MOST}"
    if record.score is not None and record.score < PRUNE_SCORE_BELOW and record.quality < 0:
        return f"score {record.score:g} < {PRUNE_SCORE_BELOW:g} and quality {record.quality:+d} < 0"
    return None


@dataclass(frozen=True, slots=True)
class PruneOutcome(Record):
    """What ``prune`` did (or would do) with one id."""

    id: str
    action: Action
    reason: str
    """The rule the memory met, or why it was left alone."""


@dataclass(frozen=True, slots=True)
class PruneReport(Record):
    """The result of ``mem.review.prune``: one outcome per distinct id, in input order."""

    dry_run: bool
    items: tuple[PruneOutcome, ...]
    # The id lists before the outcomes, as the report has always been written.
    _hidden = ("items",)
    _extra = ("deleted", "would_delete", "items")

    @property
    def deleted(self) -> list[str]:
        """Ids tombstoned by this call (none on a dry run)."""
        return [i.id for i in self.items if i.action == "deleted"]

    @property
    def would_delete(self) -> list[str]:
        """Ids a dry run would tombstone."""
        return [i.id for i in self.items if i.action == "would_delete"]


def candidates(core: Core, scope: Scope, limit: int, offset: int) -> Page:
    """A page of live prune candidates of ``scope``, worst first."""
    positive_int("limit", limit, upper=10_000)
    offset_value(offset)
    curation = core.store.curation
    records = curation.prune_candidates(
        scope.namespace,
        quality_at_most=PRUNE_QUALITY_AT_MOST,
        score_below=PRUNE_SCORE_BELOW,
        limit=limit,
        offset=offset,
    )
    if offset == 0 and len(records) < limit:
        return Page(records, limit=limit, offset=offset, total=len(records))
    return Page(
        records,
        limit=limit,
        offset=offset,
        total=lambda: curation.count_prune_candidates(
            scope.namespace, quality_at_most=PRUNE_QUALITY_AT_MOST, score_below=PRUNE_SCORE_BELOW
        ),
    )


def _ids(ids: object) -> list[str]:
    if isinstance(ids, str) or not isinstance(ids, Sequence):
        raise InvalidInputError("ids must be a list of memory ids, e.g. ['3f2a...', '9bc1...']")
    if len(ids) > MAX_PRUNE_IDS:
        raise InvalidInputError(
            f"prune takes at most {MAX_PRUNE_IDS} ids per call, got {len(ids)}; send them "
            "in batches"
        )
    return list(dict.fromkeys(memory_id_value(i) for i in ids))


def prune(
    core: Core,
    scope: Scope,
    ids: Sequence[str],
    *,
    dry_run: bool,
    only_candidates: bool,
    actor: str | None,
) -> PruneReport:
    """Tombstone ``ids`` (only prune candidates unless ``only_candidates=False``); each
    one in its own transaction with a ``prune`` history row saying why."""
    if not isinstance(dry_run, bool) or not isinstance(only_candidates, bool):
        raise InvalidInputError("dry_run and only_candidates are true or false")
    wanted = _ids(ids)
    found = core.store.memories.get_many(scope.namespace, wanted)
    outcomes: list[PruneOutcome] = []
    for memory_id in wanted:
        record = found.get(memory_id)
        if record is None:
            outcomes.append(PruneOutcome(memory_id, "not_found", "no live memory in namespace"))
            continue
        reason = prune_reason(record)
        if reason is None:
            if only_candidates:
                outcomes.append(PruneOutcome(memory_id, "skipped", "not a prune candidate"))
                continue
            reason = "selected by hand (not a prune candidate)"
        if dry_run:
            outcomes.append(PruneOutcome(memory_id, "would_delete", reason))
            continue
        outcomes.append(_tombstone(core, scope, record, reason, actor or "prune"))
    return PruneReport(dry_run=dry_run, items=tuple(outcomes))


def _tombstone(
    core: Core, scope: Scope, record: MemoryRecord, reason: str, actor: str
) -> PruneOutcome:
    store = core.store
    try:
        with store.transaction():  # the audit row and the tombstone land together
            store.audit.record(
                scope.namespace,
                record.id,
                "prune",
                payload={"quality": record.quality, "score": record.score, "rule": reason},
                actor=actor,
                reason=reason,
                now=utcnow(),
            )
            store.memories.delete(scope.namespace, record.id, actor=actor)
    except NotFoundError:  # deleted by someone else since it was read
        return PruneOutcome(record.id, "not_found", "no live memory in namespace")
    if core.index is not None:
        core.index.removed(scope.namespace, record.id)
    return PruneOutcome(record.id, "deleted", reason)

"""Which memories consolidation folds: the cap's oldest, and the old ones (seed 002;
FEATURES S8).

seed 002 runs consolidation every ``consolidation_interval`` to "compress old
memories", and enforces ``max_memories_per_agent``. So a round folds two kinds of
groups, per category (``groups``):

- **the cap**: a namespace over ``max_memories_per_agent`` loses its oldest memories,
  however young, until it is at or under the cap (``Lifecycle._plan``);
- **age**: below the cap too, live memories written more than ``compress_after_days``
  ago are folded, in full groups of ``group_size`` only, so each summary stands for a
  whole group and a few memories aging each day wait for the rest of their group
  instead of becoming a summary of two. Summaries themselves are never folded again
  (their originals are in the archive, and a summary of summaries could not be
  restored in one step), and a round takes at most ``MAX_AGED`` memories per
  namespace, so a store opened after a long pause catches up over a few rounds
  instead of in one long one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from engram.records import MemoryRecord
from engram.store.protocols import ListQuery
from engram.store.protocols.backend import Store

#: Tag of every summary memory consolidation writes.
SUMMARY_TAG = "consolidated"
#: Old memories read per namespace per round (50 groups of the default 20).
MAX_AGED = 1000


def groups(records: Sequence[MemoryRecord], size: int) -> list[list[MemoryRecord]]:
    """``records`` (oldest first) in runs of at most ``size`` per category, the
    categories in name order."""
    by_category: dict[str, list[MemoryRecord]] = {}
    for record in records:  # oldest first
        key = "" if record.category is None else str(record.category)
        by_category.setdefault(key, []).append(record)
    out: list[list[MemoryRecord]] = []
    for key in sorted(by_category):
        group = by_category[key]
        out.extend(group[i : i + size] for i in range(0, len(group), size))
    return out


def aged_groups(
    store: Store,
    namespace: str,
    *,
    days: int | None,
    size: int,
    now: datetime,
    taken: Collection[str] = (),
) -> list[list[MemoryRecord]]:
    """Full groups of ``size`` live memories of ``namespace`` older than ``days`` (none
    when ``days`` is None), leaving out summaries and the ids in ``taken`` (already
    folded by the cap this round)."""
    if days is None:
        return []
    try:
        cutoff = now - timedelta(days=days)
    except OverflowError:  # a clock in the first days of year 1: nothing is that old
        return []
    old = store.memories.select(
        namespace, ListQuery(created_before=cutoff, newest_first=False, limit=MAX_AGED)
    )
    kept = [r for r in old if r.id not in taken and SUMMARY_TAG not in r.tags]
    return [g for g in groups(kept, size) if len(g) == size]

"""Semantic dedup (seed 004's ``repair.dedupSemanticThreshold`` 0.92): memories of one
namespace whose vectors are at least that close are one memory said twice.

A scan takes the newest ``dedup_batch_size`` memories with a current vector and asks
the namespace's dense search (the store's own: the in-memory index or HNSW on SQLite,
pgvector on PostgreSQL) for each one's nearest neighbours, so a scan costs
``batch_size`` top-k searches, whatever the namespace's size. A group is a memory and
its neighbours at or above the threshold; one is kept (best feedback, then
importance, then the oldest) and the others are *superseded* by it, never deleted:
``superseded_by`` leaves them out of recall, while ``get`` and ``history`` still show
them and their content. Each merge writes a history row on every superseded memory
and an audit row on the kept one, in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engram.core import Core
from engram.errors import NotFoundError
from engram.records import MemoryRecord
from engram.store.protocols.record import Record

#: Who the history rows name.
ACTOR = "maintenance"
#: Neighbours asked of the dense search per memory.
NEIGHBOURS = 10
#: Cosines are float32: a pair built at exactly the threshold may come back a few ulps
#: below it, and "at 0.92" must count as a duplicate.
TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class DuplicateGroup(Record):
    """A kept memory and the near-duplicates it supersedes (with their cosines)."""

    kept: str
    duplicates: dict[str, float]


@dataclass(frozen=True, slots=True)
class DedupReport(Record):
    """What a dedup scan found and, in execute mode, merged."""

    namespace: str
    threshold: float
    scanned: int
    groups: list[DuplicateGroup] = field(default_factory=list)
    executed: bool = False
    merged: int = 0
    """Memories superseded by this run (0 when observing)."""
    skipped: str | None = None
    """Why an execute run merged nothing: ``cooldown``, ``budget`` or ``no embedder``."""


def _keeper(records: list[MemoryRecord]) -> MemoryRecord:
    """The memory a group keeps: most thumbs up, then most important, then oldest."""
    return min(
        records,
        key=lambda r: (-r.quality, -(r.importance or 0.0), r.created_at, r.id),
    )


def find(
    core: Core, namespace: str, threshold: float, batch_size: int
) -> tuple[int, list[DuplicateGroup]]:
    """(memories scanned, duplicate groups) among the newest ``batch_size`` memories of
    ``namespace`` and their neighbours."""
    assert core.embedder is not None and core.index is not None
    page = core.store.maintenance.vector_page(
        namespace, core.embedder.name, before_seq=None, limit=batch_size
    )
    merged: set[str] = set()  # memories a group already supersedes
    groups: dict[str, dict[str, float]] = {}  # kept id -> duplicates and their cosines
    for _, memory_id, vector in page:
        if memory_id in merged:
            continue
        close = {
            other: float(score)
            for other, score in core.index.search(namespace, vector, NEIGHBOURS + 1)
            if other != memory_id and other not in merged and score >= threshold - TOLERANCE
        }
        if not close:
            continue
        records = core.store.memories.get_many(namespace, [memory_id, *close])
        live = [r for r in records.values() if r.superseded_by is None and not r.deleted]
        if len(live) < 2 or memory_id not in records:
            continue
        # A memory kept by an earlier group stays kept (no chains of supersession).
        keepers = [r for r in live if r.id in groups]
        kept = _keeper(keepers or live)
        for record in live:
            if record.id == kept.id or record.id in groups:
                continue
            # Its cosine to the scanned memory (the scanned one itself: to the kept one).
            cosine = close[kept.id] if record.id == memory_id else close[record.id]
            groups.setdefault(kept.id, {})[record.id] = cosine
            merged.add(record.id)
    return len(page), [DuplicateGroup(kept=k, duplicates=d) for k, d in groups.items()]


def merge(core: Core, namespace: str, group: DuplicateGroup, now: datetime) -> int:
    """Supersede a group's duplicates by its kept memory, audited, in one transaction;
    returns how many were superseded (a memory deleted meanwhile is skipped)."""
    merged: list[str] = []
    with core.store.transaction():
        for memory_id, cosine in group.duplicates.items():
            try:
                core.store.memories.update(
                    namespace,
                    memory_id,
                    {"superseded_by": group.kept},
                    event="dedup",
                    actor=ACTOR,
                    reason=f"semantic duplicate of {group.kept} (cosine {cosine:.4f})",
                )
            except NotFoundError:
                continue
            merged.append(memory_id)
        if merged:
            core.store.audit.record(
                namespace,
                group.kept,
                "dedup_merge",
                payload={"superseded": merged, "cosines": group.duplicates},
                actor=ACTOR,
                reason="semantic dedup kept this memory",
                now=now,
            )
    return len(merged)

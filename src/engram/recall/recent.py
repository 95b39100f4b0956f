"""Recall's last fallback (architecture principle 4): with no keyword in the query and
no vectors to search, the namespace's most recent memories, scored by recency alone."""

from __future__ import annotations

from engram.config import RecallConfig
from engram.recall import scoring
from engram.recall.request import RecallRequest
from engram.records import Hit, ScoreBreakdown, utcnow
from engram.store.protocols import ListQuery, MemoryStore


def recent_hits(
    memories: MemoryStore, request: RecallRequest, cfg: RecallConfig
) -> tuple[list[Hit], int]:
    """The newest memories ``request`` may see as hits, and how many were read."""
    now = utcnow()
    records = memories.select(request.namespace, ListQuery(limit=request.limit * 4))
    found = len(records)
    if request.filtered:
        records = list(request.kept({r.id: r for r in records}).values())
    hits = []
    for memory in records[: request.limit]:
        fresh = scoring.recency(memory.created_at, now, cfg.decay_rate)
        breakdown = ScoreBreakdown(
            sim=None,
            bm25=None,
            fused=0.0,
            quality_factor=scoring.q_adjust(memory.quality),
            quality_weight=scoring.quality_weight(memory.score),
            rank_score=0.0,
            recency=fresh,
            final=fresh,
        )
        hits.append(Hit(memory=memory, score=fresh, breakdown=breakdown))
    return hits, found

"""Fusion and final ranking of recall's candidates.

``fuse`` blends each leg with its session context and fuses the legs (weighted or RRF,
plus nearness to a time the query names); ``rank`` turns fused relevance into the final
score with quality (seed 004) and recency, and explains each hit's score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engram.config import RecallConfig
from engram.recall import context, fusion, scoring
from engram.recall.directives import standalone
from engram.recall.request import Legs
from engram.records import Hit, MemoryRecord, RecallMode, ScoreBreakdown, utcnow


def fuse(
    legs: Legs,
    cfg: RecallConfig,
    ids: Sequence[str],
    dense: Mapping[str, float],
    keyword: Mapping[str, float],
    sessions: context.Sessions,
    times: Mapping[str, float],
    long: frozenset[str] = frozenset(),
    directives: frozenset[str] = frozenset(),
) -> tuple[dict[str, float], dict[str, tuple[float | None, float | None]]]:
    """Fused relevance in [0, 1] per candidate, and each leg's blended score."""
    mode = legs.mode
    use_dense = mode is not RecallMode.KEYWORD and cfg.strategy != "bm25"
    use_keyword = mode is not RecallMode.DENSE and cfg.strategy != "dense"
    dense_leg: dict[str, float] = {}
    keyword_leg: dict[str, float] = {}
    if use_dense:
        ctx, sess = context.dense_context(ids, dense, sessions, cfg.context_dense_previous)
        own = {i: fusion.dense_relevance(dense[i]) for i in ids if i in dense}
        dense_leg = context.blend(own, ctx, sess, cfg.context_dense, cfg.session_dense)
        standalone(dense_leg, dense, directives)  # issue 24: standing instructions
    if use_keyword:
        ctx, sess = context.keyword_context(ids, keyword, sessions)
        own = {i: keyword.get(i, 0.0) for i in ids}
        keyword_leg = context.blend(own, ctx, sess, cfg.context_keyword, cfg.session_keyword)
    if use_dense and use_keyword and cfg.fusion == "rrf":
        fused = fusion.rrf(
            [
                sorted(
                    (i for i in dense_leg if dense_leg[i] > 0),
                    key=dense_leg.__getitem__,
                    reverse=True,
                ),
                sorted(
                    (i for i in keyword_leg if keyword_leg[i] > 0),
                    key=keyword_leg.__getitem__,
                    reverse=True,
                ),
            ],
            cfg.rrf_k,
        )
    elif use_dense and use_keyword:
        fused = fusion.weighted(ids, dense_leg, keyword_leg, cfg.alpha)
        if long and cfg.long_alpha is not None:  # issue 13: long memories' own weight
            fused.update(
                fusion.weighted(
                    [i for i in ids if i in long], dense_leg, keyword_leg, cfg.long_alpha
                )
            )
        if directives and cfg.directive_alpha is not None:  # issue 24: standing instructions
            fused.update(
                fusion.weighted(
                    [i for i in ids if i in directives], dense_leg, keyword_leg, cfg.directive_alpha
                )
            )
    elif use_dense:
        fused = {i: dense_leg.get(i, 0.0) for i in ids}
    else:
        fused = {i: keyword_leg.get(i, 0.0) for i in ids}
    if times:
        fused = {
            i: (f + cfg.time_weight * times.get(i, 0.0)) / (1.0 + cfg.time_weight)
            for i, f in fused.items()
        }
    parts = {i: (dense_leg.get(i), keyword_leg.get(i) if use_keyword else None) for i in ids}
    return fused, parts


def rank(
    pool: Sequence[str],
    records: Mapping[str, MemoryRecord],
    fused: Mapping[str, float],
    dense: Mapping[str, float],
    bm25: Mapping[str, float],
    parts: Mapping[str, tuple[float | None, float | None]],
    cfg: RecallConfig,
    damp: Mapping[str, float],
) -> list[Hit]:
    now = utcnow()
    hits: list[Hit] = []
    for memory_id in pool:
        memory = records[memory_id]
        relevance = min(1.0, fused.get(memory_id, 0.0) + cfg.personal_boost)
        factor = damp.get(memory_id, 1.0)
        if cfg.quality_weighting:
            rank = scoring.rank_score(relevance * factor, memory.score, memory.quality)
        else:
            rank = relevance * factor
        fresh = scoring.recency(memory.created_at, now, cfg.decay_rate)
        final = (1 - cfg.recency_weight) * rank + cfg.recency_weight * fresh
        hits.append(
            Hit(
                memory=memory,
                score=final,
                breakdown=ScoreBreakdown(
                    sim=dense.get(memory_id),
                    bm25=bm25.get(memory_id),
                    fused=relevance,
                    quality_factor=scoring.q_adjust(memory.quality),
                    quality_weight=scoring.quality_weight(memory.score),
                    rank_score=rank,
                    recency=fresh,
                    final=final,
                    dense=parts.get(memory_id, (None, None))[0],
                    keyword=parts.get(memory_id, (None, None))[1],
                    dampening=factor,
                ),
            )
        )
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits

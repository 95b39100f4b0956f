"""Fusion and final ranking of recall's candidates.

``fuse`` blends each leg with its session context and fuses the legs (weighted or RRF,
plus nearness to a time the query names); ``rank`` turns fused relevance into the final
score with quality (seed 004) and recency, and explains each hit's score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.recall import context, fusion, scoring
from engram.recall.fuse_arrays import exact, kept, member, values
from engram.recall.fuse_arrays import parts as legs_of
from engram.recall.request import Legs
from engram.records import Hit, MemoryRecord, RecallMode, ScoreBreakdown, utcnow

Floats = npt.NDArray[np.float64]


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
    alone: frozenset[str] = frozenset(),
    contained: frozenset[str] = frozenset(),
) -> tuple[dict[str, float], dict[str, tuple[float | None, float | None]]]:
    """Fused relevance in [0, 1] per candidate, and each leg's blended score.

    In weighted fusion the keyword leg of the candidates in ``alone`` (memories outside
    any session) is scaled by its spread (``fusion.keyword_spread`` over every keyword
    match the leg read, ``recall.keyword_spread_rank``): with no session
    context to carry, a keyword match that is one of many as good cannot pick the
    context, and stops burying the dense leg's nearest memories (issue 24, round 9).
    A session's turns keep the whole leg: there, through its context, it finds the gold
    (round 8), unless the candidates mix both kinds and the nearest by cosine is a
    note, clearly (``recall.keyword_spread_margin``): then every candidate's leg is
    scaled (``fusion.spread_scale``, round 10).
    RRF reads ranks, which it leaves alone.

    The dense leg of the candidates in ``contained`` (``length.self_contained``: long
    memories, ``recall.context_alone_chars``) blends its own cosine with its session's
    mean alone, without its neighbours' (issue 24, C3).

    The candidates' scores are arrays in ``ids`` order, each formula one pass over them
    (the same operations in the same order as one candidate at a time, so the same
    doubles; tests/test_fusion_arrays.py): ~90 candidates a recall scored one Python
    call at a time were a fifth of the fuse stage at 100k (docs/benchmarks.md,
    "Recall's own work at 100k, round two")."""
    mode = legs.mode
    use_dense = mode is not RecallMode.KEYWORD and cfg.strategy != "bm25"
    use_keyword = mode is not RecallMode.DENSE and cfg.strategy != "dense"
    n = len(ids)
    has = np.zeros(n, dtype=bool)  # which candidates the dense leg scores
    dense_leg = np.zeros(n)
    keyword_leg = np.zeros(n)
    if use_dense:
        has = member(ids, dense)
        cosine = values(ids, dense)
        if sessions.session_of:
            ctx, sess = context.dense_context(ids, dense, sessions, cfg.context_dense_previous)
            near, whole = _array(ids, ctx), _array(ids, sess)
        else:  # each candidate its own context and session (context.dense_context)
            near = whole = np.fmax(cosine, 0.0) + 0.0  # max(0.0, c), -0.0 as 0
        dense_leg = context.blend(
            fusion.dense_relevance(cosine), near, whole, cfg.context_dense, cfg.session_dense
        )
        if contained:  # issue 24 (C3): a long memory without its neighbours' context
            itself = member(ids, contained) & has
            dense_leg[itself] = context.blend(
                fusion.dense_relevance(cosine[itself]),
                near[itself],
                whole[itself],
                0.0,
                cfg.session_dense,
            )
        if directives:  # issue 24: standing instructions by their own similarity
            standing = member(ids, directives) & has
            dense_leg[standing] = fusion.dense_relevance(cosine[standing])
    if use_keyword:
        own = values(ids, keyword)
        if sessions.session_of:
            ctx, sess = context.keyword_context(ids, keyword, sessions)
            near, whole = _array(ids, ctx), _array(ids, sess)
        else:  # each candidate alone (context.keyword_context)
            near, whole = context.best_is_one(own), context.best_is_one(own * own)
        keyword_leg = context.blend(own, near, whole, cfg.context_keyword, cfg.session_keyword)
    dense_list = dense_leg.tolist()
    dense_of = kept(ids, dense_list, has)
    if use_dense and use_keyword and cfg.fusion == "rrf":
        keyword_of = dict(zip(ids, keyword_leg.tolist(), strict=True))
        fused = fusion.rrf(
            [
                sorted(
                    (i for i in dense_of if dense_of[i] > 0), key=dense_of.__getitem__, reverse=True
                ),
                sorted(
                    (i for i in keyword_of if keyword_of[i] > 0),
                    key=keyword_of.__getitem__,
                    reverse=True,
                ),
            ],
            cfg.rrf_k,
        )
        if times:
            fused = {
                i: (f + cfg.time_weight * times.get(i, 0.0)) / (1.0 + cfg.time_weight)
                for i, f in fused.items()
            }
    else:
        if use_dense and use_keyword:
            scale: Floats | float = 1.0
            spread = fusion.keyword_spread(legs.keyword, cfg.keyword_spread_rank) if alone else 1
            if spread < 1.0:
                outside = member(ids, alone)
                scale = fusion.spread_scale(outside, has, cosine, spread, cfg.keyword_spread_margin)
            mixed = fusion.weighted(has, dense_leg, keyword_leg, cfg.alpha, scale)
            if long and cfg.long_alpha is not None:  # issue 13: long memories' own weight
                mask = member(ids, long)
                mixed[mask] = fusion.weighted(has, dense_leg, keyword_leg, cfg.long_alpha, scale)[
                    mask
                ]
            if directives and cfg.directive_alpha is not None:  # issue 24
                mask = member(ids, directives)
                mixed[mask] = fusion.weighted(
                    has, dense_leg, keyword_leg, cfg.directive_alpha, scale
                )[mask]
        elif use_dense:
            mixed = np.where(has, dense_leg, 0.0)
        else:
            mixed = keyword_leg
        if times:
            near_time = values(ids, times)
            mixed = (mixed + cfg.time_weight * near_time) / (1.0 + cfg.time_weight)
        fused = dict(zip(ids, mixed.tolist(), strict=True))
    keyword_list: list[Any] = keyword_leg.tolist() if use_keyword else [None] * n
    return fused, legs_of(ids, dense_list, has, keyword_list)


def _array(ids: Sequence[str], scores: Mapping[str, float]) -> Floats:
    return exact(ids, scores)


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

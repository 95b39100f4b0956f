"""Recall's fusion as array arithmetic (``ranking.fuse``) equals the per-candidate
formulas it replaced (session context, seed 004's weighted fusion), to the bit.

The reference below is the per-candidate fusion recall ran before session sixteen,
one candidate at a time; random candidates cover sessions and none,
candidates without a vector or a keyword score, long memories, standing
instructions, memories outside any session (the keyword spread), time scores, RRF and
each single-leg mode.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from engram.recall import context, fusion, ranking
from engram.recall.request import Legs
from engram.records import RecallMode
from engram.settings import RecallConfig


def _relevance(cosine: float) -> float:
    return min(1.0, max(0.0, cosine))


def _blend(
    own: Mapping[str, float],
    near: Mapping[str, float],
    whole: Mapping[str, float],
    w_near: float,
    w_whole: float,
) -> dict[str, float]:
    scale = 1.0 + w_near + w_whole
    return {i: (v + w_near * near[i] + w_whole * whole[i]) / scale for i, v in own.items()}


def _weighted(
    ids: Sequence[str],
    dense: Mapping[str, float],
    bm25: Mapping[str, float],
    alpha: float,
    scale: Mapping[str, float],
) -> dict[str, float]:
    out: dict[str, float] = {}
    for i in ids:
        b = bm25.get(i, 0.0)
        s = scale.get(i, 1.0)
        out[i] = alpha * _relevance(dense[i]) + (1 - alpha) * s * b if i in dense else b
    return out


def _reference(*args: Any) -> tuple[dict[str, float], dict[str, tuple[float | None, float | None]]]:
    """``ranking.fuse`` one candidate at a time: its arguments, all ten, in its order."""
    legs, cfg, ids, dense, keyword, sessions, times, long, directives, alone = args
    # issue 24 (round 9): memories outside any session, their keyword leg by its spread.
    spread = fusion.keyword_spread(legs.keyword, cfg.keyword_spread_rank)
    scale = {i: spread for i in alone}
    # Round 10: both kinds among the candidates and the nearest by cosine outside a
    # session, nearer than every turn by the margin: every candidate's leg by the spread.
    nearest = max((i for i in ids if i in dense), key=dense.__getitem__, default=None)
    turns = [dense[i] for i in ids if i in dense and i not in alone]
    if nearest in alone and turns and dense[nearest] - max(turns) >= cfg.keyword_spread_margin:
        scale = dict.fromkeys(ids, spread)
    mode = legs.mode
    use_dense = mode is not RecallMode.KEYWORD and cfg.strategy != "bm25"
    use_keyword = mode is not RecallMode.DENSE and cfg.strategy != "dense"
    dense_leg: dict[str, float] = {}
    keyword_leg: dict[str, float] = {}
    if use_dense:
        ctx, sess = context.dense_context(ids, dense, sessions, cfg.context_dense_previous)
        own = {i: _relevance(dense[i]) for i in ids if i in dense}
        dense_leg = _blend(own, ctx, sess, cfg.context_dense, cfg.session_dense)
        for i in directives:
            if i in dense_leg:
                dense_leg[i] = _relevance(dense.get(i, 0.0))
    if use_keyword:
        ctx, sess = context.keyword_context(ids, keyword, sessions)
        own = {i: keyword.get(i, 0.0) for i in ids}
        keyword_leg = _blend(own, ctx, sess, cfg.context_keyword, cfg.session_keyword)
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
        fused = _weighted(ids, dense_leg, keyword_leg, cfg.alpha, scale)
        if long and cfg.long_alpha is not None:
            fused.update(
                _weighted(
                    [i for i in ids if i in long], dense_leg, keyword_leg, cfg.long_alpha, scale
                )
            )
        if directives and cfg.directive_alpha is not None:
            fused.update(
                _weighted(
                    [i for i in ids if i in directives],
                    dense_leg,
                    keyword_leg,
                    cfg.directive_alpha,
                    scale,
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


def _case(rng: random.Random, n: int, with_sessions: bool) -> dict[str, object]:
    ids = [f"m{k}" for k in range(n)]
    others = [f"o{k}" for k in range(rng.randint(0, 5))]  # session members, not candidates
    dense = {i: rng.uniform(-0.3, 1.0) for i in ids + others if rng.random() < 0.8}
    keyword = {i: rng.random() for i in ids + others if rng.random() < 0.5}
    sessions = context.Sessions.empty()
    if with_sessions:
        pool = ids + others
        rng.shuffle(pool)
        members: dict[str, list[str]] = {}
        for i in pool:
            if rng.random() < 0.7:
                members.setdefault(f"s{rng.randint(0, 3)}", []).append(i)
        sessions = context.Sessions.from_members(members)
    return {
        "ids": ids,
        "dense": dense,
        "keyword": keyword,
        "sessions": sessions,
        "times": {i: rng.random() for i in ids if rng.random() < 0.3} if rng.random() < 0.5 else {},
        "long": frozenset(i for i in ids if rng.random() < 0.2),
        "directives": frozenset(i for i in ids if rng.random() < 0.2),
        "alone": frozenset(i for i in ids if rng.random() < 0.5),
    }


MODES = [
    (RecallMode.HYBRID, "hybrid", "weighted"),
    (RecallMode.HYBRID, "hybrid", "rrf"),
    (RecallMode.DENSE, "dense", "weighted"),
    (RecallMode.KEYWORD, "hybrid", "weighted"),
    (RecallMode.KEYWORD, "bm25", "weighted"),
]


@pytest.mark.parametrize(("mode", "strategy", "how"), MODES)
@pytest.mark.parametrize("with_sessions", [False, True])
def test_fuse_equals_the_per_candidate_formulas(
    mode: RecallMode, strategy: str, how: str, with_sessions: bool
) -> None:
    rng = random.Random(f"{mode}-{strategy}-{how}-{with_sessions}")
    for trial in range(60):
        n = [0, 1, 2, 7, 40, 180][trial % 6]
        case = _case(rng, n, with_sessions)
        cfg = replace(
            RecallConfig(),
            strategy=strategy,
            fusion=how,
            alpha=rng.choice([0.0, 0.3, 0.7, 1.0]),
            long_alpha=rng.choice([None, 1.0, 0.4]),
            directive_alpha=rng.choice([None, 0.7]),
            context_dense_previous=rng.choice([0.0, 0.5]),
            keyword_spread_rank=rng.choice([0, 2, 4]),
            keyword_spread_margin=rng.choice([0.0, 0.02, 0.3]),
        )
        legs = Legs(windows=[], mode=mode)
        legs.keyword.update(case["keyword"])  # the raw relevances the spread reads
        args = (
            legs,
            cfg,
            case["ids"],
            case["dense"],
            case["keyword"],
            case["sessions"],
            case["times"],
            case["long"],
            case["directives"],
            case["alone"],
        )
        want = _reference(*args)
        got = ranking.fuse(*args)  # type: ignore[arg-type]
        assert got == want
        assert list(got[0]) == list(want[0])  # the same order, too (pool ties sort by it)


def test_fuse_of_one_candidate_without_scores() -> None:
    legs = Legs(windows=[], mode=RecallMode.HYBRID)
    fused, parts = ranking.fuse(legs, RecallConfig(), ["a"], {}, {}, context.Sessions.empty(), {})
    assert fused == {"a": 0.0}
    assert parts == {"a": (None, 0.0)}


def test_fuse_clips_cosines_as_max_and_min_do() -> None:
    """A negative zero, a NaN, a cosine above 1 and below 0 score as ``dense_relevance``
    does (``max`` and ``min`` of Python floats)."""
    legs = Legs(windows=[], mode=RecallMode.DENSE)
    cfg = replace(RecallConfig(), strategy="dense")
    dense = {"a": -0.0, "b": 1.0000001, "c": -0.5, "d": float("nan")}
    args = (legs, cfg, ["a", "b", "c", "d"], dense, {}, context.Sessions.empty(), {})
    got = ranking.fuse(*args)
    want = _reference(*args, frozenset(), frozenset(), frozenset())
    assert got == want
    assert str(got[0]["a"]) == "0.0"
    assert got[0]["d"] == 0.0

"""The ranking formulas, value by value, from the seeds that define them.

seed 000: quality-weighted rank, ``q_adjust`` table, soft floor; seed 002: recency decay,
RRF with k=60, min_relevance, greedy token budget; seed 004: weighted fusion.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from conftest import flat_breakdown
from engram.recall import fusion, packing, scoring
from engram.records import Hit, MemoryRecord
from engram.text import normalize_content


def record(memory_id: str, content: str = "x", title: str | None = None) -> MemoryRecord:
    return MemoryRecord(
        id=memory_id,
        namespace="default",
        content=content,
        content_hash=normalize_content(content).content_hash,
        title=title,
    )


def hit(memory_id: str, score: float, title: str | None = None, content: str = "x") -> Hit:
    return Hit(
        memory=record(memory_id, content, title), score=score, breakdown=flat_breakdown(score)
    )


# -- seed 000: q_adjust ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "expected"),
    [
        (3, 1.45),  # the table in seed 000
        (1, 1.15),
        (0, 1.0),
        (-1, 0.85),
        (-3, 0.55),
        (-5, 0.25),
        (-6, 0.2),  # 1 - 0.9 = 0.1, floored at 0.2
        (-100, 0.2),
    ],
)
def test_q_adjust_table(quality: int, expected: float) -> None:
    assert scoring.q_adjust(quality) == pytest.approx(expected)


def test_q_adjust_is_monotonic_and_never_below_floor() -> None:
    values = [scoring.q_adjust(q) for q in range(-10, 4)]
    assert values == sorted(values)
    assert min(values) == pytest.approx(0.2)


# -- seed 000: quality weight with the soft floor -------------------------------------


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (6.0, 0.30),  # seed 000: "a run that scored 6.0 gets 0.30 rather than 0.60"
        (9.1, 0.91),
        (None, 0.5),  # missing score is neutral 5.0
        (7.0, 0.7),  # the floor is strict: 7.0 is not penalised
        (6.99, 0.3495),
        (10.0, 1.0),
        (0.0, 0.0),  # a real zero is not "missing"
        (5.0, 0.25),  # a real 5.0 is below the floor, unlike a missing score
    ],
)
def test_quality_weight(score: float | None, expected: float) -> None:
    assert scoring.quality_weight(score) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("sim", "score", "quality", "expected"),
    [
        (1.0, None, 0, 0.7 * 1.0 + 0.3 * 0.5),
        (0.8, 9.1, 3, (0.7 * 0.8 + 0.3 * 0.91) * 1.45),  # 1.20785
        (0.8, 6.0, 0, 0.7 * 0.8 + 0.3 * 0.30),  # 0.65
        (0.5, 7.0, -3, (0.35 + 0.21) * 0.55),  # 0.308
        (0.0, None, -6, (0.0 + 0.15) * 0.2),
    ],
)
def test_rank_score(sim: float, score: float | None, quality: int, expected: float) -> None:
    assert scoring.rank_score(sim, score, quality) == pytest.approx(expected)


def test_rank_score_hand_computed_values() -> None:
    assert scoring.rank_score(0.8, 9.1, 3) == pytest.approx(1.20785)
    assert scoring.rank_score(0.8, 6.0, 0) == pytest.approx(0.65)
    assert scoring.rank_score(0.5, 7.0, -3) == pytest.approx(0.308)


def test_soft_floor_demotes_equal_similarity() -> None:
    good = scoring.rank_score(0.6, 8.0, 0)
    neutral = scoring.rank_score(0.6, None, 0)
    low = scoring.rank_score(0.6, 6.0, 0)
    assert good > neutral > low


def test_feedback_beats_equal_similarity() -> None:
    assert scoring.rank_score(0.6, None, 3) > scoring.rank_score(0.6, None, 0)
    assert scoring.rank_score(0.6, None, -3) < scoring.rank_score(0.6, None, 0)


# -- seed 002: recency -----------------------------------------------------------------

NOW = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("hours", "rate", "expected"),
    [
        (0, 0.001, 1.0),
        (24, 0.001, math.exp(-0.024)),
        (24 * 365, 0.001, math.exp(-8.76)),
        (693.147, 0.001, 0.5),  # about 29 days halves it
        (10, 0.0, 1.0),
        (1, 0.5, math.exp(-0.5)),
    ],
)
def test_recency(hours: float, rate: float, expected: float) -> None:
    created = NOW - timedelta(hours=hours)
    assert scoring.recency(created, NOW, rate) == pytest.approx(expected, rel=1e-5)


def test_recency_future_timestamp_counts_as_now() -> None:
    future = NOW + timedelta(days=30)
    assert scoring.recency(future, NOW, 0.001) == 1.0


def test_recency_decreases_with_age() -> None:
    ages = [scoring.recency(NOW - timedelta(hours=h), NOW, 0.001) for h in (0, 1, 10, 1000)]
    assert ages == sorted(ages, reverse=True)
    assert all(0 < a <= 1 for a in ages)


# -- fusion ----------------------------------------------------------------------------


def test_normalize_bm25_divides_by_best() -> None:
    assert fusion.normalize_bm25({"a": 4.0, "b": 2.0, "c": 0.0}) == {
        "a": 1.0,
        "b": 0.5,
        "c": 0.0,
    }


def test_normalize_bm25_degenerate() -> None:
    assert fusion.normalize_bm25({}) == {}
    assert fusion.normalize_bm25({"a": 0.0, "b": 0.0}) == {"a": 0.0, "b": 0.0}


def test_dense_relevance_clips() -> None:
    cosines = np.array([-0.4, 0.3, 1.2, -0.0, np.nan])
    assert fusion.dense_relevance(cosines).tolist() == [0.0, 0.3, 1.0, 0.0, 0.0]


def test_weighted_fusion() -> None:
    # both, dense only, keyword only (negative cosine), no vector
    has = np.array([True, True, True, False])
    dense = np.array([0.8, 0.6, -0.2, 0.0])
    bm25 = np.array([1.0, 0.0, 0.4, 0.7])
    out = fusion.weighted(has, dense, bm25, alpha=0.25).tolist()
    assert out[0] == pytest.approx(0.25 * 0.8 + 0.75 * 1.0)
    assert out[1] == pytest.approx(0.25 * 0.6)  # no keyword match scores 0 there
    assert out[2] == pytest.approx(0.75 * 0.4)  # negative cosine clipped to 0
    # seed 004: "or the single available score otherwise"
    assert out[3] == pytest.approx(0.7)


def test_weighted_fusion_alpha_extremes() -> None:
    has, dense, bm25 = np.array([True, True]), np.array([0.9, 0.1]), np.array([0.0, 1.0])
    assert fusion.weighted(has, dense, bm25, 1.0).tolist() == pytest.approx([0.9, 0.1])
    assert fusion.weighted(has, dense, bm25, 0.0).tolist() == pytest.approx([0.0, 1.0])


def test_rrf_k60_by_hand() -> None:
    dense = ["a", "b", "c"]
    bm25 = ["c", "b", "d"]
    raw = {
        "a": 1 / 61,
        "b": 1 / 62 + 1 / 62,
        "c": 1 / 63 + 1 / 61,
        "d": 1 / 63,
    }
    lo, hi = min(raw.values()), max(raw.values())
    expected = {k: (v - lo) / (hi - lo) for k, v in raw.items()}
    out = fusion.rrf([dense, bm25])  # k defaults to 60
    assert out == pytest.approx(expected)
    # c (1st and 3rd) edges b (2nd and 2nd), both beat single-list hits
    assert out["c"] == 1.0 and out["d"] == 0.0
    assert out["c"] > out["b"] > out["a"] > out["d"]


def test_rrf_k_changes_amplification() -> None:
    rankings = [["a", "b", "c"], ["c", "b", "d"]]
    raw = {"a": 1 / 2, "b": 2 / 3, "c": 1 / 4 + 1 / 2, "d": 1 / 4}
    lo, hi = min(raw.values()), max(raw.values())
    expected = {k: (v - lo) / (hi - lo) for k, v in raw.items()}
    out = fusion.rrf(rankings, k=1)
    assert out == pytest.approx(expected)
    assert out["b"] < out["c"]


def test_rrf_degenerate() -> None:
    assert fusion.rrf([]) == {}
    assert fusion.rrf([[], []]) == {}
    assert fusion.rrf([["only"]]) == {"only": 1.0}
    assert fusion.rrf([["a", "b"], ["b", "a"]]) == {"a": 1.0, "b": 1.0}


# -- packing ---------------------------------------------------------------------------


def test_dedup_by_title_keeps_highest_ranked() -> None:
    hits = [
        hit("1", 0.9, "Deploy freeze"),
        hit("2", 0.8, "Other"),
        hit("3", 0.7, "  deploy FREEZE "),  # same title after strip + casefold
        hit("4", 0.6, None),
        hit("5", 0.5, None),  # untitled hits are never merged
        hit("6", 0.4, "Other"),
    ]
    assert [h.id for h in packing.dedup_by_title(hits)] == ["1", "2", "4", "5"]


def test_above_is_inclusive() -> None:
    hits = [hit("a", 0.9), hit("b", 0.5), hit("c", 0.49)]
    assert [h.id for h in packing.above(hits, 0.5)] == ["a", "b"]
    assert [h.id for h in packing.above(hits, 0.0)] == ["a", "b", "c"]
    assert packing.above(hits, 1.0) == []


def test_pack_budget_skips_and_continues() -> None:
    costs = {"a": 40, "b": 100, "c": 30, "d": 31, "e": 10}
    hits = [hit(k, 1.0 - i / 10) for i, k in enumerate(costs)]
    packed = packing.pack_budget(hits, 80, lambda h: costs[h.id])
    # a (40) fits, b (100) does not, c (30) fits -> 70 used, d (31) does not, e (10) fits
    assert [h.id for h in packed] == ["a", "c", "e"]
    assert sum(costs[h.id] for h in packed) <= 80


def test_pack_budget_keeps_rank_order_and_exact_fit() -> None:
    costs = {"a": 5, "b": 5}
    hits = [hit("a", 0.9), hit("b", 0.1)]
    assert [h.id for h in packing.pack_budget(hits, 10, lambda h: costs[h.id])] == ["a", "b"]
    assert [h.id for h in packing.pack_budget(hits, 9, lambda h: costs[h.id])] == ["a"]
    assert packing.pack_budget(hits, 4, lambda h: costs[h.id]) == []

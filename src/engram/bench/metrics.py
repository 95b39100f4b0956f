"""Retrieval metrics: recall@k, NDCG@k, and LongMemEval's any/all variants.

Every function takes a ranked list of ids (best first) and a set of gold ids, and
returns a float in [0, 1]. They are pure, so they are unit-tested against values
computed by hand.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


def distinct(ranked: Iterable[T]) -> list[T]:
    """Each id the first time it appears, in order (a ranking of sessions from turns)."""
    return list(dict.fromkeys(ranked))


def recall_at_k(ranked: Sequence[T], gold: set[T] | frozenset[T], k: int) -> float:
    """``|gold ∩ top-k| / |gold|``; 0 when ``gold`` is empty."""
    if not gold:
        return 0.0
    return len(gold.intersection(ranked[:k])) / len(gold)


def recall_any_at_k(ranked: Sequence[T], gold: set[T] | frozenset[T], k: int) -> float:
    """LongMemEval's recall_any@k: 1 if any gold id is in the top k."""
    top = set(ranked[:k])
    return float(any(g in top for g in gold))


def recall_all_at_k(ranked: Sequence[T], gold: set[T] | frozenset[T], k: int) -> float:
    """LongMemEval's recall_all@k: 1 if every gold id is in the top k."""
    if not gold:
        return 0.0
    top = set(ranked[:k])
    return float(all(g in top for g in gold))


def ndcg_at_k(ranked: Sequence[T], gold: set[T] | frozenset[T], k: int) -> float:
    """Binary-relevance NDCG@k: ``DCG = Σ rel_i / log2(i + 1)`` for ranks i = 1..k."""
    if not gold:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, item in enumerate(ranked[:k]) if item in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), k)))
    return dcg / ideal


def percentile(values: Sequence[float], pct: float) -> float:
    """The ``pct`` percentile (0-100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * pct / 100.0
    lo = math.floor(rank)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (rank - lo)


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean; 0 for no values."""
    items = list(values)
    return sum(items) / len(items) if items else 0.0

"""Fusing the dense and keyword candidate lists into one relevance in [0, 1]."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def normalize_bm25(scores: Mapping[str, float]) -> dict[str, float]:
    """Scale BM25 relevances (>= 0) by the best one, so the top keyword match is 1.0."""
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return {k: 0.0 for k in scores}
    return {k: v / best for k, v in scores.items()}


def dense_relevance(cosine: float) -> float:
    """Cosine clipped to [0, 1]: anti-correlated text is simply irrelevant."""
    return min(1.0, max(0.0, cosine))


def weighted(
    ids: Sequence[str],
    dense: Mapping[str, float],
    bm25: Mapping[str, float],
    alpha: float,
) -> dict[str, float]:
    """seed 004: ``alpha * vector + (1 - alpha) * bm25`` over normalised scores.

    ``dense`` holds cosine for every candidate that has a vector; ``bm25`` holds
    normalised keyword relevance for the candidates that match. A candidate missing
    from a leg that ran scores 0 there; if it has no vector at all, its keyword score
    stands alone (seed 004: "or the single available score otherwise").
    """
    out: dict[str, float] = {}
    for memory_id in ids:
        b = bm25.get(memory_id, 0.0)
        if memory_id in dense:
            out[memory_id] = alpha * dense_relevance(dense[memory_id]) + (1 - alpha) * b
        else:
            out[memory_id] = b
    return out


def rrf(rankings: Sequence[Sequence[str]], k: int = 60) -> dict[str, float]:
    """seed 002: ``sum(1 / (k + rank))`` over lists, min-max normalised to [0, 1]."""
    raw: dict[str, float] = {}
    for ranking in rankings:
        for rank, memory_id in enumerate(ranking, start=1):
            raw[memory_id] = raw.get(memory_id, 0.0) + 1.0 / (k + rank)
    if not raw:
        return {}
    lo, hi = min(raw.values()), max(raw.values())
    if hi == lo:
        return {memory_id: 1.0 for memory_id in raw}
    return {memory_id: (v - lo) / (hi - lo) for memory_id, v in raw.items()}

"""Fusing the dense and keyword candidate lists into one relevance in [0, 1]."""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


def normalize_bm25(scores: Mapping[str, float]) -> dict[str, float]:
    """Scale BM25 relevances (>= 0) by the best one, so the top keyword match is 1.0."""
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return {k: 0.0 for k in scores}
    return {k: v / best for k, v in scores.items()}


def keyword_spread(scores: Mapping[str, float], rank: int) -> float:
    """How far the keyword leg's best match stands above its ``rank``-th best, as a
    share of the best: ``(b1 - bk) / b1`` over raw relevances (``bk`` 0 when fewer
    than ``rank`` memories match), 1.0 when ``rank`` is 0 (off) or nothing matches.

    When ``rank`` memories or more match a query about as well as its best match (a
    paraphrase's common words in a big store), the keyword leg cannot tell which of
    them belong in the context, yet ``normalize_bm25`` gives its best match 1.0 however
    weak it is (issue 24, rounds 8 and 9: docs/benchmarks.md). A match that stands
    alone, a name or an identifier, keeps its whole weight."""
    if rank <= 0:
        return 1.0
    # The k largest first, then the matches among them (faster than filtering every
    # score first: issue 24, round 9).
    best = [v for v in heapq.nlargest(rank, scores.values()) if v > 0]
    if not best:
        return 1.0
    kth = best[rank - 1] if len(best) == rank else 0.0
    return (best[0] - kth) / best[0]


def spread_scale(
    outside: Bools, has: Bools, cosine: Floats, spread: float, margin: float
) -> Floats | float:
    """The keyword leg's scale per candidate (arrays in the candidates' order):
    ``spread`` for the memories ``outside`` any session, 1.0 for a session's turns,
    whose keyword leg, through their session context, finds the gold in a
    conversation (issue 24, round 8) -- unless the candidates mix both kinds and the
    nearest by cosine (of those ``has`` marks) is outside a session, nearer than every
    turn by ``margin``: then the question is about the notes, and a crowd of turns that
    share its common words, each carried by its neighbours' and its session's keyword
    context, buries the note it is about, so every candidate's leg is scaled (round 10:
    gold in the top 4 of 110 mixed calibration questions 72 -> 94 beside 300 LoCoMo
    turns, 62 -> 85 beside 2,000). A store of one kind is scaled as before."""
    if has.any() and not outside.all():
        near = np.where(has, cosine, -np.inf)
        nearest = int(np.argmax(near))
        turn = float(np.max(np.where(outside, -np.inf, near)))
        if outside[nearest] and turn > -np.inf and near[nearest] - turn >= margin:
            return spread
    return np.where(outside, spread, 1.0)


def dense_relevance(cosine: Floats) -> Floats:
    """Cosines clipped to [0, 1]: anti-correlated text is simply irrelevant. As
    ``min(1.0, max(0.0, c))`` of each: a NaN is 0, and so is -0.0."""
    return np.fmin(np.fmax(cosine, 0.0) + 0.0, 1.0)


def weighted(
    has: Bools, dense: Floats, bm25: Floats, alpha: float, scale: Floats | float = 1.0
) -> Floats:
    """seed 004: ``alpha * vector + (1 - alpha) * bm25`` over normalised scores, per
    candidate (arrays in the candidates' order).

    ``dense`` holds each candidate's dense score where ``has`` says it has a vector;
    ``bm25`` its normalised keyword relevance (0 where it does not match, or where the
    leg did not run), times ``scale`` where the two legs are mixed (per candidate or
    one for all: ``keyword_spread`` for memories outside any session). A candidate
    without a vector keeps its keyword score alone (seed 004: "or the single available
    score otherwise").
    """
    return np.where(has, alpha * dense_relevance(dense) + (1 - alpha) * scale * bm25, bm25)


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

"""How a search hit of the mem0 door is scored in mem0's terms: the ``score_details``
mem0's ``search(explain=True)`` writes, and the relevance its ``threshold`` gates."""

from __future__ import annotations

from typing import Any

from engram.records import ScoreBreakdown


def score_details(breakdown: ScoreBreakdown, score: float, threshold: float) -> dict[str, Any]:
    """A hit's ``score_details`` as mem0's ``search(explain=True)`` writes it
    (``semantic_score``, ``bm25_score``, ``entity_boost``, ``raw_score``,
    ``max_possible_score``, ``final_score``, ``threshold``), so code that reads mem0's
    keys runs, followed by engram's own breakdown, which says more.

    engram's terms in mem0's names: the dense cosine, BM25 normalised within the
    candidates (0 without a keyword match, as mem0's), no entity boost in a search (0.0,
    what was added), the fused relevance before quality and recency, the most engram's
    final score can be (1.0), and the score the hit carries."""
    return {
        "semantic_score": breakdown.sim if breakdown.sim is not None else 0.0,
        "bm25_score": breakdown.bm25 if breakdown.bm25 is not None else 0.0,
        "entity_boost": 0.0,
        "raw_score": breakdown.fused,
        "max_possible_score": 1.0,
        "final_score": score,
        "threshold": threshold,
        **breakdown.to_dict(),
    }


def relevance(breakdown: ScoreBreakdown) -> float:
    """What ``search``'s ``threshold`` gates, as mem0 2.2.1 gates it: the semantic
    score (the dense cosine) before anything is combined (mem0's ``score_and_rank``).
    engram's final score is no such measure: quality and recency give a memory that
    matches nothing about 0.23, so a threshold on it kept every memory of the scope.
    A hit the dense leg did not score (found by keyword alone, or no embedder) is
    gated on its fused relevance, which carries no quality or recency either."""
    return breakdown.sim if breakdown.sim is not None else breakdown.fused

"""After ranking: dedup by title, the relevance floor and greedy token-budget packing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engram.records import Hit


def dedup_by_title(hits: Sequence[Hit]) -> list[Hit]:
    """seed 000: when titles repeat, keep only the highest-ranked hit of each title."""
    seen: set[str] = set()
    out: list[Hit] = []
    for hit in hits:
        title = (hit.memory.title or "").strip().casefold()
        if title:
            if title in seen:
                continue
            seen.add(title)
        out.append(hit)
    return out


def above(hits: Sequence[Hit], min_relevance: float) -> list[Hit]:
    """seed 002: drop hits whose final score is below ``min_relevance``."""
    return [hit for hit in hits if hit.score >= min_relevance]


def pack_budget(hits: Sequence[Hit], budget: int, cost: Callable[[Hit], int]) -> list[Hit]:
    """seed 002: greedy token-budget packing in rank order.

    A hit that does not fit is skipped and smaller ones after it may still fit, so the
    budget is used well without ever reordering by size.
    """
    out: list[Hit] = []
    left = budget
    for hit in hits:
        c = cost(hit)
        if c <= left:
            out.append(hit)
            left -= c
    return out

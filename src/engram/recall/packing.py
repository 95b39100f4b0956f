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


def once_per_source(hits: list[Hit], on: bool = True) -> list[Hit]:
    """derived27: never both a memory and a fact the extract job derived from it
    (``source_memory_id``): the better ranked stays, so a restatement beside its source
    does not take a second line of the context, and the next hit moves up into the freed
    place. Two facts derived from one memory both stay while that memory is not kept
    above them (each says something of its own), so a hit only leaves when one of its
    own family above it says what it says. Off (``recall.derived_once = false``):
    ``hits`` unchanged."""
    if not on:
        return hits
    kept: set[str] = set()
    sources: set[str] = set()  # the sources of the derived facts kept so far
    out: list[Hit] = []
    for hit in hits:
        source = hit.memory.source_memory_id
        if hit.memory.id in sources or (source is not None and source in kept):
            continue
        kept.add(hit.memory.id)
        if source is not None:
            sources.add(source)
        out.append(hit)
    return out


def above(hits: Sequence[Hit], min_relevance: float) -> list[Hit]:
    """seed 002: drop hits whose final score is below ``min_relevance``."""
    return [hit for hit in hits if hit.score >= min_relevance]


def floor_kept(
    sims: Sequence[float | None],
    fused: Sequence[float],
    share: float,
    setters: Sequence[bool] | None = None,
) -> list[int]:
    """Indices of the hits :func:`relative_floor` keeps, given each hit's cosine (None
    without a dense score) and fused relevance (benchmarks score rows with it). The best
    is taken over the hits ``setters`` marks (all when None or none is marked): a hit
    that recall itself demoted (``setter``) does not raise the bar for the others."""
    if share <= 0 or not fused:
        return list(range(len(fused)))
    ref = [i for i in range(len(fused)) if setters is None or setters[i]] or range(len(fused))
    present = [s for i in ref if (s := sims[i]) is not None]
    best_sim = max(present) if present else None
    best_fused = max(fused[i] for i in ref)
    return [
        i
        for i, (sim, f) in enumerate(zip(sims, fused, strict=True))
        if f >= share * best_fused
        or (sim is not None and best_sim is not None and sim >= share * best_sim)
    ]


def setter(hit: Hit) -> bool:
    """Whether ``hit`` may set the relative floor's best: not one recall's dampening
    (now26's echoes and questions, seed 004's gravity and hub) pushed down."""
    return hit.breakdown.dampening >= 1.0


def relative_floor(hits: Sequence[Hit], share: float) -> list[Hit]:
    """issue 24 (padding): keep the hits whose cosine or fused relevance reaches
    ``share`` of the best among ``hits`` (a hit strong on either leg stays); 0 keeps all.
    A missing cosine (keyword mode) is judged on fused relevance alone."""
    sims = [h.breakdown.sim for h in hits]
    kept = set(
        floor_kept(sims, [h.breakdown.fused for h in hits], share, [setter(h) for h in hits])
    )
    # A later change moved above a kept statement answers in its place (recall/restated.py),
    # though the question's words sit in the statement: its cosine alone would drop it.
    ids = {hits[i].id for i in kept}
    return [h for i, h in enumerate(hits) if i in kept or h.breakdown.restates in ids]


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

"""Diversity in the final ranking (issue 24): evidence spread over sessions.

Session context lifts the turns of the best-matching session together, so the first
hits of a recall often come from one session (on LoCoMo dev, 61% of a multi-hop
question's top 5). A question whose evidence lies in several sessions then sees only one
of them in its context. ``recall.diversity`` reorders the ranked hits:

- ``session``: at most ``diversity_per_session`` hits of one session come before a hit
  of another session that scores within ``diversity_margin`` of them; the rest wait
  until what follows scores clearly lower (hits without a session are never held back).
- ``mmr``: maximal marginal relevance over the head (``diversity_top_n`` hits):
  ``mmr_lambda x score - (1 - mmr_lambda) x`` the highest cosine to a hit already
  chosen, with vectors of the hits' text from the embedder.

Neither changes which hits are returned, only their order (docs/recall.md, "Diversity").
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.records import Hit


def session_of(hit: Hit) -> str | None:
    """The session a hit's memory belongs to: its ``session_id``, or ``session_id`` or
    ``session`` in its metadata; None when it has none."""
    memory = hit.memory
    if memory.session_id:
        return str(memory.session_id)
    for key in ("session_id", "session"):
        value = memory.metadata.get(key)
        if value is not None and value != "":
            return str(value)
    return None


def by_session(hits: Sequence[Hit], per_session: int, margin: float) -> list[Hit]:
    """``hits`` (best first) with at most ``per_session`` hits of one session ahead of
    any hit of another session scoring at least their score minus ``margin``."""
    out: list[Hit] = []
    seen: Counter[str] = Counter()
    held: deque[Hit] = deque()
    for hit in hits:
        while held and held[0].score - margin > hit.score:
            out.append(held.popleft())
        session = session_of(hit)
        if session is not None and seen[session] >= per_session:
            held.append(hit)
            continue
        if session is not None:
            seen[session] += 1
        out.append(hit)
    out.extend(held)
    return out


def mmr(hits: Sequence[Hit], vectors: npt.NDArray[np.float32], weight: float) -> list[Hit]:
    """Maximal marginal relevance over ``hits`` whose unit ``vectors`` are the rows, in
    order: greedily the hit with the best ``weight x score - (1 - weight) x`` highest
    cosine to the hits already chosen."""
    if len(hits) < 3:
        return list(hits)
    scores = np.array([h.score for h in hits], dtype=np.float32)
    sims = vectors @ vectors.T
    chosen = [0]
    closest = sims[0].copy()
    left = np.ones(len(hits), dtype=bool)
    left[0] = False
    while left.any():
        value = weight * scores - (1.0 - weight) * closest
        value[~left] = -np.inf
        pick = int(np.argmax(value))
        chosen.append(pick)
        left[pick] = False
        closest = np.maximum(closest, sims[pick])
    return [hits[i] for i in chosen]


def apply(cfg: RecallConfig, hits: list[Hit], embedder: Embedder | None) -> list[Hit]:
    """``hits`` reordered as ``cfg.diversity`` says (unchanged for ``none``, and for
    ``mmr`` without an embedder)."""
    if cfg.diversity == "session":
        return by_session(hits, cfg.diversity_per_session, cfg.diversity_margin)
    if cfg.diversity == "mmr" and embedder is not None and len(hits) > 2:
        head = hits[: cfg.diversity_top_n]
        vectors = embedder.embed_batch([h.memory.embedding_text() for h in head])
        return [
            *mmr(head, np.asarray(vectors, dtype=np.float32), cfg.mmr_lambda),
            *hits[len(head) :],
        ]
    return hits

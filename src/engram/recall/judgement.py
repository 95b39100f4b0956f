"""issue 24 (hop39): a session leg for questions that ask for a judgement.

"Would Caroline likely pursue writing as a career?", "What might John do after his
basketball career?": such a question asks what someone would do or is likely to, and
what answers it is spread over what they said in several sessions, none of which says
it in the question's words. The candidates' first places fill with turns that look like
the question (its wording, its names); the sessions holding what they said about
themselves rank lower.

For such a question this stage ranks the namespace's *sessions* by their best memory's
cosine to the question without its anchor names (R1's residual query,
``recall/residual.py``: the speakers' names most memories mention), searched over the
whole namespace rather than among the candidates, and each candidate gains ``weight /
(k + its session's rank)`` (ranks from 1; a candidate outside the ranked sessions, or
without a session, gains nothing), the sum scaled back into [0, 1] as R1's is. Only the
order changes; each hit's cosine (``sim``) does not. A question with no anchor name to
drop, or of another form, or asked of a namespace none of whose memories holds a session
(no session to rank; lat42), is ranked as before and costs nothing.

Measured in docs/benchmarks.md, "Evidence spread over sessions", round hop39 (H6).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from engram.recall import anchors, residual
from engram.recall.chunks import PooledDense
from engram.recall.request import Clock, Legs, RecallRequest
from engram.store.protocols import MemoryStore
from engram.store.protocols.graph import GraphStore
from engram.store.protocols.memories import MemoryFacts
from engram.store.protocols.vectors import VectorSearch

if TYPE_CHECKING:
    from engram.config import RecallConfig

Vector = npt.NDArray[np.float32]

#: What someone would or might do, could do, or is likely to: a judgement over what
#: they said. "would you", "could you", "might I" are requests or the asker's own
#: plans, not a judgement about someone the memories tell of.
JUDGEMENT = re.compile(r"\b(?:would|might|could)\b(?!\s+(?:you|i|we)\b)|\blikely\b", re.IGNORECASE)

#: How many memories the session search reads (the sessions of the first ``DEPTH``
#: nearest memories are ranked by their first appearance).
DEPTH = 100


def asks_judgement(query: str) -> bool:
    """Whether ``query`` asks what someone would, might or could do, or is likely to."""
    return JUDGEMENT.search(query) is not None


@dataclass(frozen=True, slots=True)
class Reads:
    """What the second queries read: the graph and memories (which names are anchors),
    the query embedder (cached), the namespace sizes (reused for a minute)."""

    graph: GraphStore | None
    memories: MemoryStore
    embed: Callable[[str], Vector]
    sizes: anchors.NamespaceSizes | None


def wanted(query: str, cfg: RecallConfig) -> bool:
    """Whether :func:`second_queries` has anything to do for ``query``: R1's leg is on,
    or this one is and the question asks a judgement. Asked before its reads are put
    together, so the other questions pay the pattern alone."""
    return cfg.residual_weight > 0 or (cfg.judgement_weight > 0 and asks_judgement(query))


def second_queries(
    request: RecallRequest,
    cfg: RecallConfig,
    legs: Legs,
    reads: Reads,
    dense: Callable[[], VectorSearch | PooledDense],
    warnings: list[str],
    clock: Clock,
) -> None:
    """The question without its anchor names: R1's leg (``recall.residual_weight``) and,
    for a judgement question, this stage's session ranking (``recall.judgement_weight``),
    embedded once for both. Sets ``legs.residual_vector`` and ``legs.judgement_sessions``."""
    judged = cfg.judgement_weight > 0 and asks_judgement(request.query)
    judged = judged and sessioned(request, reads)
    if cfg.residual_weight <= 0 and not judged:
        return
    args = (request.namespace, reads.graph, reads.memories, cfg.residual_share)
    rest = residual.vector(request.query, *args, reads.embed, warnings, reads.sizes)
    clock.lap("residual")
    if cfg.residual_weight > 0:
        legs.residual_vector = rest
    if judged and rest is not None:
        ids = [memory_id for memory_id, _ in dense().search(request.namespace, rest, DEPTH)]
        facts = reads.memories.facts(request.namespace, ids)
        legs.judgement_sessions = session_ranks(ids, {i: facts[i].session_id for i in facts})
        clock.lap("judgement")


def sessioned(request: RecallRequest, reads: Reads) -> bool:
    """Whether the namespace holds a session this leg could rank (lat42: without one
    the leg ran the model and searched the namespace to change nothing)."""
    if reads.sizes is None:
        return reads.memories.count(request.namespace, query=anchors.SESSIONED) > 0
    return reads.sizes.sessioned(reads.memories, request.namespace)


def session_ranks(ranking: Iterable[str], session_of: Mapping[str, str | None]) -> dict[str, int]:
    """Sessions ranked from 1 by the first appearance of one of their memories in
    ``ranking`` (best first); memories without a session (or unknown) are skipped."""
    ranks: dict[str, int] = {}
    for memory_id in ranking:
        session = session_of.get(memory_id)
        if session is not None and session not in ranks:
            ranks[session] = len(ranks) + 1
    return ranks


def fuse(
    fused: Mapping[str, float],
    facts: Mapping[str, MemoryFacts],
    ranks: Mapping[str, int],
    cfg: RecallConfig,
) -> dict[str, float]:
    """``fused`` with each candidate's gain ``judgement_weight / (judgement_k + rank of
    its session)``, scaled by ``1 + weight / (k + 1)`` (the most a candidate can gain) so
    it stays in [0, 1]. A candidate without a session, or of a session not ranked, gains
    nothing."""
    weight, k = cfg.judgement_weight, cfg.judgement_k
    if weight <= 0 or not ranks:
        return dict(fused)
    scale = 1.0 + weight / (k + 1)
    out = {}
    for memory_id, score in fused.items():
        found = facts.get(memory_id)
        rank = ranks.get(found.session_id) if found and found.session_id else None
        gain = weight / (k + rank) if rank is not None else 0.0
        out[memory_id] = (score + gain) / scale
    return out

"""issue 24: a second dense leg, the question without its anchor names, fused by rank.

Most LoCoMo questions name a speaker ("What has Melanie painted?") whose name opens
half of the conversation's turns. In the embedding of the whole question that name
weighs as much as what is asked, so turns that *look like* the question ("Wow, Mel!
Any more paintings coming up?") outrank the turn that answers it in passing ("We love
painting together lately ..."). Embedding the question without the name finds those
turns better, but replacing the dense query with it (``recall.anchor_share``) moves the
cosines the abstain decision reads, and loses the questions that need the name.

This stage keeps the whole-question dense leg as it is and adds the rest of the
question as a separate ranking of the same candidates: each candidate gains
``weight / (k + rank)`` (reciprocal-rank fusion, rank from 1) by its cosine to the
question without the anchor names, and the sum is scaled back into [0, 1]. Only the
order of the candidates changes; ``sim`` (the whole question's cosine) does not. Which
names are anchors is ``anchors.dense_query`` at ``recall.residual_share``.

Measured in docs/benchmarks.md, "Evidence spread over sessions" (R1).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import numpy as np
import numpy.typing as npt

from engram.recall import anchors
from engram.store.protocols import MemoryStore
from engram.store.protocols.graph import GraphStore

log = logging.getLogger("engram.recall")

Vector = npt.NDArray[np.float32]


def vector(
    query: str,
    namespace: str,
    graph: GraphStore | None,
    memories: MemoryStore,
    share: float,
    embed: Callable[[str], Vector],
    warnings: list[str],
    sizes: anchors.NamespaceSizes | None = None,
) -> Vector | None:
    """The embedding of ``query`` without its anchor names, or None when it names none
    (then the stage adds nothing and costs no embedding)."""
    rest = anchors.dense_query(query, namespace, graph, memories, share, warnings, sizes)
    if not rest.dropped:
        return None
    try:
        return embed(rest.text)
    except Exception as exc:  # an optional second leg: never fail recall on it
        message = f"second dense leg unavailable, ranking by the whole query: {exc}"
        log.warning(message)
        warnings.append(message)
        return None


def fuse(
    fused: Mapping[str, float], cosines: Mapping[str, float], weight: float, k: int
) -> dict[str, float]:
    """``fused`` with each candidate's reciprocal rank by ``cosines`` added, scaled by
    ``1 + weight / (k + 1)`` (the most a candidate can gain) so it stays in [0, 1].
    Candidates without a cosine gain nothing."""
    if weight <= 0 or not cosines:
        return dict(fused)
    order = sorted((i for i in fused if i in cosines), key=lambda i: (-cosines[i], i))
    gain = {memory_id: weight / (k + rank) for rank, memory_id in enumerate(order, 1)}
    scale = 1.0 + weight / (k + 1)
    return {i: (f + gain.get(i, 0.0)) / scale for i, f in fused.items()}

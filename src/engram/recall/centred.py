"""Centred cosines: a second ranking of the candidates (tasks centre42, centre43).

In a namespace about one thing (a chat about one project) every memory's vector shares
a large component with every other, and with the question: the plain cosine then says
mostly "on topic". Taking the namespace's mean vector ``c`` off both sides leaves what
the question asks about beyond that, and the cosine of what is left,

    cos(m - c, q - c),

ranks the memories that hold *that* higher. It is fused by rank into the default order,
never in place of it: a candidate at default rank ``r`` and centred rank ``r2`` scores
``1 / (60 + r) + w / (k + r2)`` (``recall.centred_weight`` w, ``recall.centred_k`` k),
and the candidates take the default's fused scores in the new order, so every stage
after it (floors, abstain, the final rank) sees the same score distribution. Thread
questions (summaries, order, totals: ``coverage.thread``) are left alone: there every
message of the thread is on topic and beam40 measured the lever losing on them.

The mean is the dense search's (``VectorCentres``: a sum and a count per namespace kept
off the read path, so a recall with a shared space centres on the mean of both). With
unit vectors (every embedder's) the centred cosine needs no vector out of the store:
from ``a = m·q``, ``b = m·ĉ``, ``g = q·ĉ`` and ``r = |c|``,

    (m - c)·(q - c) = a - r b - r g + r²,   |m - c|² = 1 - 2 r b + r²,

so one read of the candidates' rows against ``q`` and ``ĉ`` together is the whole cost.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.recall import coverage
from engram.recall.request import RecallRequest
from engram.store.protocols.vector_centres import VectorCentres
from engram.store.protocols.vectors import VectorSearch

#: The default order's rank constant in the fused score (beam40's offline rows).
BASE_K = 60
#: Fewer vectors than this and there is no topic to take off.
MIN_VECTORS = 2
#: Whether a search type keeps centres: a runtime protocol check costs ~0.1 ms a call.
_KEEPS_CENTRES: dict[type, bool] = {}


def _centres(index: VectorSearch | None) -> VectorCentres | None:
    if index is None:
        return None
    kind = type(index)
    if kind not in _KEEPS_CENTRES:
        _KEEPS_CENTRES[kind] = isinstance(index, VectorCentres)
    return cast(VectorCentres, index) if _KEEPS_CENTRES[kind] else None


def namespaces(request: RecallRequest) -> list[str]:
    """The namespaces whose mean a recall centres on: its own, with the shared space it
    ranks beside them (or, in the shared leg, the personal one it serves)."""
    names = [request.namespace, *request.centred_on]
    if request.shared is not None:
        names.append(request.shared)
    return sorted(set(names))


def centred_cosines(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    g: float,
    r: float,
) -> npt.NDArray[np.float64]:
    """``cos(m - c, q - c)`` for unit ``m`` and ``q``, from ``a = m·q``, ``b = m·ĉ``,
    ``g = q·ĉ`` and ``r = |c|``."""
    num = a - r * b - r * g + r * r
    den = np.sqrt(np.maximum(1.0 - 2.0 * r * b + r * r, 1e-12)) * np.sqrt(
        max(1.0 - 2.0 * r * g + r * r, 1e-12)
    )
    out: npt.NDArray[np.float64] = num / den
    return out


def fused_order(
    count: int, held: npt.NDArray[np.intp], cos: npt.NDArray[np.float64], w: float, k: float
) -> npt.NDArray[np.intp]:
    """The positions ``0..count-1`` of a ranked list reordered by ``1 / (BASE_K + rank)
    + w / (k + centred rank)``, where the positions ``held`` have cosines ``cos`` (the
    others only their first term); ties keep the list's order."""
    score = 1.0 / (BASE_K + np.arange(1, count + 1, dtype=np.float64))
    second = np.empty(len(held), dtype=np.float64)
    second[np.argsort(-cos, kind="stable")] = np.arange(1, len(held) + 1)
    score[held] += w / (k + second)
    order: npt.NDArray[np.intp] = np.argsort(-score, kind="stable")
    return order


def reorder(
    request: RecallRequest,
    cfg: RecallConfig,
    fused: dict[str, float],
    query_vector: npt.NDArray[np.float32] | None,
    index: VectorSearch | None,
) -> dict[str, float]:
    """``fused`` with its scores handed out again in the centred fused order; ``fused``
    itself when the lever is off (weight 0), the question is a thread question, or
    there is no query vector, no centres or too few vectors to centre on."""
    w = cfg.centred_weight
    if w <= 0 or query_vector is None or len(fused) < 2:
        return fused
    centres = _centres(index)
    if centres is None or coverage.thread(request.query, cfg):
        return fused
    q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    q_norm = float(np.linalg.norm(q))
    if q_norm <= 0:
        return fused
    base = sorted(fused, key=fused.__getitem__, reverse=True)  # stable: ties keep order
    # The index's own cosines with the question: the dense leg's may be pooled with
    # chunks or conditions, and it has none for the keyword leg's ids; both columns
    # come from one gather of the rows, so reading them again costs next to nothing.
    got = centres.centred(request.namespace, namespaces(request), q / np.float32(q_norm), base)
    if got is None or got.count < MIN_VECTORS or len(got.ids) < 2:
        return fused
    at = {memory_id: n for n, memory_id in enumerate(base)}
    held = np.fromiter((at[i] for i in got.ids), dtype=np.intp, count=len(got.ids))
    cos = centred_cosines(got.a, got.b, got.g, got.r)
    order = fused_order(len(base), held, cos, w, cfg.centred_k)
    values = [fused[i] for i in base]  # descending
    return {base[p]: values[n] for n, p in enumerate(order.tolist())}

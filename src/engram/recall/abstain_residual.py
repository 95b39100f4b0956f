"""The attribute test's residual without a second model call (issue 24, resid28).

``abstain_attribute`` asks how near a shown note is to the question with the words
the note shares taken out. Embedding that masked question costs a model call per
confident answer (x1.24 median recall at 100k). The model already computed what is
needed when it embedded the question: its last layer's per-token vectors, whose
normalised mean is the question's vector (``MiniLMEmbedder.token_states``, the graph's
second output). So the residual is read from them: the question's vector with the
direction of the shared words' tokens projected out, normalised, against the note's
stored vector.

Why a projection, not the mean of the other tokens: each token's state already carries
the whole question (attention), so the mean of the tokens left stays as near the note
as the question itself (on abstain27's tune half it told near misses from answers with
an AUC of 0.70, the masked question's 0.92). Taking out the shared words' direction
removes what the note and the question share, which is what masking the words did
(AUC 0.88 on tune, 0.74 on check where the masked question had 0.74;
docs/benchmarks.md, "The residual without a second model call").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engram.embed.minilm import TokenStates

Vector = npt.NDArray[np.float32]


class StatesEmbedder(Protocol):
    """An embedder that gives a text's last-layer token states (``MiniLMEmbedder``)."""

    name: str

    def token_states(self, text: str) -> TokenStates: ...


def states_of(embedder: object) -> StatesEmbedder | None:
    """``embedder`` when it gives token states, else None. An attribute check, not a
    runtime-checkable ``isinstance`` (tens of microseconds, twice a recall)."""
    if callable(getattr(embedder, "token_states", None)):
        return embedder  # type: ignore[return-value]
    return None


def residual(states: TokenStates, spans: Sequence[tuple[int, int]]) -> Vector | None:
    """The question's unit vector with the direction of the tokens inside ``spans``
    (the words a note shares, as character spans) taken out; None when no token falls
    inside them, or every one does (nothing to take away, or nothing left)."""
    bounds = np.asarray(states.spans)
    inside = np.zeros(len(bounds), dtype=bool)
    for lo, hi in spans:
        inside |= (bounds[:, 0] >= lo) & (bounds[:, 1] <= hi)
    inside &= ~np.asarray(states.special)
    if not inside.any() or inside.all():
        return None
    question = states.vectors.mean(axis=0)
    shared = states.vectors[inside].mean(axis=0)
    shared = shared / max(float(np.linalg.norm(shared)), 1e-12)
    rest = question - float(question @ shared) * shared
    out: Vector = (rest / max(float(np.linalg.norm(rest)), 1e-12)).astype(np.float32)
    return out

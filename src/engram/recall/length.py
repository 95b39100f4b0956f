"""Per-leg weights that depend on a memory's length (issue 13, "Long messages").

A long memory (a message of thousands of characters) is read only in part by the
dense leg (the embedder's window) and matches many query words by sheer size in the
keyword leg, where BM25 over a long multi-topic message is noisy. ``recall.long_alpha``
gives memories longer than ``recall.long_chars`` their own dense weight in weighted
fusion; shorter ones keep ``recall.alpha``, so short-turn data (LoCoMo, whose longest
turn has 444 characters) is unchanged by construction.
"""

from __future__ import annotations

from collections.abc import Sequence

from engram.config import RecallConfig
from engram.store.protocols.chunks import ChunkVectorStore


def long_ids(
    store: ChunkVectorStore | None, namespace: str, ids: Sequence[str], cfg: RecallConfig
) -> frozenset[str]:
    """The candidates longer than ``recall.long_chars``; empty (and nothing read) when
    ``long_alpha`` is unset or recall is not a weighted hybrid."""
    weighted = cfg.strategy == "hybrid" and cfg.fusion == "weighted"
    if store is None or cfg.long_alpha is None or not weighted or not ids:
        return frozenset()
    return frozenset(i for i, n in store.lengths(namespace, ids).items() if n > cfg.long_chars)

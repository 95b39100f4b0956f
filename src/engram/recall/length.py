"""Per-leg weights that depend on a memory's length (issue 13, "Long messages").

A long memory (a message of thousands of characters) is read only in part by the
dense leg (the embedder's window) and matches many query words by sheer size in the
keyword leg, where BM25 over a long multi-topic message is noisy. ``recall.long_alpha``
gives memories longer than ``recall.long_chars`` their own dense weight in weighted
fusion; shorter ones keep ``recall.alpha``, so short-turn data (LoCoMo, whose longest
turn has 444 characters) is unchanged by construction.
"""

from __future__ import annotations

from engram.config import RecallConfig
from engram.store.protocols.memories import FactColumns


def long_ids(facts: FactColumns, cfg: RecallConfig) -> frozenset[str]:
    """The candidates longer than ``recall.long_chars``; empty when ``long_alpha`` is
    unset or recall is not a weighted hybrid."""
    weighted = cfg.strategy == "hybrid" and cfg.fusion == "weighted"
    if cfg.long_alpha is None or not weighted:
        return frozenset()
    return facts.longer_than(cfg.long_chars)

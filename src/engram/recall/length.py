"""Per-leg weights that depend on a memory's length (issue 13, "Long messages").

A long memory (a message of thousands of characters) is read only in part by the
dense leg (the embedder's window) and matches many query words by sheer size in the
keyword leg, where BM25 over a long multi-topic message is noisy. ``recall.long_alpha``
gives memories longer than ``recall.long_chars`` their own dense weight in weighted
fusion; shorter ones keep ``recall.alpha``, so short-turn data (LoCoMo, whose longest
turn has 444 characters) is unchanged by construction.

``recall.context_alone_chars`` (off) leaves a long memory's neighbours out of its dense
leg: its own cosine and its session's mean, equally weighted (issue 24, C3).
"""

from __future__ import annotations

from engram.config import RecallConfig
from engram.recall import coverage
from engram.store.protocols.memories import FactColumns


def long_ids(facts: FactColumns, cfg: RecallConfig) -> frozenset[str]:
    """The candidates longer than ``recall.long_chars``; empty when ``long_alpha`` is
    unset or recall is not a weighted hybrid."""
    weighted = cfg.strategy == "hybrid" and cfg.fusion == "weighted"
    if cfg.long_alpha is None or not weighted:
        return frozenset()
    return facts.longer_than(cfg.long_chars)


def self_contained(facts: FactColumns, cfg: RecallConfig, query: str) -> frozenset[str]:
    """The candidates whose dense leg leaves their neighbours out (``ranking.fuse``):
    longer than ``recall.context_alone_chars`` (issue 24, C3). Empty for a thread
    question (it asks for the episode, which the neighbours carry), when the setting is
    0, or when the dense leg blends no neighbours anyway (``context_dense`` 0)."""
    if not cfg.context_alone_chars or not cfg.context_dense or coverage.thread(query, cfg):
        return frozenset()
    return facts.longer_than(cfg.context_alone_chars)

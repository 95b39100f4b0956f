"""Hint matches in the keyword leg (seed 004's prospective index, FEATURES P8).

With ``recall.hints`` on, the retriever searches the namespace's hint index beside its
content index (``store.hints.search``, on the recall worker thread) and merges the two
BM25 rankings here before the keyword leg is normalised and fused.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from engram.store.protocols.hints import HintStore

log = logging.getLogger("engram.recall")


def merge_by_max(
    content: Sequence[tuple[str, float]], hints: Sequence[tuple[str, float]]
) -> list[tuple[str, float]]:
    """Content and hint BM25 matches as one keyword ranking: each memory keeps the
    larger of its two scores, best first.

    seed 004: "its BM25 score is merged with the memory's content score using Math.max
    — a hint match elevates its parent memory but does not stack additively", so a
    memory matched by both is not double-boosted; a memory only a hint matched joins.
    """
    if not hints:
        return list(content)
    best = dict(content)
    for memory_id, score in hints:
        if score > best.get(memory_id, 0.0):
            best[memory_id] = score
    # A stable sort: ties keep the content ranking's order.
    return sorted(best.items(), key=lambda item: item[1], reverse=True)


def hint_matches(
    hints: HintStore,
    pending: Future[Any] | None,
    namespace: str,
    match: str,
    limit: int,
    warnings: list[str],
) -> list[tuple[str, float]]:
    """The hint index's matches (``pending``'s result if the search was started on the
    worker thread), or none if it failed: hints only add to the content index, so
    recall goes on without them and says so (architecture principle 4)."""
    try:
        found: list[tuple[str, float]] = (
            pending.result() if pending is not None else hints.search(namespace, match, limit)
        )
    except Exception as exc:  # degrade loudly, never fail recall on hints
        message = f"hint search unavailable, answering without hints: {exc}"
        log.warning(message)
        warnings.append(message)
        return []
    return found

"""The hints part of a store: seed 004's prospective index (FEATURES P8).

A hint is a question a memory would answer ("What does Caroline like?"), written after
the memory by the pipeline (an LLM, or the offline templates). Hints have their own
full-text index, with BM25 statistics kept inside each namespace like the content index;
recall searches it beside the content and merges per memory with ``max`` (seed 004: "a
hint match elevates its parent memory but does not stack").

Hints are derived rows: they point back to their memory, only live memories' hints
match, and purging a memory removes its hints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.record import Record
from engram.text import normalize_content

#: seed 004: hints.max ranges 1-20; a memory never keeps more than this many hints.
MAX_HINTS = 20
#: A hint is one question; longer text is cut here (a model that rambled).
MAX_HINT_CHARS = 300


@dataclass(frozen=True, slots=True)
class HintSet(Record):
    """The hints one memory holds."""

    namespace: str
    memory_id: str
    hints: tuple[str, ...]
    model: str
    """Who wrote them: the LLM's model name, or ``"template"`` for the offline rules."""
    created_at: datetime


def clean_hints(hints: Iterable[str], limit: int = MAX_HINTS) -> list[str]:
    """The hints a store keeps: whitespace collapsed, empty and NUL-bearing ones dropped,
    each cut to ``MAX_HINT_CHARS``, duplicates (by seed 004's normalised text) dropped,
    at most ``limit`` (never more than ``MAX_HINTS``). Both backends store exactly this."""
    kept: dict[str, str] = {}
    for hint in hints:
        if not isinstance(hint, str) or "\x00" in hint:
            continue
        text = normalize_content(hint).storage[:MAX_HINT_CHARS].strip()
        key = normalize_content(text).normalized
        if key and key not in kept:
            kept[key] = text
            if len(kept) >= min(limit, MAX_HINTS):
                break
    return list(kept.values())


@runtime_checkable
class HintStore(Protocol):
    """Hints per memory and the per-namespace full-text search over them."""

    def put(self, namespace: str, memory_id: str, hints: Sequence[str], *, model: str) -> HintSet:
        """Replace the hints of a live memory of ``namespace`` with ``clean_hints(hints)``
        (idempotent: the same hints again change nothing but the time); an empty list
        removes them. ``NotFoundError`` if the memory is not live there. Joins an open
        transaction."""
        ...

    def get(self, namespace: str, memory_id: str) -> HintSet | None:
        """The memory's hints, or None if it has none."""
        ...

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """(memory id, relevance >= 0) of live memories of ``namespace`` whose hints match
        ``match`` (a query built by ``engram.text.fts_query``), best first. BM25 over the
        namespace's hints; a memory scores its best hint, once."""
        ...

    def delete(self, namespace: str, memory_id: str) -> int:
        """Remove the memory's hints; returns how many. (Purging a memory removes its
        hints on its own.)"""
        ...

    def count(self, namespace: str | None = None) -> int:
        """How many memories hold hints (in ``namespace``, or in the whole store)."""
        ...

    def missing(self, namespace: str, limit: int = 1000) -> list[str]:
        """Ids of live memories of ``namespace`` without hints, oldest first (to
        backfill the index)."""
        ...

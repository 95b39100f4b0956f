"""The keyword part of a store: BM25-style full-text search inside one namespace."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

#: How deep a ranking is read to score other candidates where lookups are not exact:
#: ranking costs the same at any depth there, and a memory below it scores about 0.
#: 500, not 1,000: on PostgreSQL at 1M it kept 299 of 300 fused top 10s (100k: all),
#: LoCoMo dev within 0.001 (SQLite with hints: identical), for about 0.8 ms less CPU
#: a recall (docs/benchmarks.md, issue 29, round 7).
DEPTH = 500

#: BM25's constants, FTS5's (fts5_aux.c): term-frequency saturation and length
#: normalisation. Both backends score ``idf(t) * f * (K1 + 1) / (f + K1 * (1 - B + B *
#: |D| / avgdl))`` summed over the query's terms: f the term's column-weighted count in
#: the memory, |D| its tokens, avgdl the namespace's average (docs/recall.md).
K1, B = 1.2, 0.75


def idf(rows: int, df: int) -> float:
    """FTS5's inverse document frequency of a term held by ``df`` of ``rows``:
    ``ln((N - df + 0.5) / (df + 0.5))``, and 1e-6 where that is not above 0 (a term in
    half the rows or more)."""
    ratio = (rows - df + 0.5) / (df + 0.5)
    value = math.log(ratio) if ratio > 1 else 0.0
    return value if value > 0 else 1e-6


def scores_from_ranking(
    search: Callable[[str, str, int], list[tuple[str, float]]],
    namespace: str,
    match: str,
    ids: Sequence[str],
) -> dict[str, float]:
    """``KeywordIndex.scores`` where lookups are not exact: the scores ``search`` gives
    ``ids`` in its ranking to ``DEPTH`` (or ``len(ids)``)."""
    wanted = set(ids)
    return {i: s for i, s in search(namespace, match, max(DEPTH, len(wanted))) if i in wanted}


@dataclass(frozen=True, slots=True)
class KeywordSettings:
    """When a store that ranks keywords in the database hands large namespaces to a
    derived in-memory term index (the SQLite backend's ``term_search``); a store whose
    database ranks every namespace itself ignores them."""

    min_memories: int = 200
    """Namespaces with at least this many live memories are ranked in memory."""
    background: bool = True
    """Build a namespace's index on a worker thread (the database answers meanwhile);
    False builds it in the searching call."""


@runtime_checkable
class KeywordIndex(Protocol):
    """Full-text search whose ranking statistics never cross namespaces."""

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """(id, relevance >= 0, higher is better) of live memories of ``namespace``
        matching ``match`` (a query built by ``engram.text.fts_query``), best first."""
        ...

    def scores(self, namespace: str, match: str, ids: Sequence[str]) -> dict[str, float]:
        """The relevance ``search`` gives each of ``ids`` (live memories of
        ``namespace``); ids it would not rank are left out. Where ``exact`` is False
        this reads the ranking to ``DEPTH`` (or ``len(ids)``) and picks the ids from it."""
        ...

    def exact(self, namespace: str) -> bool:
        """Whether ``scores`` looks the ids up for ``namespace`` (a fraction of a
        millisecond) instead of reading a deep ranking; recall then asks ``search`` for
        its top few only and ``scores`` for every other candidate."""
        ...

    def configure(self, settings: KeywordSettings) -> None:
        """Apply ``settings`` (the recall config's ``keyword_index_*``)."""
        ...

    def state(self) -> dict[str, object]:
        """What ``doctor`` shows about keyword search: where it ranks, and any derived
        index's namespaces, builds and failures."""
        ...

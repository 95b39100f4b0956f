"""The keyword part of a store: BM25-style full-text search inside one namespace."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class KeywordIndex(Protocol):
    """Full-text search whose ranking statistics never cross namespaces."""

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """(id, relevance >= 0, higher is better) of live memories of ``namespace``
        matching ``match`` (a query built by ``engram.text.fts_query``), best first."""
        ...

"""Keyword search in the SQLite store: each namespace's own FTS5 index (see ``fts``)."""

from __future__ import annotations

from engram.store.sqlite import fts
from engram.store.sqlite.db import Database


class SQLiteKeyword:
    """The SQLite implementation of ``KeywordIndex``.

    It reads through the backend's second connection, so recall can rank keywords on
    one thread while the main connection serves the vector side on another.
    """

    def __init__(self, db: Database) -> None:
        self._db = db
        self._counts = fts.TermCounts()

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """BM25-ranked live memories of ``namespace``; relevance is ``-bm25()`` (>= 0)."""
        with self._db.search() as conn:
            return fts.search(conn, namespace, match, limit, self._counts)

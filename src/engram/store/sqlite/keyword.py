"""Keyword search in the SQLite store: each namespace's own FTS5 index (see ``fts``), and
for large namespaces the in-memory term index derived from it (see ``term_search``)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from typing import cast

from engram.store.protocols.keyword import KeywordSettings, scores_from_ranking
from engram.store.sql.dialect import Conn
from engram.store.sqlite import fts, hints
from engram.store.sqlite.db import Database
from engram.store.sqlite.term_search import TermSearch, query_of
from engram.text import match_terms


@functools.lru_cache(maxsize=64)
def _query(match: str) -> tuple[str, ...] | None:
    """The term index's query for ``match`` (``term_search.query_of``), kept for the
    last matches: a recall reads one match twice, its leg's search on its worker and
    the other candidates' scores on the calling thread, where reading and tokenizing
    it again cost ~35 us (docs/benchmarks.md, "Recall's fuse stage at 100k"). The one
    cache of the match: keyed on its text, so a second read is one lookup."""
    return query_of(match_terms(match))


class SQLiteKeyword:
    """The SQLite implementation of ``KeywordIndex``.

    It reads through the backend's second connection, so recall can rank keywords on
    one thread while the main connection serves the vector side on another.
    """

    def __init__(self, db: Database) -> None:
        self._db = db
        self._counts = fts.TermCounts()
        self.terms = TermSearch(db)

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """BM25-ranked live memories of ``namespace``; relevance is ``-bm25()`` (>= 0)."""
        self.terms.warm(namespace)  # a saved term index loads off the shared connection
        with self._db.search() as conn:
            found = self.terms.search(conn, namespace, _query(match), limit)
            if found is not None:
                return found
            return fts.search(conn, namespace, match, limit, self._counts)

    def scores(self, namespace: str, match: str, ids: Sequence[str]) -> dict[str, float]:
        """Exact BM25 of ``ids`` from the term index; otherwise picked from the FTS5
        ranking to ``DEPTH``."""
        with self._db.search() as conn:
            found = self.terms.scores(conn, namespace, _query(match), ids)
        if found is not None:
            return found
        return scores_from_ranking(self.search, namespace, match, ids)

    def exact(self, namespace: str) -> bool:
        """True once the namespace is ranked from its in-memory term index."""
        return self.terms.ready(namespace)

    def configure(self, settings: KeywordSettings) -> None:
        """When namespaces move to the in-memory term index (``recall.keyword_index_*``)."""
        self.terms.settings = settings
        self.terms.invalidate()

    def state(self) -> dict[str, object]:
        """FTS5 per namespace, and the term index's namespaces, builds and failures."""
        return self.terms.state()


class SQLiteKeywordUpkeep:
    """The keyword indexes' upkeep for the shared parts (``KeywordUpkeep``): the FTS5
    tables' counts and rebuild, and the hint indexes' queued removals."""

    def counts(self, conn: Conn) -> tuple[int, int]:
        return fts.index_counts(cast(sqlite3.Connection, conn))

    def repair(self, conn: Conn) -> int:
        native = cast(sqlite3.Connection, conn)
        _, before = fts.index_counts(native)
        if before:
            fts.rebuild(native)
        return before

    def flush(self, conn: Conn, namespace: str) -> None:
        native = cast(sqlite3.Connection, conn)
        hints.flush(native)
        fts.flush(native)
        # FTS5 records a delete as a marker in a new segment; the deleted words stay in
        # the older segments until a merge, readable in the file after a GDPR erase
        # (new-user pass, round three). 'optimize' merges the namespace's segments
        # into one without them (the freed pages are zeroed: engram's connections
        # set SQLite's secure_delete, ``Database._connect``).
        for table in (
            fts.table_for(native, namespace, create=False),
            hints.table_for(native, namespace, create=False),
        ):
            if table is not None:
                native.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")

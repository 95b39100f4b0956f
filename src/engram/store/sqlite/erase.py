"""SQLite's erase: the shared one (``sql.erase``), then the derived data it keeps beside
the file (round thirty, a privacy officer).

A namespace grown past ``EXACT_SNAPSHOT_MIN`` vectors, ``recall.ann_min_vectors`` or
``recall.keyword_index_min`` memories has snapshots in ``<store>.vindex/``: its memory
ids and vectors (and HNSW graph), its term postings, and recall's facts, whose openings
are the memories' first words in plain text. They are derived, so the rows' erase never
touched them, and a namespace nobody searches again kept them for good. Every erase,
whole or filtered, now drops the namespace's snapshots and in-memory blocks once its
transaction commits; they are made again from what is left when next needed.
"""

from __future__ import annotations

from engram.store.sql.erase import SqlErase
from engram.store.sql.native import KeywordUpkeep
from engram.store.sql.session import Sql
from engram.store.sqlite.fact_index import FactIndex
from engram.store.sqlite.snapshot import directory_for, drop_namespace
from engram.store.sqlite.term_search import TermSearch


class SQLiteErase(SqlErase):
    """``SqlErase`` that also drops the namespace's blocks and their files."""

    def __init__(
        self, sql: Sql, keyword: KeywordUpkeep, location: str, terms: TermSearch, facts: FactIndex
    ) -> None:
        super().__init__(sql, keyword)
        self._directory = directory_for(location)
        self._terms = terms
        self._facts = facts

    def _after(self, namespace: str) -> None:
        # Blocks first (waiting for builds that read the store before the erase), then
        # the files, so no save of pre-erase data lands after the drop.
        self._terms.erased(namespace)
        self._facts.erased(namespace)
        drop_namespace(self._directory, namespace)

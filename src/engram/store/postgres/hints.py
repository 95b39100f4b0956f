"""PostgreSQL's half of hints (seed 004's prospective index): ``memory_hints`` has a
generated ``tsvector`` and a GIN index, ranked here by BM25 the way ``keyword`` ranks
content. The rows themselves are written and read by ``engram.store.sql.hints``, for
both engines; the generated column needs no upkeep.

The ranking is ``keyword.search``'s, over hint rows instead of memories: per keyword,
its document frequency among the namespace's hints (``keyword_terms``) gives FTS5's
IDF against N, the namespace's hint count (both kept by triggers); ``ts_rank_cd``
without normalisation gives the keyword's frequency in a hint, which goes through
BM25's saturation and length normalisation (k1 1.2, b 0.75; the hint's tokens against
the namespace's hints' average, as FTS5 ranks a namespace's hint index on SQLite). A
memory scores its best hint (seed 004: hints elevate their memory, never stack), and
only live memories' hints are ranked. A namespace without hints costs one statement
of key lookups that finds N = 0.
"""

from __future__ import annotations

from engram.store.postgres.db import Database
from engram.store.postgres.keyword import Bm25, Ranked
from engram.store.sql.dialect import Conn

#: Hints have one field: every occurrence counts 1, whatever its (default) weight.
RANK_WEIGHTS = "{1.0, 1.0, 1.0, 1.0}"


#: Hint rows of live memories; a memory scores its best hint (seed 004: hints elevate
#: their memory, never stack).
HINTS = Ranked(
    rows="memory_hints h WHERE h.namespace = %s AND h.search @@ {term}",
    candidates="SELECT h.memory_id AS id, h.id AS seq, h.search FROM memory_hints h "
    "JOIN memories m ON m.id = h.memory_id AND m.deleted_at IS NULL "
    "WHERE h.namespace = %s AND h.search @@ ({terms})",
    newest="h.id DESC",
    weights=f"ts_rank_cd('{RANK_WEIGHTS}'",
    outer="SELECT id, max(rank) AS best FROM ({ranked}) b GROUP BY id ORDER BY best DESC, id",
    source="hints",
    length="engram_search_length(c.search)",
)


class PgHintIndex(Bm25):
    """``engram.store.sql.hints.HintIndex`` on PostgreSQL: the generated ``tsvector``."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, HINTS, "hint search")

    def forget(self, conn: Conn) -> None:
        """Nothing to do: a deleted row takes its ``tsvector`` with it."""

    def add(self, conn: Conn, namespace: str, memory_id: str) -> None:
        """Nothing to do: the ``tsvector`` is generated from the row."""

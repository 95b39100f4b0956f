"""Which memories stated a fact since closed (issue 28), on SQLite: one read of the
namespace's set while nothing changes, instead of one read of each recall's ids.

A recall whose query asks about now (a third of LoCoMo's questions) asks
``stale_memories`` about its ~90 candidates: a statement over their mentions that cost
0.24–0.34 ms at the median on the kept 100k store, with a tail of several ms where the
ids' index pages were not in SQLite's cache (docs/benchmarks.md, "SQLite at 100k beside
Chroma, session nineteen"). Closed relations are few (122 of the 1,227 on that store),
so the memories that mention one are a small set: it is read once per namespace and
database version (``facts.data_version``: any commit, of this connection or another,
moves it) and each recall's answer is its intersection with the ids, the same rows the
per-id statement gives. A namespace whose set is larger than ``SET_MAX`` is read per
recall as before; a read inside a transaction bypasses the set (it may see writes a
rollback undoes). Which candidates a pipeline derived from a memory of the set is read
from the namespace's fact block when it has one (``FactBlock.derived``), not from each
candidate's row.
"""

from __future__ import annotations

from collections.abc import Sequence

from engram.store.sql.graph_changes import derived_stale
from engram.store.sql.graph_counts import SqlGraphCounts
from engram.store.sql.session import Sql
from engram.store.sqlite.db import Database
from engram.store.sqlite.fact_index import FactIndex
from engram.store.sqlite.facts import Version, data_version

#: The most memory ids a namespace's set holds (a few MB of str); a namespace with more
#: reads its candidates' ids per recall.
SET_MAX = 50_000

_ALL_STALE = (
    "SELECT DISTINCT m.memory_id FROM relations r JOIN relation_mentions m "
    "ON m.relation_id = r.id WHERE r.namespace = ? AND r.valid_to IS NOT NULL LIMIT ?"
)


class SQLiteGraphCounts(SqlGraphCounts):
    """``SqlGraphCounts`` whose ``stale_memories`` answers from the namespace's set,
    read once while the database is unchanged."""

    def __init__(
        self, sql: Sql, db: Database, set_max: int = SET_MAX, blocks: FactIndex | None = None
    ) -> None:
        super().__init__(sql)
        self._db = db
        self._blocks = blocks
        """Large namespaces' fact blocks, which also say which memory derives from which."""
        self._set_max = set_max
        # The version and the sets read at it, swapped whole (one assignment, so no
        # lock): a set read after its version was taken is never older than it.
        self._kept: tuple[Version | None, dict[str, frozenset[str] | None]] = (None, {})
        self.reads = 0  # the namespace sets read (tests)

    def stale_memories(self, namespace: str, memory_ids: Sequence[str]) -> set[str]:
        version = data_version(self._db)
        if version is None:
            return super().stale_memories(namespace, memory_ids)
        kept, sets = self._kept
        if kept != version:
            sets = {}
            self._kept = (version, sets)
        if namespace not in sets:
            sets[namespace] = self._read(namespace)
        stale = sets[namespace]
        if stale is None:  # too many to keep: the candidates' own read
            return super().stale_memories(namespace, memory_ids)
        found = {i for i in memory_ids if i in stale}
        rest = [i for i in dict.fromkeys(memory_ids) if i not in found]
        if stale and rest:
            # A fact the pipeline wrote from a memory of the set says what it said
            # (``graph_changes.derived_stale``); with no closed fact there is none.
            found |= self._derived(namespace, rest, stale, version)
        return found

    def _derived(
        self, namespace: str, ids: list[str], stale: frozenset[str], version: Version
    ) -> set[str]:
        """Those of ``ids`` a pipeline derived from a memory of ``stale``: from the
        namespace's fact block (``FactBlock.derived``, no row read) when it has one,
        else by reading each id's ``source_memory_id`` (about 0.3-0.7 ms for ~90 ids
        at 100k, on the third of the questions that ask about now; docs/benchmarks.md,
        "SQLite at 100k beside Chroma, session twenty")."""
        found: set[str] = set()
        if self._blocks is not None:
            with self._db.read("reading recall's facts") as conn:
                known = self._blocks.derived(conn, namespace, ids, version)
            if known is not None:
                sources, ids = known
                found = {i for i, source in sources.items() if source in stale}
        if ids:
            with self._sql.read("finding facts of memories of closed facts") as conn:
                found |= derived_stale(conn, self._d, ids, lambda asked: set(asked) & stale)
        return found

    def _read(self, namespace: str) -> frozenset[str] | None:
        """The namespace's memories that mention a closed relation; None past ``SET_MAX``."""
        with self._sql.read("finding memories of closed facts") as conn:
            rows = conn.execute(_ALL_STALE, (namespace, self._set_max + 1)).fetchall()
        self.reads += 1
        return None if len(rows) > self._set_max else frozenset(r[0] for r in rows)

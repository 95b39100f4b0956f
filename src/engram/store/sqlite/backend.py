"""The default store: one SQLite file in WAL mode (FEATURES C3).

``SQLiteStore`` opens the file (migrating it) and hands out one part per concern, all on
the same ``Database`` and its one transaction helper. All SQL lives in this package.
Vectors are float32 BLOBs; the searchable matrix is derived from them by
``VectorIndex``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from engram.errors import CapabilityError
from engram.store.protocols.capabilities import Capabilities, capabilities_of
from engram.store.sql.dialect import Conn
from engram.store.sql.store import SqlStore
from engram.store.sqlite import hints
from engram.store.sqlite.chunks import SQLiteChunkIndex
from engram.store.sqlite.db import Database
from engram.store.sqlite.dialect import SQLITE
from engram.store.sqlite.erase import SQLiteErase
from engram.store.sqlite.facts import SQLiteMemories
from engram.store.sqlite.hints import SQLiteHintIndex
from engram.store.sqlite.keyword import SQLiteKeyword, SQLiteKeywordUpkeep
from engram.store.sqlite.stale import SQLiteGraphCounts
from engram.store.sqlite.vectors import SQLiteBundleVectors, SQLiteVectors
from engram.store.tables import TableSpec


def _index_hint(conn: Conn, spec: TableSpec, row: Mapping[str, Any], local: int) -> None:
    """An imported hint joins its namespace's hint FTS table, as ``hints.put`` does."""
    if spec.name == "memory_hints":
        table = hints.table_for(cast(sqlite3.Connection, conn), str(row["namespace"]), create=True)
        conn.execute(f"INSERT INTO {table}(rowid, hint) VALUES (?, ?)", (local, row["hint"]))


class SQLiteStore(SqlStore):
    """The SQLite implementation of :class:`engram.store.Store`."""

    def __init__(self, path: str | Path = ":memory:", *, busy_timeout_ms: int = 5000) -> None:
        db = Database(path, busy_timeout_ms=busy_timeout_ms)
        keyword = SQLiteKeywordUpkeep()
        super().__init__(
            db,
            SQLITE,
            keyword,
            chunk_index=SQLiteChunkIndex(db),
            hint_index=SQLiteHintIndex(db),
            bundle_vectors=SQLiteBundleVectors(),
            after_table_insert=_index_hint,
        )
        self._db: Database
        self.memories = SQLiteMemories(self._sql, self._db)  # recall's facts kept (facts.py)
        # issue 28's closed facts, one read per namespace while nothing changes (stale.py)
        self.graph_counts = SQLiteGraphCounts(self._sql, self._db, blocks=self.memories.blocks)
        self.keyword = SQLiteKeyword(self._db)
        self.vectors: SQLiteVectors = SQLiteVectors(self._db)
        # An erase also drops the namespace's snapshots beside the file (sqlite/erase.py).
        self.erase = SQLiteErase(
            self._sql, keyword, db.location, self.keyword.terms, self.memories.blocks
        )

    # -- seed 002's lifecycle and capabilities (FEATURES S1) ---------------------------
    backend_name = "sqlite"

    def disconnect(self) -> None:
        if self._db.location == ":memory:":
            raise CapabilityError(
                "an in-memory SQLite store cannot disconnect: its data lives only in its "
                "connection; use a file store, or close() it when you are done"
            )
        super().disconnect()

    def capabilities(self) -> Capabilities:
        """Everything but a per-agent cap; vectors are searched in process."""
        return capabilities_of(self.backend_name, reconnect=self._db.location != ":memory:")

"""``SqlStore``: what both SQL backends share, the parts written once among them.

``SQLiteStore`` and ``PostgresStore`` each open their own ``Database`` and add the parts
that stay native (keyword search, vectors, bulk copy); every concern written once in
``engram.store.sql`` is attached here, on the backend's ``Sql``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.store.sql.agents import SqlAgents
from engram.store.sql.dialect import Dialect
from engram.store.sql.feedback import SqlFeedback
from engram.store.sql.memories import SqlMemories
from engram.store.sql.session import Sql
from engram.store.sql.tables import AfterInsert, SqlTables
from engram.store.sql.transfer import BundleVectors, SqlTransfer


class SqlStore:
    """The shared half of a SQL backend: its ``Sql`` and the parts built on it."""

    def __init__(
        self,
        db: Any,
        dialect: Dialect,
        *,
        bundle_vectors: BundleVectors,
        after_table_insert: AfterInsert | None = None,
    ) -> None:
        """``bundle_vectors`` and ``after_table_insert`` are the backend's native halves
        of bulk copy: how it stores a memory's vector, and the upkeep of an imported
        table row (SQLite's hint FTS)."""
        self._db = db
        self._sql = Sql(db, dialect)
        self.location: str = db.location
        self.memories = SqlMemories(self._sql)
        self.feedback = SqlFeedback(self._sql)
        self.agents = SqlAgents(self._sql)
        self.transfer = SqlTransfer(self._sql, bundle_vectors)
        self.tables = SqlTables(self._sql, after_table_insert)

    @property
    def clock(self) -> Callable[[], datetime]:
        """The time the parts stamp rows with (history, tombstones, queued jobs): UTC
        now, or a test's hand-moved clock (``mem.lifecycle.clock`` sets it)."""
        clock: Callable[[], datetime] = self._db.clock
        return clock

    @clock.setter
    def clock(self, value: Callable[[], datetime]) -> None:
        self._db.clock = value

    @property
    def is_connected(self) -> bool:
        """True while the connections (or the pool) are open."""
        return bool(self._db.connected)

    def health_check(self) -> bool:
        """``SELECT 1`` on a connection; False instead of an error."""
        return bool(self._db.ping())

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction that every part's writes (and reads) on this thread inside
        the block join; it commits when the block ends, or rolls back if it raises."""
        with self._sql.tx("transaction"):
            yield

    @property
    def closed(self) -> bool:
        """True after ``close``."""
        return bool(self._db.closed)

    def close(self) -> None:
        """Close the connections (or the pool); idempotent."""
        self._db.close()

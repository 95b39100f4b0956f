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
from engram.store.sql.audit import SqlAudit
from engram.store.sql.blocks import SqlCoreBlocks
from engram.store.sql.dialect import Dialect
from engram.store.sql.feedback import SqlFeedback
from engram.store.sql.org import SqlOrg
from engram.store.sql.palace import SqlPalace
from engram.store.sql.session import Sql
from engram.store.sql.transcripts import SqlTranscripts


class SqlStore:
    """The shared half of a SQL backend: its ``Sql`` and the parts built on it."""

    def __init__(self, db: Any, dialect: Dialect) -> None:
        self._db = db
        self._sql = Sql(db, dialect)
        self.location: str = db.location
        self.feedback = SqlFeedback(self._sql)
        self.agents = SqlAgents(self._sql)
        self.transcripts = SqlTranscripts(self._sql)
        self.palace = SqlPalace(self._sql)
        self.org = SqlOrg(self._sql)
        self.blocks = SqlCoreBlocks(self._sql)
        self.audit = SqlAudit(self._sql)

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

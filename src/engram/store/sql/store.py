"""``SqlStore``: what both SQL backends share, the parts written once among them.

``SQLiteStore`` and ``PostgresStore`` each open their own ``Database`` and add the parts
that stay native (keyword search, vectors, bulk copy); every concern written once in
``engram.store.sql`` is attached here, on the backend's ``Sql``. A shared part over a
native index (``hints``, ``chunks``) is built here too, over the index the backend gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any

from engram.store.protocols.backend import StoreStats
from engram.store.sql import migrations
from engram.store.sql.agents import SqlAgents
from engram.store.sql.aspects import SqlAspects
from engram.store.sql.audit import SqlAudit
from engram.store.sql.blocks import SqlCoreBlocks
from engram.store.sql.chat import SqlChatSettings
from engram.store.sql.chunks import ChunkIndex, SqlChunks
from engram.store.sql.curation import SqlCuration
from engram.store.sql.dialect import Dialect, first_int
from engram.store.sql.documents import SqlDocuments
from engram.store.sql.erase import SqlErase
from engram.store.sql.feedback import SqlFeedback
from engram.store.sql.graph import SqlGraph
from engram.store.sql.graph_counts import SqlGraphCounts
from engram.store.sql.hints import HintIndex, SqlHints
from engram.store.sql.jobs import SqlJobs
from engram.store.sql.keys import SqlKeys
from engram.store.sql.lifecycle import SqlLifecycle
from engram.store.sql.maintenance import SqlMaintenance
from engram.store.sql.memories import SqlMemories
from engram.store.sql.native import KeywordUpkeep
from engram.store.sql.org import SqlOrg
from engram.store.sql.palace import SqlPalace
from engram.store.sql.palace_turns import SqlPalaceTurns
from engram.store.sql.review import SqlReview
from engram.store.sql.runs import SqlRuns
from engram.store.sql.schedule_leases import SqlScheduleLeases
from engram.store.sql.session import Sql
from engram.store.sql.sessions import SqlSessions
from engram.store.sql.tables import AfterInsert, SqlTables
from engram.store.sql.transcripts import SqlTranscripts
from engram.store.sql.transfer import BundleVectors, SqlTransfer
from engram.store.sql.vector_reads import VectorReads


class SqlStore:
    """The shared half of a SQL backend: its ``Sql`` and the parts built on it."""

    #: The backend's native vector part (its shared reads are ``VectorReads``).
    vectors: VectorReads

    def __init__(
        self,
        db: Any,
        dialect: Dialect,
        keyword: KeywordUpkeep,
        *,
        chunk_index: ChunkIndex,
        hint_index: HintIndex,
        bundle_vectors: BundleVectors,
        after_table_insert: AfterInsert | None = None,
    ) -> None:
        """``keyword`` is the backend's keyword-index upkeep, which maintenance and erase
        call; ``chunk_index`` and ``hint_index`` its native indexes under the shared
        ``chunks`` and ``hints``; ``bundle_vectors`` and ``after_table_insert`` are the
        backend's native halves of bulk copy: how it stores a memory's vector, and the
        upkeep of an imported table row (SQLite's hint FTS)."""
        self._db = db
        self._sql = Sql(db, dialect)
        self.location: str = db.location
        self.memories = SqlMemories(self._sql)
        self.feedback = SqlFeedback(self._sql)
        self.agents = SqlAgents(self._sql)
        self.runs = SqlRuns(self._sql)
        self.documents = SqlDocuments(self._sql)
        self.sessions = SqlSessions(self._sql)
        self.review = SqlReview(self._sql)
        self.keys = SqlKeys(self._sql)
        self.graph = SqlGraph(self._sql)
        self.graph_counts = SqlGraphCounts(self._sql)
        self.aspects = SqlAspects(self._sql)
        self.jobs = SqlJobs(self._sql)
        self.lifecycle = SqlLifecycle(self._sql)
        self.maintenance = SqlMaintenance(self._sql, keyword)
        self.erase = SqlErase(self._sql, keyword)
        self.curation = SqlCuration(self._sql)
        self.transcripts = SqlTranscripts(self._sql)
        self.palace = SqlPalace(self._sql)
        self.palace_turns = SqlPalaceTurns(self._sql)
        self.schedule_leases = SqlScheduleLeases(self._sql)
        self.org = SqlOrg(self._sql)
        self.blocks = SqlCoreBlocks(self._sql)
        self.chat_settings = SqlChatSettings(self._sql)
        self.audit = SqlAudit(self._sql)
        self.transfer = SqlTransfer(self._sql, bundle_vectors)
        self.tables = SqlTables(self._sql, after_table_insert)
        self.chunks = SqlChunks(self._sql, chunk_index)
        self.hints = SqlHints(self._sql, hint_index)

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
        return bool(self._db.connected)

    def health_check(self) -> bool:
        return bool(self._db.ping())

    @contextmanager
    def transaction(self) -> Iterator[None]:
        # Reads on this thread inside the block join it too.
        with self._sql.tx("transaction"):
            yield

    @property
    def closed(self) -> bool:
        return bool(self._db.closed)

    def close(self) -> None:
        # Idempotent.
        self._db.close()

    # -- seed 002's lifecycle (FEATURES S1): the backend's ``Database`` reconnects ----
    def connect(self) -> None:
        self._db.reconnect()

    def disconnect(self) -> None:
        self._db.disconnect()

    def bounded_wait(self, seconds: float) -> AbstractContextManager[None]:
        cm: AbstractContextManager[None] = self._db.bounded_wait(seconds)
        return cm

    def schema_version(self) -> str:
        with self._sql.read("reading the schema version") as conn:
            return migrations.current_version(conn, self._sql.d)

    def stats(self, model: str | None) -> StoreStats:
        with self._sql.read("reading store stats") as conn:
            tombstoned = first_int(
                conn, "SELECT count(*) FROM memories WHERE deleted_at IS NOT NULL"
            )
            # live memories the injection scan or the learned detector flagged: stored,
            # but kept out of every context (flag mode, quarantine)
            flags = self._sql.d.json_text("metadata", "injection_flags")
            flagged = first_int(
                conn,
                f"SELECT count(*) FROM memories WHERE deleted_at IS NULL AND {flags} IS NOT NULL",
            )
            vectors = {
                r[0]: int(r[1])
                for r in conn.execute("SELECT model, count(*) FROM memory_vectors GROUP BY model")
            }
        return StoreStats(
            memories=self.memories.namespaces(),
            tombstoned=tombstoned,
            flagged=flagged,
            vectors=vectors,
            missing_vectors=0 if model is None else self.vectors.count_missing(model),
            schema_version=self.schema_version(),
            location=self.location,
        )

"""The scale-out store: PostgreSQL >= 15 with pgvector, through psycopg 3 (FEATURES B4).

It keeps the SQLite store's semantics exactly (namespaces, tombstones, content-hash
dedup with a "dedup" history event, before/after audit JSON, the feedback clamp, the
vector epoch) on a connection pool. ``PostgresStore`` opens the pool (migrating the
database) and hands out one part per concern, all on the same ``Database`` and its one
transaction helper. Each call is one short transaction on one pooled connection, or
joins the one ``transaction()`` holds open; no model or network call happens inside
one. All SQL and psycopg types stay in this package.
"""

from __future__ import annotations

from engram.config import PostgresConfig
from engram.store.postgres.aspects import PgAspects
from engram.store.postgres.audit import PgAudit
from engram.store.postgres.blocks import PgCoreBlocks
from engram.store.postgres.chunks import PgChunks
from engram.store.postgres.curation import PgCuration
from engram.store.postgres.db import Database
from engram.store.postgres.dialect import POSTGRES
from engram.store.postgres.documents import PgDocuments
from engram.store.postgres.erase import PgErase
from engram.store.postgres.graph import PgGraph
from engram.store.postgres.graph_counts import PgGraphCounts
from engram.store.postgres.hints import PgHints
from engram.store.postgres.jobs import PgJobs
from engram.store.postgres.keys import PgKeys
from engram.store.postgres.keyword import PgKeyword
from engram.store.postgres.lifecycle import PgLifecycle
from engram.store.postgres.maintenance import PgMaintenance
from engram.store.postgres.org import PgOrg
from engram.store.postgres.palace import PgPalace
from engram.store.postgres.review import PgReview
from engram.store.postgres.runs import PgRuns
from engram.store.postgres.sessions import PgSessions
from engram.store.postgres.transcripts import PgTranscripts
from engram.store.postgres.vectors import PgBundleVectors, PgVectors
from engram.store.protocols.backend import StoreStats
from engram.store.protocols.capabilities import Capabilities, capabilities_of
from engram.store.sql.store import SqlStore


class PostgresStore(SqlStore):
    """The PostgreSQL implementation of :class:`engram.store.Store`."""

    def __init__(
        self,
        conninfo: str,
        config: PostgresConfig | None = None,
        *,
        migrate: bool = True,
    ) -> None:
        super().__init__(
            Database(conninfo, config, migrate=migrate),
            POSTGRES,
            bundle_vectors=PgBundleVectors(
                lambda model, dim: self.vectors.ensure_index(model, dim)
            ),
        )
        self._db: Database
        self.keyword = PgKeyword(self._db)
        self.vectors = PgVectors(self._db)
        self.chunks = PgChunks(self._db)
        self.transcripts = PgTranscripts(self._db)
        self.keys = PgKeys(self._db)
        self.graph = PgGraph(self._db)
        self.graph_counts = PgGraphCounts(self._db)
        self.aspects = PgAspects(self._db)
        self.hints = PgHints(self._db)
        self.review = PgReview(self._db)
        self.curation = PgCuration(self._db)
        self.palace = PgPalace(self._db)
        self.runs = PgRuns(self._db)
        self.sessions = PgSessions(self._db)
        self.maintenance = PgMaintenance(self._db)
        self.org = PgOrg(self._db)
        self.blocks = PgCoreBlocks(self._db)
        self.audit = PgAudit(self._db)
        self.erase = PgErase(self._db)
        self.documents = PgDocuments(self._db)
        self.jobs = PgJobs(self._db)
        self.lifecycle = PgLifecycle(self._db)

    # -- seed 002's lifecycle and capabilities (FEATURES S1) ---------------------------
    backend_name = "postgresql"

    def connect(self) -> None:
        """Open a new pool to the same database after ``disconnect``; a no-op when
        connected."""
        self._db.reconnect()

    def disconnect(self) -> None:
        """Close the pool; ``connect`` opens a new one to the same database."""
        self._db.disconnect()

    def capabilities(self) -> Capabilities:
        """Everything but a per-agent cap; vector search needs pgvector's type."""
        return capabilities_of(self.backend_name, vectors=self._db.has_vector_type, reconnect=True)

    @property
    def config(self) -> PostgresConfig:
        """The PostgreSQL settings; replacing them takes effect at the next search."""
        return self._db.config

    @config.setter
    def config(self, value: PostgresConfig) -> None:
        self._db.config = value

    def schema_version(self) -> str:
        """The newest applied migration."""
        with self._db.read() as conn:
            rows = conn.execute(
                'SELECT name FROM schema_migrations ORDER BY name COLLATE "C" DESC LIMIT 1'
            ).fetchall()
        return str(rows[0][0]) if rows else "none"

    def stats(self, model: str | None) -> StoreStats:
        """Counts for ``doctor``."""
        with self._db.read() as conn:
            tomb_row = conn.execute(
                "SELECT count(*) FROM memories WHERE deleted_at IS NOT NULL"
            ).fetchone()
            vectors = {
                r[0]: int(r[1])
                for r in conn.execute(
                    "SELECT model, count(*) FROM memory_vectors GROUP BY model"
                ).fetchall()
            }
        return StoreStats(
            memories=self.memories.namespaces(),
            tombstoned=int(tomb_row[0]) if tomb_row else 0,
            vectors=vectors,
            missing_vectors=0 if model is None else self.vectors.count_missing(model),
            schema_version=self.schema_version(),
            location=self.location,
        )

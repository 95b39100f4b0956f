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
from engram.store.postgres.chunks import PgChunkIndex
from engram.store.postgres.db import Database
from engram.store.postgres.dialect import POSTGRES
from engram.store.postgres.hints import PgHintIndex
from engram.store.postgres.keyword import PgKeyword, PgKeywordUpkeep
from engram.store.postgres.vectors import PgBundleVectors, PgVectors
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
        db = Database(conninfo, config or PostgresConfig(), migrate)
        super().__init__(
            db,
            POSTGRES,
            PgKeywordUpkeep(),
            chunk_index=PgChunkIndex(db),
            hint_index=PgHintIndex(db),
            bundle_vectors=PgBundleVectors(
                lambda model, dim: self.vectors.ensure_index(model, dim)
            ),
        )
        self._db: Database
        self.keyword = PgKeyword(self._db)
        self.vectors: PgVectors = PgVectors(self._db)

    # -- seed 002's lifecycle and capabilities (FEATURES S1) ---------------------------
    backend_name = "postgresql"

    def close(self) -> None:
        """Finish a vector index build a bulk load left waiting (the store is not left
        without its index), then close the pool."""
        if not self._db.closed:
            self.vectors.builds.finish()
        super().close()

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

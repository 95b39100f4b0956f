"""PostgreSQL + pgvector backend (the scale-out store; needs ``engramdb[postgres]``)."""

from engram.store.postgres.backend import PostgresStore
from engram.store.postgres.dense import PgVectorSearch

__all__ = ["PgVectorSearch", "PostgresStore"]

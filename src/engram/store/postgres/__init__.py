"""PostgreSQL + pgvector backend (the scale-out store; needs ``engramdb[postgres]``)."""

from engram.store.postgres.dense import PgVectorSearch
from engram.store.postgres.store import PostgresStore

__all__ = ["PgVectorSearch", "PostgresStore"]

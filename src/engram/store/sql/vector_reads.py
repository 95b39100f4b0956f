"""The vector store's reads that are plain SQL on both engines.

Storing and searching vectors stays native (float32 BLOBs and an in-process matrix on
SQLite, pgvector on PostgreSQL); which memories lack a current vector, and each model's
dimension, are the same query on both, named through ``native.vector_rows``; so are
deleting a model's vectors and counting the memories never embedded.
"""

from __future__ import annotations

from engram.records import MemoryRecord
from engram.store.sql.codec import SELECT, from_row
from engram.store.sql.dialect import Conn, first_int
from engram.store.sql.native import vector_rows
from engram.store.sql.rows import equal
from engram.store.sql.session import Sql

#: Live memories of a namespace without a vector of their current content: a partial
#: index (``memories_unembedded``) holds exactly these rows.
UNEMBEDDED = (
    "SELECT count(*) FROM memories WHERE namespace = ? AND deleted_at IS NULL "
    "AND embedding_model IS NULL"
)


class VectorReads:
    """``dimensions``, ``missing``, ``count_missing``, ``unembedded`` and ``delete`` of
    ``VectorStore``, once."""

    def __init__(self, sql: Sql) -> None:
        self._reads = sql
        names = vector_rows(sql.d)
        # A live memory needs a vector when it has none by the model, or one made from
        # older content (its hash no longer matches).
        self._missing = (
            f" LEFT JOIN memory_vectors v ON v.{names.key} = m.{names.memory_key} "
            f"WHERE m.deleted_at IS NULL AND (v.{names.key} IS NULL OR v.model != ? "
            "OR v.content_hash != m.content_hash)"
        )

    def dimensions(self) -> dict[str, int]:
        with self._reads.read("reading vector dimensions") as conn:
            rows = conn.execute(
                "SELECT model, max(dim) FROM memory_vectors GROUP BY model"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    def missing(self, model: str, *, limit: int) -> list[MemoryRecord]:
        query = SELECT + self._missing + " ORDER BY m.seq LIMIT ?"
        d = self._reads.d
        with self._reads.read("reading memories without vectors") as conn:
            return [from_row(d, r) for r in conn.execute(query, (model, limit)).fetchall()]

    def count_missing(self, model: str) -> int:
        with self._reads.read("counting memories without vectors") as conn:
            return first_int(conn, "SELECT count(*) FROM memories m" + self._missing, (model,))

    def unembedded(self, namespace: str) -> int:
        # Cheap: a partial index holds exactly these rows.
        with self._reads.read() as conn:
            return first_int(conn, UNEMBEDDED, (namespace,))

    def delete(self, model: str | None = None) -> int:
        with self._reads.tx("deleting vectors") as conn:
            self._before_delete(conn)
            where, params = equal(model=model)
            cur = conn.execute(f"DELETE FROM memory_vectors WHERE {where}", params)
            where, params = equal(embedding_model=model)
            conn.execute(f"UPDATE memories SET embedding_model = NULL WHERE {where}", params)
            return int(cur.rowcount)

    def _before_delete(self, conn: Conn) -> None:
        """The locks an engine takes before ``delete`` writes (none on SQLite)."""

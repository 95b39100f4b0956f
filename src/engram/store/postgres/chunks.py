"""Chunk vectors in the PostgreSQL store: pgvector rows, several per long memory.

The best chunk per memory is computed by the database (``max`` of pgvector's cosine
distance grouped by memory), over the namespace's current rows only: a join with
``memories`` keeps out tombstoned memories and chunks of older content. The scan is
exact; chunk rows exist only for memories longer than the embedder's window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.chunks import MemoryChunks

_CURRENT = (
    "FROM memory_chunks c JOIN memories m ON m.id = c.memory_id "
    "AND m.deleted_at IS NULL AND m.content_hash = c.content_hash "
    "WHERE c.namespace = %s AND c.model = %s"
)


class PgChunks:
    """The PostgreSQL implementation of ``ChunkVectorStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def put(self, chunks: Iterable[MemoryChunks]) -> None:
        """Replace each memory's chunk vectors by its model."""
        items = list(chunks)
        if not items:
            return
        with self._db.tx("storing chunk vectors") as conn, conn.cursor() as cur:
            cur.executemany(
                "DELETE FROM memory_chunks WHERE memory_id = %s AND model = %s",
                [(i.memory_id, i.model) for i in items],
            )
            rows = [
                (i.model, n, int(v.shape[0]), i.content_hash, v, i.memory_id)
                for i in items
                for n, v in enumerate(np.ascontiguousarray(i.vectors, dtype=np.float32))
            ]
            if rows:
                # A memory purged while it was being embedded matches no row: skipped.
                cur.executemany(
                    "INSERT INTO memory_chunks(memory_id, model, ordinal, namespace, dim, "
                    "content_hash, embedding) SELECT m.id, %s, %s, m.namespace, %s, %s, %s "
                    "FROM memories m WHERE m.id = %s",
                    rows,
                )

    def search(
        self, namespace: str, model: str, query: npt.NDArray[np.float32], k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` memories whose best chunk is nearest to ``query``."""
        if k <= 0:
            return []
        vector = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        with self._db.read("chunk search") as conn:
            rows = conn.execute(
                "SELECT c.memory_id, 1 - min(c.embedding <=> %s::vector) AS best "
                + _CURRENT
                + " GROUP BY c.memory_id ORDER BY best DESC, c.memory_id LIMIT %s",
                (vector, namespace, model, int(k)),
            ).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    def scores(
        self,
        namespace: str,
        model: str,
        query: npt.NDArray[np.float32],
        ids: Sequence[str],
    ) -> dict[str, float]:
        """The best chunk cosine of specific memories that have chunks."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        vector = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        with self._db.read("chunk scores") as conn:
            rows = conn.execute(
                "SELECT c.memory_id, 1 - min(c.embedding <=> %s::vector) "
                + _CURRENT
                + " AND c.memory_id = ANY(%s) GROUP BY c.memory_id",
                (vector, namespace, model, wanted),
            ).fetchall()
        return {r[0]: float(r[1]) for r in rows}

    def unchunked(
        self, model: str, min_chars: int, *, limit: int, namespace: str | None = None
    ) -> list[MemoryRecord]:
        """Long live memories with a current vector but no current chunk vectors."""
        query = (
            codec.SELECT + " JOIN memory_vectors v ON v.memory_id = m.id AND v.model = %s "
            "AND v.content_hash = m.content_hash WHERE m.deleted_at IS NULL "
            "AND length(m.content) > %s AND NOT EXISTS (SELECT 1 FROM memory_chunks c "
            "WHERE c.memory_id = m.id AND c.model = %s AND c.content_hash = m.content_hash)"
        )
        params: list[Any] = [model, min_chars, model]
        if namespace is not None:
            query += " AND m.namespace = %s"
            params.append(namespace)
        query += " ORDER BY m.seq LIMIT %s"
        params.append(limit)
        with self._db.read() as conn:
            return [codec.from_row(r) for r in conn.execute(query, params).fetchall()]

    def count(self, model: str | None = None) -> int:
        """Chunk vector rows (of one model, or all)."""
        with self._db.read() as conn:
            if model is None:
                row = conn.execute("SELECT count(*) FROM memory_chunks").fetchone()
            else:
                row = conn.execute(
                    "SELECT count(*) FROM memory_chunks WHERE model = %s", (model,)
                ).fetchone()
        return int(row[0]) if row else 0

    def delete(self, model: str | None = None) -> int:
        """Drop chunk vectors of one model (or all)."""
        with self._db.tx("deleting chunk vectors") as conn:
            if model is None:
                cur = conn.execute("DELETE FROM memory_chunks")
            else:
                cur = conn.execute("DELETE FROM memory_chunks WHERE model = %s", (model,))
            return int(cur.rowcount)

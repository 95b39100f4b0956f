"""PostgreSQL's half of chunk vectors: pgvector rows, several per long memory, and their
search (``engram.store.sql.chunks`` holds what both engines share).

The best chunk per memory is computed by the database (``max`` of pgvector's cosine
distance grouped by memory), over the namespace's current rows only: a join with
``memories`` keeps out tombstoned memories and chunks of older content. The scan is
exact; chunk rows exist only for memories longer than the embedder's window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from engram.store.postgres.db import Database
from engram.store.protocols.chunks import MemoryChunks
from engram.store.sql.chunks import Matrix

_CURRENT = (
    "FROM memory_chunks c JOIN memories m ON m.id = c.memory_id "
    "AND m.deleted_at IS NULL AND m.content_hash = c.content_hash "
    "WHERE c.namespace = %s AND c.model = %s"
)


class PgChunkIndex:
    """``engram.store.sql.chunks.ChunkIndex`` on PostgreSQL: pgvector rows, scored by the
    database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def put(self, chunks: Iterable[MemoryChunks]) -> None:
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

    def search(self, namespace: str, model: str, query: Matrix, k: int) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        return self._best(
            "chunk search",
            namespace,
            model,
            query,
            " GROUP BY c.memory_id ORDER BY best DESC, c.memory_id LIMIT %s",
            int(k),
        )

    def scores(
        self,
        namespace: str,
        model: str,
        query: Matrix,
        ids: Sequence[str],
    ) -> dict[str, float]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        return dict(
            self._best(
                "chunk scores",
                namespace,
                model,
                query,
                " AND c.memory_id = ANY(%s) GROUP BY c.memory_id",
                wanted,
            )
        )

    def _best(
        self, what: str, namespace: str, model: str, query: Matrix, tail: str, last: Any
    ) -> list[tuple[str, float]]:
        """(memory id, its best chunk's cosine similarity to ``query``) over the current
        chunks of ``namespace`` and ``model``; ``tail`` follows the WHERE, with ``last``
        its one parameter."""
        vector = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        with self._db.read(what) as conn:
            rows = conn.execute(
                "SELECT c.memory_id, 1 - min(c.embedding <=> %s::vector) AS best "
                + _CURRENT
                + tail,
                (vector, namespace, model, last),
            ).fetchall()
        return [(r[0], float(r[1])) for r in rows]

"""Chunk vectors of long memories, several per memory, on either engine.

What a chunk row is and how the best chunk per memory is found are each engine's own
(a :class:`ChunkIndex`): SQLite keeps float32 BLOBs keyed by the memory's ``seq`` and
scores an in-memory matrix per (namespace, model) (``engram.store.sqlite.chunks``);
PostgreSQL keeps pgvector rows keyed by the memory's id and lets the database take the
best cosine per memory (``engram.store.postgres.chunks``). Finding memories that still
need chunks, counting and dropping rows are written here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord
from engram.store.protocols import ChunkVectorStore
from engram.store.protocols.chunks import MemoryChunks
from engram.store.protocols.memories import FACTS_HEAD_CHARS
from engram.store.sql.codec import SELECT, from_row
from engram.store.sql.rows import equal
from engram.store.sql.session import Sql, SqlPart

Matrix = npt.NDArray[np.float32]


class ChunkIndex(Protocol):
    """An engine's chunk vector rows and their search."""

    def put(self, chunks: Iterable[MemoryChunks]) -> None:
        """Replace each memory's chunk vectors by its model."""

    def search(self, namespace: str, model: str, query: Matrix, k: int) -> list[tuple[str, float]]:
        """The ``k`` memories whose best chunk is nearest to ``query``."""

    def scores(
        self, namespace: str, model: str, query: Matrix, ids: Sequence[str]
    ) -> dict[str, float]:
        """The best chunk cosine of specific memories that have chunks."""


class SqlChunks(SqlPart, ChunkVectorStore):
    """``ChunkVectorStore`` on either engine, over the engine's :class:`ChunkIndex`."""

    def __init__(self, sql: Sql, index: ChunkIndex) -> None:
        super().__init__(sql)
        self._index = index
        #: How a vector row (``memory_vectors``, ``memory_chunks``) names its memory
        #: ``m``: SQLite keys them by ``seq``, PostgreSQL by id.
        self._key = "memory_seq = m.seq" if self._d.name == "sqlite" else "memory_id = m.id"

    def put(self, chunks: Iterable[MemoryChunks]) -> None:
        self._index.put(chunks)

    def search(self, namespace: str, model: str, query: Matrix, k: int) -> list[tuple[str, float]]:
        return self._index.search(namespace, model, query, k)

    def scores(
        self, namespace: str, model: str, query: Matrix, ids: Sequence[str]
    ) -> dict[str, float]:
        return self._index.scores(namespace, model, query, ids)

    def unchunked(self, model: str, min_chars: int, *, limit: int) -> list[MemoryRecord]:
        key = self._key
        sql = (
            SELECT + f" JOIN memory_vectors v ON v.{key} AND v.model = ? "
            "AND v.content_hash = m.content_hash WHERE m.deleted_at IS NULL "
            "AND length(m.content) > ? AND NOT EXISTS (SELECT 1 FROM memory_chunks c "
            f"WHERE c.{key} AND c.model = ? AND c.content_hash = m.content_hash) "
            "ORDER BY m.seq LIMIT ?"
        )
        rows = self._rows(sql, (model, min_chars, model, limit))
        return [from_row(self._d, r) for r in rows]

    def uncovered(
        self,
        model: str,
        chunk_model: str,
        words: Sequence[str],
        *,
        after: str | None,
        limit: int,
    ) -> list[MemoryRecord]:
        key = self._key
        head = f"substr(m.normalized, 1, {FACTS_HEAD_CHARS})"
        holds = " OR ".join(f"{head} LIKE ?" for _ in words) or "1 = 0"
        start = "" if after is None else " AND m.seq > (SELECT seq FROM memories WHERE id = ?)"
        sql = (
            SELECT + f" JOIN memory_vectors v ON v.{key} AND v.model = ? "
            f"AND v.content_hash = m.content_hash WHERE m.deleted_at IS NULL AND ({holds})"
            f"{start} AND NOT EXISTS (SELECT 1 FROM memory_chunks c "
            f"WHERE c.{key} AND c.model = ? AND c.content_hash = m.content_hash) "
            "ORDER BY m.seq LIMIT ?"
        )
        cursor = () if after is None else (after,)
        params = (model, *(f"%{w}%" for w in words), *cursor, chunk_model, limit)
        return [from_row(self._d, r) for r in self._rows(sql, params)]

    def count(self, model: str | None = None) -> int:
        where, params = equal(model=model)
        return self._read_count(f"SELECT count(*) FROM memory_chunks WHERE {where}", params)

    def delete(self, model: str | None = None) -> int:
        where, params = equal(model=model)
        with self._sql.tx("deleting chunk vectors") as conn:
            cur = conn.execute(f"DELETE FROM memory_chunks WHERE {where}", params)
            return int(cur.rowcount)

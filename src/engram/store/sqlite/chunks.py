"""SQLite's half of chunk vectors: float32 BLOBs, several per long memory, and their
search (``engram.store.sql.chunks`` holds what both engines share).

Searches run over an in-memory matrix per (namespace, model), derived from the rows
and dropped whenever the chunk epoch moves (triggers move it on every chunk write and
every change of a memory's liveness or content). Rows are read in memory order, so
each memory's chunks are contiguous and the best chunk per memory is one
``np.maximum.reduceat``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engram.errors import StoreError
from engram.store.protocols.chunks import MemoryChunks
from engram.store.sql.chunks import Matrix
from engram.store.sqlite.db import Database, meta_epoch, with_seq

_CURRENT = (
    "FROM memory_chunks c JOIN memories m ON m.seq = c.memory_seq "
    "WHERE m.deleted_at IS NULL AND c.content_hash = m.content_hash"
)


@dataclass
class _Block:
    """One namespace's current chunk vectors of one model."""

    epoch: int
    ids: list[str]
    """The memory of each run of rows, in row order."""
    starts: npt.NDArray[np.intp]
    """The first row of each memory's run."""
    matrix: Matrix
    where: dict[str, int]
    """memory id -> its index in ``ids``."""

    def best(self, query: Matrix) -> npt.NDArray[np.float32]:
        """The best chunk cosine of every memory of the block, in ``ids`` order."""
        sims = self.matrix @ np.asarray(query, dtype=np.float32)
        return np.maximum.reduceat(sims, self.starts)


class SQLiteChunkIndex:
    """``engram.store.sql.chunks.ChunkIndex`` on SQLite: BLOB rows, in-memory matrices."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._blocks: dict[tuple[str, str], _Block] = {}
        self._lock = threading.Lock()

    def put(self, chunks: Iterable[MemoryChunks]) -> None:
        try:
            with self._db.tx() as conn:
                for item, seq in with_seq(conn, chunks):
                    conn.execute(
                        "DELETE FROM memory_chunks WHERE memory_seq = ? AND model = ?",
                        (seq, item.model),
                    )
                    matrix = np.ascontiguousarray(item.vectors, dtype=np.float32)
                    conn.executemany(
                        "INSERT INTO memory_chunks(memory_seq, model, ordinal, dim, "
                        "content_hash, vector) VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            (
                                seq,
                                item.model,
                                n,
                                int(row.shape[0]),
                                item.content_hash,
                                row.tobytes(),
                            )
                            for n, row in enumerate(matrix)
                        ],
                    )
        except sqlite3.Error as exc:
            raise StoreError(f"storing chunk vectors failed: {exc}") from exc

    def _block(self, namespace: str, model: str) -> _Block:
        with self._db.snapshot() as conn:
            epoch = meta_epoch(conn, "chunk_epoch")
            cached = self._blocks.get((namespace, model))
            if cached is not None and cached.epoch == epoch:
                return cached
            rows = conn.execute(
                "SELECT m.id, c.vector, c.dim " + _CURRENT + " AND m.namespace = ? "
                "AND c.model = ? ORDER BY m.seq, c.ordinal",
                (namespace, model),
            ).fetchall()
        ids: list[str] = []
        starts: list[int] = []
        for n, row in enumerate(rows):
            if not ids or ids[-1] != row[0]:
                ids.append(row[0])
                starts.append(n)
        if rows:
            dim = int(rows[0][2])
            matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            matrix = matrix.reshape(-1, dim).copy()
        else:
            matrix = np.zeros((0, 0), np.float32)
        block = _Block(
            epoch, ids, np.asarray(starts, dtype=np.intp), matrix, {m: i for i, m in enumerate(ids)}
        )
        self._blocks[(namespace, model)] = block
        return block

    def search(self, namespace: str, model: str, query: Matrix, k: int) -> list[tuple[str, float]]:
        with self._lock:
            block = self._block(namespace, model)
        if not block.ids or k <= 0:
            return []
        best = block.best(query)
        k = min(k, len(best))
        top = np.argpartition(-best, k - 1)[:k]
        top = top[np.argsort(-best[top], kind="stable")]
        return [(block.ids[i], float(best[i])) for i in top]

    def scores(
        self, namespace: str, model: str, query: Matrix, ids: Sequence[str]
    ) -> dict[str, float]:
        with self._lock:
            block = self._block(namespace, model)
        wanted = [block.where[i] for i in dict.fromkeys(ids) if i in block.where]
        if not wanted:
            return {}
        best = block.best(query)
        return {block.ids[i]: float(best[i]) for i in wanted}

"""Vectors in the SQLite store: float32 BLOBs, one per memory, and the vector epoch.

The searchable matrix is derived from these rows by ``VectorIndex``, which the
``index`` method hands out; triggers move the epoch on every vector write and every
change of a memory's liveness or content, so the index can tell when it is stale.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engram.errors import StoreError
from engram.store.protocols.vectors import AnnSettings, NamespaceVectors, VectorRow, VectorSearch
from engram.store.sql.dialect import Conn
from engram.store.sql.session import Sql
from engram.store.sql.vector_reads import VectorReads
from engram.store.sqlite.db import Database, meta_epoch, with_seq
from engram.store.sqlite.dialect import SQLITE
from engram.store.sqlite.snapshot import directory_for, remove_model
from engram.store.sqlite.vector_index import VectorIndex

#: Vector rows read at a time when a namespace's matrix is loaded.
_LOAD_SLICE = 20_000
_VECTORS = (
    "SELECT m.id, v.vector, v.dim FROM memory_vectors v JOIN memories m "
    "ON m.seq = v.memory_seq WHERE m.namespace = ? AND m.deleted_at IS NULL "
    "AND v.model = ? AND v.content_hash = m.content_hash"
)
#: A memory's ``embedding_model`` names the model of a vector of its current content,
#: so the live rows of a model are read without touching the vector pages.
_LIVE_HASHES = (
    "SELECT id, content_hash FROM memories "
    "WHERE namespace = ? AND deleted_at IS NULL AND embedding_model = ?"
)


@dataclass(frozen=True, slots=True)
class Changes:
    """What changed in a namespace since a snapshot of its vectors."""

    gone: list[str]
    """Snapshot rows deleted since, or whose content (so vector) changed."""
    ids: list[str]
    """Rows to add: new since, or changed (with their current vectors in ``matrix``)."""
    matrix: npt.NDArray[np.float32]
    epoch: int


def _matrix(rows: list[tuple[str, bytes, int]], dim: int) -> npt.NDArray[np.float32]:
    joined = b"".join(r[1] for r in rows)
    return np.frombuffer(joined, dtype=np.float32).reshape(-1, dim)


def _epoch(conn: sqlite3.Connection) -> int:
    return meta_epoch(conn, "vector_epoch")


class SQLiteVectors(VectorReads):
    """The SQLite implementation of ``VectorStore``."""

    def __init__(self, db: Database) -> None:
        super().__init__(Sql(db, SQLITE))
        self._db = db
        self.snapshot_directory: Path | None = directory_for(db.location)
        """Where large namespaces' indexes are persisted (``snapshot``); None in memory."""

    def put(self, rows: Iterable[VectorRow]) -> int:
        try:
            with self._db.tx() as conn:
                for row, seq in with_seq(conn, rows):
                    vector = np.ascontiguousarray(row.vector, dtype=np.float32)
                    conn.execute(
                        "INSERT INTO memory_vectors(memory_seq, model, dim, content_hash, vector) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(memory_seq) DO UPDATE SET "
                        "model = excluded.model, dim = excluded.dim, "
                        "content_hash = excluded.content_hash, vector = excluded.vector",
                        (
                            seq,
                            row.model,
                            int(vector.shape[0]),
                            row.content_hash,
                            vector.tobytes(),
                        ),
                    )
                    # Only a vector of the current content makes the memory embedded.
                    conn.execute(
                        "UPDATE memories SET embedding_model = ? "
                        "WHERE seq = ? AND content_hash = ?",
                        (row.model, seq, row.content_hash),
                    )
                epoch = _epoch(conn)
        except sqlite3.Error as exc:
            raise StoreError(f"storing vectors failed: {exc}") from exc
        return epoch

    def load(self, namespace: str, model: str) -> NamespaceVectors:
        ids: list[str] = []
        parts: list[np.ndarray] = []
        dim = 0
        # One snapshot for the rows and the epoch, on a connection of its own: a cold
        # 100k load takes seconds, which the main connection must not wait out.
        with self._db.side_snapshot("loading vectors") as conn:
            cursor = conn.execute(_VECTORS + " ORDER BY m.seq", (namespace, model))
            # Read in slices: at 1M vectors, holding every row's bytes, their join and
            # the matrix at once peaked ~3 GB above the matrix itself.
            while rows := cursor.fetchmany(_LOAD_SLICE):
                dim = dim or int(rows[0][2])
                ids.extend(r[0] for r in rows)
                parts.append(_matrix(rows, dim))
            epoch = _epoch(conn)
        if not ids:
            return NamespaceVectors(ids=[], matrix=np.zeros((0, 0), np.float32), epoch=epoch)
        return NamespaceVectors(ids=ids, matrix=np.concatenate(parts), epoch=epoch)

    def live_hashes(self, namespace: str, model: str) -> tuple[dict[str, str], int]:
        """Content hash per live memory of ``namespace`` with a current ``model``
        vector, and the epoch they were read at."""
        with self._db.side_snapshot("reading vector hashes") as conn:
            live = dict(conn.execute(_LIVE_HASHES, (namespace, model)).fetchall())
            return live, _epoch(conn)

    def changes(
        self, namespace: str, model: str, ids: Sequence[str], hashes: Sequence[str]
    ) -> Changes:
        """What differs between the store and a snapshot of ``ids`` whose vectors were
        made from ``hashes`` ("" = unknown, read again), in one read snapshot."""
        with self._db.side_snapshot("reading vector changes") as conn:
            live: dict[str, str] = dict(conn.execute(_LIVE_HASHES, (namespace, model)).fetchall())
            known = dict(zip(ids, hashes, strict=True))
            gone = [i for i, h in known.items() if live.get(i) != h]
            wanted = [i for i, h in live.items() if known.get(i) != h]
            found: list[tuple[str, bytes, int]] = []
            for part in SQLITE.chunks(wanted):
                found += conn.execute(
                    f"{_VECTORS} AND m.id IN ({SQLITE.marks(len(part))})",
                    (namespace, model, *part),
                ).fetchall()
            epoch = _epoch(conn)
        dims = {int(r[2]) for r in found}
        if len(dims) > 1:
            raise StoreError(f"vectors of model {model} have several dimensions: {sorted(dims)}")
        dim = dims.pop() if dims else 0
        matrix = _matrix(found, dim) if found else np.zeros((0, 0), np.float32)
        return Changes(gone, [r[0] for r in found], matrix, epoch)

    def epoch(self) -> int:
        with self._db.read() as conn:
            return _epoch(conn)

    def index(self, model: str, dimension: int, *, ann: AnnSettings | None = None) -> VectorSearch:
        return VectorIndex(self, model, dimension, ann)

    def delete(self, model: str | None = None) -> int:
        deleted = super().delete(model)
        # The persisted indexes of those vectors would only be caught up row by row.
        remove_model(self.snapshot_directory, model)
        return deleted


class SQLiteBundleVectors:
    """Bulk copy's side of the vector rows (``engram.store.sql.transfer.BundleVectors``):
    float32 BLOBs keyed by the memory's ``seq``."""

    def prepare(self, vectors: Sequence[VectorRow]) -> None:
        """Nothing: the searchable matrix is derived in process."""

    def read(self, conn: Conn, memory_ids: Sequence[str]) -> dict[str, VectorRow]:
        out: dict[str, VectorRow] = {}
        marks = SQLITE.marks(len(memory_ids))
        rows = conn.execute(
            "SELECT m.id, v.model, v.dim, v.content_hash, v.vector FROM memory_vectors v "
            f"JOIN memories m ON m.seq = v.memory_seq WHERE m.id IN ({marks})",
            memory_ids,
        ).fetchall()
        for r in rows:
            vector = np.frombuffer(r[4], dtype=np.float32).copy()
            if vector.shape[0] != int(r[2]):
                raise StoreError(
                    f"vector of memory {r[0]} has {vector.shape[0]} values "
                    f"but its row says dim {r[2]}"
                )
            out[r[0]] = VectorRow(r[0], r[1], vector, r[3])
        return out

    def write(self, conn: Conn, vectors: Sequence[VectorRow]) -> None:
        rows = []
        for row in vectors:
            vector = np.ascontiguousarray(row.vector, dtype=np.float32)
            rows.append(
                (row.model, int(vector.shape[0]), row.content_hash, vector.tobytes(), row.memory_id)
            )
        conn.executemany(
            "INSERT INTO memory_vectors(memory_seq, model, dim, content_hash, vector) "
            "SELECT m.seq, ?, ?, ?, ? FROM memories m WHERE m.id = ?",
            rows,
        )

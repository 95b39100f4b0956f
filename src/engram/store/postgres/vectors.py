"""Vectors in the PostgreSQL store: pgvector rows, one per memory, and the vector epoch.

Vectors live in one table with an untyped ``vector`` column; each (model, dimension)
gets its own partial HNSW index on ``embedding::vector(N)``, created here when that
model is first used (``ensure_index``). Dense search runs in the database
(``PgVectorSearch``, which ``index`` hands out); triggers move the epoch and a row's
``live`` flag on every vector write and every change of a memory's liveness or content.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from engram.store.postgres import bulk, hnsw
from engram.store.postgres.db import Database
from engram.store.postgres.dense import PgVectorSearch, Unembedded
from engram.store.postgres.dialect import POSTGRES, PgConn
from engram.store.protocols.vectors import (
    AnnSettings,
    IndexRebuild,
    NamespaceVectors,
    VectorRow,
    VectorSearch,
)
from engram.store.sql.dialect import Conn
from engram.store.sql.migrations import LOCK_KEY
from engram.store.sql.native import vector_array
from engram.store.sql.session import Sql
from engram.store.sql.vector_reads import VectorReads

#: pgvector's HNSW index supports ``vector`` columns of at most this many dimensions.
HNSW_MAX_DIM = 2000


def vector_index_name(model: str, dim: int) -> str:
    """The HNSW index of one (model, dimension): a stable, identifier-safe name."""
    digest = hashlib.sha1(model.encode("utf-8")).hexdigest()[:12]
    return f"memory_vectors_hnsw_{digest}_{int(dim)}"


def _stored(row: VectorRow) -> tuple[str, int, str, str, npt.NDArray[np.float32], str]:
    """A vector row's insert parameters: model, dimension, content hash (twice: stored,
    and compared with the memory's for ``live``), the float32 vector, its memory id."""
    vector = np.ascontiguousarray(row.vector, dtype=np.float32).reshape(-1)
    return (
        row.model,
        int(vector.shape[0]),
        row.content_hash,
        row.content_hash,
        vector,
        row.memory_id,
    )


def lock_order(conn: Any, memory_ids: Sequence[str]) -> None:
    """Take a vector write's locks in the one order every writer uses: the memories'
    rows (in id order), then the vector epoch's row, and only then vector rows.

    Every vector row written or deleted bumps the epoch by trigger, and a memory whose
    content or liveness changes bumps it too (memory row, then epoch). Without this, a
    write held a new vector row and waited for the epoch while the background filler,
    holding the epoch since its first row, waited to insert that same memory's vector:
    PostgreSQL's ``deadlock detected`` (engram issue 26, item 4)."""
    if memory_ids:
        conn.execute(
            "SELECT 1 FROM memories WHERE id = ANY(%s) ORDER BY id FOR NO KEY UPDATE",
            (list(memory_ids),),
        )
    conn.execute("SELECT 1 FROM engram_meta WHERE key = 'vector_epoch' FOR UPDATE")


class PgVectors(VectorReads):
    """The PostgreSQL implementation of ``VectorStore``."""

    def __init__(self, db: Database) -> None:
        super().__init__(Sql(db, POSTGRES))
        self._db = db
        self._indexes: dict[tuple[str, int], str | None] = {}
        self._unembedded = Unembedded()
        self.builds = bulk.IndexBuilds(db)
        """The HNSW indexes dropped ahead of a bulk load or found missing, built again
        in the background (``bulk.IndexBuilds``)."""

    def ensure_index(self, model: str, dim: int) -> str | None:
        """Create the HNSW index of (model, dim) if it does not exist; returns its name.

        Called when a Memory opens with an embedder and before the first vector of a
        model is written. None when the dimension is past what HNSW indexes (exact
        search then answers). The advisory lock keeps two processes from racing.

        Inside a transaction this thread holds, the index is created in that
        transaction, and the answer is not cached: a rollback would undo the index.
        """
        key = (model, int(dim))
        if key in self._indexes:
            return self._indexes[key]
        joined = self._db.in_transaction
        config = self._db.config
        name: str | None = None
        if config.read_only:
            with self._db.read() as conn:
                found = conn.execute(
                    "SELECT index_name FROM vector_indexes WHERE model = %s AND dim = %s", key
                ).fetchone()
            name = None if found is None else str(found[0])
        elif 0 < dim <= HNSW_MAX_DIM:
            name = vector_index_name(model, dim)
            with self._db.tx("creating the vector index") as conn:
                found = conn.execute(
                    "SELECT index_name FROM vector_indexes WHERE model = %s AND dim = %s",
                    key,
                ).fetchone()
                if found is None:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY + 1,))
                    found = conn.execute(
                        "SELECT index_name FROM vector_indexes WHERE model = %s AND dim = %s",
                        key,
                    ).fetchone()
                if found is None:
                    conn.execute(hnsw.create_sql(name, model, dim, hnsw.configured(config)))
                    conn.execute(
                        "INSERT INTO vector_indexes(model, dim, index_name) VALUES (%s, %s, %s)",
                        (model, int(dim), name),
                    )
                else:
                    name = str(found[0])
                    # Dropped by a bulk load whose process ended before building it, or
                    # left invalid by a build cut short: build it in the background.
                    state = hnsw.index_state(conn, name)
                    if not joined and (state is None or not state[1]):
                        self.builds.missing()
        if not joined:
            self._indexes[key] = name
        return name

    def rebuild_indexes(
        self, *, work_mem: str | None = None, force: bool = False
    ) -> list[IndexRebuild]:
        """Every vector index whose build differs from ``[postgres]``'s (all with
        ``force``), rebuilt without blocking reads or writes (``hnsw.rebuild``)."""
        return hnsw.rebuild(self._db, work_mem=work_mem, force=force)

    def put(self, rows: Iterable[VectorRow]) -> int:
        params = [_stored(row) for row in rows]
        large = len(params) >= bulk.BULK_ROWS
        # A dropped index is built once a load's last batch is written (``writing``).
        with self.builds.writing() if large else nullcontext():
            for model, dim in {(p[0], p[1]) for p in params}:  # (model, dimension)
                name = self.ensure_index(model, dim)
                if name is not None and large and not self._db.in_transaction:
                    self.builds.before_bulk(model, dim, name, len(params))
            params.sort(key=lambda p: str(p[5]))  # memory id order: see ``lock_order``
            # One transaction, re-run whole if PostgreSQL aborts it for a deadlock anyway.
            return self._reads.run(lambda conn: _put(raw(conn), params, large), "storing vectors")

    def load(self, namespace: str, model: str) -> NamespaceVectors:
        with self._db.snapshot("loading vectors") as conn:  # one snapshot: rows and epoch
            rows = conn.execute(
                "SELECT v.memory_id, v.embedding FROM memory_vectors v "
                "JOIN memories m ON m.id = v.memory_id "
                "WHERE v.namespace = %s AND v.model = %s AND v.live ORDER BY m.seq",
                (namespace, model),
            ).fetchall()
            epoch_row = conn.execute(
                "SELECT value FROM engram_meta WHERE key = 'vector_epoch'"
            ).fetchone()
        epoch = int(epoch_row[0]) if epoch_row else 0
        if not rows:
            return NamespaceVectors(ids=[], matrix=np.zeros((0, 0), np.float32), epoch=epoch)
        matrix = np.stack([vector_array(r[1]) for r in rows])
        return NamespaceVectors(ids=[r[0] for r in rows], matrix=matrix, epoch=epoch)

    def epoch(self) -> int:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT value FROM engram_meta WHERE key = 'vector_epoch'"
            ).fetchone()
        return int(row[0]) if row else 0

    def _before_delete(self, conn: Conn) -> None:
        lock_order(raw(conn), [])

    def index(self, model: str, dimension: int, *, ann: AnnSettings | None = None) -> VectorSearch:
        """pgvector search in the database; creates the (model, dimension) HNSW index.

        ``ann`` is ignored: the database's HNSW index (``[postgres]`` hnsw_m, ef_search)
        serves every size.
        """
        self.ensure_index(model, dimension)
        return PgVectorSearch(
            self._db,
            model,
            dimension,
            self.ensure_index,
            self._unembedded,
            building=lambda: self.builds.building,
        )

    def unembedded(self, namespace: str) -> int:
        """The count this thread's last dense search of ``namespace`` read in its own
        round trip (recall asks right after searching), else a count of its own."""
        found = self._unembedded.take(namespace)
        return super().unembedded(namespace) if found is None else found


def raw(conn: Conn) -> Any:
    """The psycopg connection under the shared ``?`` wrapper (``PgConn.raw``)."""
    return cast(PgConn, conn).raw


def _put(conn: Any, params: list[tuple[Any, ...]], large: bool) -> int:
    """``PgVectors.put``'s transaction: the vector rows and the memories' model, in the
    lock order of ``lock_order`` (``large``: through COPY, ``bulk.write``); returns the
    epoch after it."""
    if params and large:
        lock_order(conn, [p[5] for p in params])
        bulk.write(conn, params)
    elif params:
        lock_order(conn, [p[5] for p in params])
        with conn.cursor() as cur:
            # A memory purged while it was being embedded matches no row: skipped.
            cur.executemany(
                "INSERT INTO memory_vectors(memory_id, namespace, model, dim, "
                "content_hash, live, embedding) "
                "SELECT m.id, m.namespace, %s, %s, %s, "
                "(m.deleted_at IS NULL AND m.content_hash = %s), %s "
                "FROM memories m WHERE m.id = %s "
                "ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, "
                "dim = excluded.dim, content_hash = excluded.content_hash, "
                "live = excluded.live, embedding = excluded.embedding",
                params,
            )
            # Only a vector of the current content makes the memory embedded.
            cur.executemany(
                "UPDATE memories SET embedding_model = %s WHERE id = %s AND content_hash = %s",
                [(p[0], p[5], p[2]) for p in params],
            )
    epoch = conn.execute("SELECT value FROM engram_meta WHERE key = 'vector_epoch'").fetchone()
    return int(epoch[0]) if epoch else 0


class PgBundleVectors:
    """Bulk copy's side of the vector rows (``engram.store.sql.transfer.BundleVectors``):
    pgvector values keyed by memory id, with the memory's namespace and ``live`` flag.
    ``conn`` is the shared ``?``-placeholder connection. ``ensure_index`` is the vectors
    part's: the HNSW index of each (model, dimension) among imported vectors exists
    before their rows are written."""

    def __init__(self, ensure_index: Callable[[str, int], str | None]) -> None:
        self._ensure_index = ensure_index

    def prepare(self, vectors: Sequence[VectorRow]) -> None:
        for model, dim in {
            (v.model, int(np.asarray(v.vector).reshape(-1).shape[0])) for v in vectors
        }:
            self._ensure_index(model, dim)

    def read(self, conn: Conn, memory_ids: Sequence[str]) -> dict[str, VectorRow]:
        rows = conn.execute(
            "SELECT memory_id, model, content_hash, embedding FROM memory_vectors "
            "WHERE memory_id = ANY(?)",
            (list(memory_ids),),
        ).fetchall()
        return {r[0]: VectorRow(r[0], r[1], vector_array(r[3]), r[2]) for r in rows}

    def write(self, conn: Conn, vectors: Sequence[VectorRow]) -> None:
        rows = [(row.memory_id, *_stored(row)) for row in vectors]
        conn.executemany(
            "INSERT INTO memory_vectors(memory_id, namespace, model, dim, content_hash, "
            "live, embedding) SELECT ?, m.namespace, ?, ?, ?, "
            "(m.deleted_at IS NULL AND m.content_hash = ?), ? FROM memories m "
            "WHERE m.id = ?",
            rows,
        )

"""Large vector writes on PostgreSQL: one COPY instead of a statement per row, and the
HNSW index built once after a load instead of taking each vector into its graph.

A write of at least ``BULK_ROWS`` vectors (``PgVectors.put``: the scale harness's vectors
phase, a re-embed, an import) streams its rows into a temporary table with binary COPY
and moves them with one ``INSERT ... SELECT`` and one ``UPDATE``. The epoch trigger
stands aside for that statement (migration ``031_bulk_vector_epoch``: the transaction's
``engram.bulk_vectors`` setting) and the write bumps the epoch once itself, so 5,000 rows
no longer update the one epoch row 5,000 times in one transaction.

pgvector inserts each row of a table with an HNSW index into the graph as it is
written: 114 vectors/s at 100k on a loaded 2-core machine (docs/benchmarks.md, "The cost
curve on today's code"), where building the graph once over the same rows in memory
is several times faster. So when a bulk write goes to a (model, dimension) whose index
holds at most ``SMALL_INDEX`` times the write's rows, ``IndexBuilds.before_bulk`` drops
that index (``DROP INDEX CONCURRENTLY``, never blocking readers) and this process
builds it again once vector writes have been quiet for ``QUIET_S`` seconds, with
``CREATE INDEX CONCURRENTLY`` through ``hnsw.rebuild``, without parallel workers (their
graph recalled less than one built serially or row by row).

Correctness under concurrent writers: the drop and the build both hold the advisory
lock of ``hnsw.rebuild`` (one at a time in every process: a drop that cannot take it
leaves the index alone and writes into it), writers never need the index (a row written
meanwhile is in the table, and the concurrent build takes it in), and searches while the
index is absent are exact (a sequential scan and sort of the namespace's rows), only
slower. If this process ends before its build, the next process that opens the store
finds the index missing (``ensure_index``) and builds it in the background, and
``engram maintenance reindex-vectors`` builds it at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from psycopg import sql

from engram.errors import StoreBusyError
from engram.store.postgres import hnsw
from engram.store.postgres.db import Database

log = logging.getLogger(__name__)

#: A vector write of at least this many rows goes through COPY (fewer: one executemany,
#: whose per-statement cost is small next to a transaction's at that size).
BULK_ROWS = 1000
#: A bulk write drops its model's HNSW index when the index holds at most this many
#: times the write's rows: building the graph once over (1 + this) × the rows costs less
#: than inserting the write's rows one by one (5,000 vectors: 6.9 s into the graph, 3.9 s
#: to build a graph of them, at load 8; docs/benchmarks.md, issue 29, round 12).
SMALL_INDEX = 2
#: Seconds without a vector write before the dropped index is built again, so a load
#: written in batches builds it once, after its last batch.
QUIET_S = 1.0
#: The build's ``maintenance_work_mem`` per indexed row: pgvector's graph of a
#: 384-dimension vector at m 16 takes about 2 kB; a graph that fits builds in memory,
#: several times faster than one that spills (docs/deploy-postgres.md).
BYTES_PER_ROW = 4 * 384 + 512
#: At most this much ``maintenance_work_mem`` for a build this process starts by itself.
MAX_WORK_MEM_MB = 1024

#: The staging table of one bulk write (dropped at its commit).
STAGE = (
    "CREATE TEMP TABLE engram_vector_load (memory_id TEXT, model TEXT, dim INTEGER, "
    "content_hash TEXT, embedding vector) ON COMMIT DROP"
)
COPY = "COPY engram_vector_load FROM STDIN (FORMAT BINARY)"
COPY_TYPES = ["text", "text", "int4", "text", "vector"]
#: The staged rows into ``memory_vectors``: the namespace and ``live`` from the memory
#: (a memory purged while it was being embedded matches no row: skipped).
MOVE = (
    "INSERT INTO memory_vectors(memory_id, namespace, model, dim, content_hash, live, "
    "embedding) SELECT m.id, m.namespace, s.model, s.dim, s.content_hash, "
    "(m.deleted_at IS NULL AND m.content_hash = s.content_hash), s.embedding "
    "FROM engram_vector_load s JOIN memories m ON m.id = s.memory_id "
    "ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, dim = excluded.dim, "
    "content_hash = excluded.content_hash, live = excluded.live, "
    "embedding = excluded.embedding"
)
#: Only a vector of the current content makes the memory embedded.
EMBEDDED = (
    "UPDATE memories m SET embedding_model = s.model FROM engram_vector_load s "
    "WHERE m.id = s.memory_id AND m.content_hash = s.content_hash"
)


def write(conn: Any, params: Sequence[tuple[Any, ...]]) -> None:
    """A bulk write's statements in the caller's transaction (which holds the lock order
    of ``vectors.lock_order``); ``params`` are ``vectors._stored`` tuples."""
    conn.execute(STAGE)
    with conn.cursor() as cur, cur.copy(COPY) as copy:
        copy.set_types(COPY_TYPES)
        for model, dim, content_hash, _, vector, memory_id in params:
            copy.write_row((memory_id, model, dim, content_hash, vector))
    conn.execute("SELECT set_config('engram.bulk_vectors', 'on', true)")
    moved = conn.execute(MOVE).rowcount
    conn.execute("SELECT set_config('engram.bulk_vectors', 'off', true)")
    if moved:  # what the trigger would have done, once
        conn.execute("UPDATE engram_meta SET value = value + 1 WHERE key = 'vector_epoch'")
    conn.execute(EMBEDDED)


class IndexBuilds:
    """The HNSW indexes this process dropped ahead of a bulk load (or found missing),
    and the background build that makes them again once writes go quiet."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._lock = threading.Lock()
        self._last_write = 0.0
        self._writing = 0
        self._finishing = False
        self._thread: threading.Thread | None = None
        self._rows = 0
        self.builds = 0
        """Builds this process ran to the end."""

    @property
    def building(self) -> bool:
        """True while a build is waiting for quiet or running."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def wrote(self) -> None:
        """A vector write happened: the build waits for quiet again."""
        self._last_write = time.monotonic()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A bulk write in progress: no build starts before it ends and writes go quiet."""
        with self._lock:
            self._writing += 1
        try:
            yield
        finally:
            with self._lock:
                self._writing -= 1
            self.wrote()

    def before_bulk(self, model: str, dim: int, name: str, rows: int) -> None:
        """Before a bulk write of ``rows`` vectors of (``model``, ``dim``) outside any
        transaction (inside ``writing``): drop index ``name`` if it is small next to the
        write, and make sure a build follows if it is (now) absent."""
        limit = SMALL_INDEX * rows
        with self._db.read("dropping a small vector index before a bulk write") as conn:
            state = hnsw.index_state(conn, name)
            if state is None or not state[1]:
                self.missing(rows)
                return
            found = conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM memory_vectors WHERE model = %s "
                "AND dim = %s LIMIT %s) s",
                (model, int(dim), limit + 1),
            ).fetchone()
            if found is None or int(found[0]) > limit:
                return  # a large index: the rows go into its graph
            locked = conn.execute(
                "SELECT pg_try_advisory_lock(%s)", (hnsw.REBUILD_LOCK,)
            ).fetchone()
            if not locked or not locked[0]:
                return  # a build or rebuild runs elsewhere: leave its index alone
            try:
                conn.execute(
                    sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name))
                )
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (hnsw.REBUILD_LOCK,))
        self.missing(rows + int(found[0]))

    def missing(self, rows: int = 0) -> None:
        """An index is absent or unusable: build it in the background once writes stop."""
        with self._lock:
            self._rows += rows
            if self.building:
                return
            self._thread = threading.Thread(
                target=self._run, name="engram-pg-index-build", daemon=True
            )
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the background build; True when none is left running."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not self.building

    def finish(self) -> None:
        """The store closes: a build still waiting for quiet starts now, and this waits
        for it, so a load's index exists when its process ends."""
        self._finishing = True
        self.wait()

    def _quiet(self) -> bool:
        with self._lock:
            if self._writing:
                return False
            return self._finishing or time.monotonic() - self._last_write >= QUIET_S

    def _run(self) -> None:
        while not self._quiet():
            time.sleep(0.1)
        try:
            rows = self._count()
            work_mem = max(64, min(MAX_WORK_MEM_MB, rows * BYTES_PER_ROW // 2**20 + 1))
            # Serial: a parallel build's graph recalled less (``hnsw.rebuild``).
            hnsw.rebuild(self._db, work_mem=f"{work_mem}MB", missing_only=True)
            self.builds += 1
        except StoreBusyError:
            pass  # another process builds it
        except Exception:  # a closed pool or a lost server: the next open builds it
            log.warning("building the vector index in the background failed", exc_info=True)

    def _count(self) -> int:
        with self._db.read("counting vectors") as conn:
            row = conn.execute("SELECT count(*) FROM memory_vectors").fetchone()
        return int(row[0]) if row else self._rows

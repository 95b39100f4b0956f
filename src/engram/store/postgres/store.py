"""The scale-out store: PostgreSQL >= 15 with pgvector, through psycopg 3 (FEATURES B4).

It keeps the SQLite store's semantics exactly (namespaces, tombstones, content-hash
dedup with a "dedup" history event, before/after audit JSON, the feedback clamp, the
vector epoch) on a connection pool. Each public method is one short transaction on one
pooled connection; no model or network call happens inside one. All SQL and psycopg
types stay in this package.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import psycopg
from pgvector.psycopg.vector import register_vector_info
from psycopg import sql
from psycopg.types import TypeInfo
from psycopg_pool import ConnectionPool

from engram.config import PostgresConfig
from engram.errors import InvalidInputError, NotFoundError, StoreClosedError, StoreError
from engram.records import HistoryEntry, MemoryRecord, utcnow
from engram.store import schema
from engram.store.base import (
    ImportCounts,
    InsertResult,
    ListQuery,
    MemoryBundle,
    NamespaceVectors,
    StoreStats,
    TranscriptRow,
    VectorRow,
    VectorSearch,
)
from engram.store.postgres import codec, keyword, migrations
from engram.store.postgres.keys import ApiKeysMixin
from engram.store.postgres.transcripts import TranscriptsMixin
from engram.text import match_terms, normalize_content

#: pgvector's HNSW index supports ``vector`` columns of at most this many dimensions.
HNSW_MAX_DIM = 2000
#: Seconds a namespace's live memory count (BM25's N) is reused by keyword search.
COUNT_TTL = 30.0


def redact(conninfo: str) -> str:
    """The connection URL without its password, for ``location`` and messages."""
    parts = urlsplit(conninfo)
    if parts.password is None:
        return conninfo
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


def vector_index_name(model: str, dim: int) -> str:
    """The HNSW index of one (model, dimension): a stable, identifier-safe name."""
    digest = hashlib.sha1(model.encode("utf-8")).hexdigest()[:12]
    return f"memory_vectors_hnsw_{digest}_{int(dim)}"


class PostgresStore(TranscriptsMixin, ApiKeysMixin):
    """The PostgreSQL implementation of :class:`engram.store.Store`."""

    def __init__(
        self,
        conninfo: str,
        config: PostgresConfig | None = None,
        *,
        migrate: bool = True,
    ) -> None:
        self.config = config or PostgresConfig()
        self.location = redact(conninfo)
        self._conninfo = conninfo
        self._closed = False
        self._lock = threading.Lock()
        self._indexes: dict[tuple[str, int], str | None] = {}
        self._live_counts: dict[str, tuple[float, int]] = {}
        self._vector_info: TypeInfo | None = None
        try:
            with psycopg.connect(
                conninfo, autocommit=True, connect_timeout=self.config.connect_timeout
            ) as conn:
                if migrate and not self.config.read_only:
                    migrations.migrate(conn)
                self._vector_info = TypeInfo.fetch(conn, "vector")
        except psycopg.Error as exc:
            raise StoreError(f"cannot open PostgreSQL store at {self.location}: {exc}") from exc
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            conninfo,
            min_size=min(self.config.pool_min_size, self.config.pool_max_size),
            max_size=self.config.pool_max_size,
            kwargs={"autocommit": True, "connect_timeout": self.config.connect_timeout},
            configure=self._configure,
            timeout=self.config.pool_timeout,
            name="engram",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=float(self.config.connect_timeout))
        except psycopg.Error as exc:
            self._pool.close()
            raise StoreError(f"cannot open PostgreSQL pool at {self.location}: {exc}") from exc

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute("SET TIME ZONE 'UTC'")
        if self._vector_info is not None:
            register_vector_info(conn, self._vector_info)

    # -- plumbing -------------------------------------------------------------------
    @contextmanager
    def _read(self, what: str = "read") -> Iterator[psycopg.Connection[Any]]:
        """One pooled connection in autocommit mode: each statement is its own snapshot.

        For reads of one statement, it saves the BEGIN and COMMIT round trips of
        ``_tx``. Driver errors become ``StoreError``; constraint errors bad input.
        """
        self._check_open()
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.errors.IntegrityError as exc:
            raise InvalidInputError(f"{what} rejected by the database: {exc}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc

    @contextmanager
    def _tx(self, what: str = "write") -> Iterator[psycopg.Connection[Any]]:
        """One transaction on one pooled connection; driver errors become StoreError."""
        with self._read(what) as conn, conn.transaction():
            yield conn

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosedError("this store is closed; open a new Memory to keep working")

    @property
    def closed(self) -> bool:
        """True after ``close``."""
        return self._closed

    def close(self) -> None:
        """Close the pool; idempotent."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._pool.close()

    def schema_version(self) -> str:
        """The newest applied migration."""
        with self._read() as conn:
            rows = conn.execute(
                'SELECT name FROM schema_migrations ORDER BY name COLLATE "C" DESC LIMIT 1'
            ).fetchall()
        return str(rows[0][0]) if rows else "none"

    # -- memories -------------------------------------------------------------------
    def insert(
        self, records: Sequence[MemoryRecord], *, actor: str | None = None
    ) -> list[InsertResult]:
        """Insert records in one transaction; exact duplicates return the existing memory."""
        if not records:
            return []
        rows = [codec.to_row(r, normalize_content(r.content).normalized) for r in records]
        now = utcnow()
        results: list[InsertResult | None] = [None] * len(records)
        with self._tx("insert") as conn, conn.cursor() as cur:
            cur.executemany(
                codec.INSERT + " ON CONFLICT (namespace, content_hash) "
                "WHERE deleted_at IS NULL DO NOTHING RETURNING id",
                rows,
                returning=True,
            )
            created: list[bool] = []
            while True:
                created.append(cur.fetchone() is not None)
                if not cur.nextset():
                    break
            history: list[tuple[Any, ...]] = []
            for i, record in enumerate(records):
                if created[i]:
                    results[i] = InsertResult(record, created=True)
                    history.append(
                        self._history_row(record, "create", None, record, actor, None, now)
                    )
            for i, record in enumerate(records):
                if created[i]:
                    continue
                row = cur.execute(
                    codec.SELECT + " WHERE m.namespace = %s AND m.content_hash = %s "
                    "AND m.deleted_at IS NULL",
                    (record.namespace, record.content_hash),
                ).fetchone()
                if row is None:  # pragma: no cover - the conflict row must be visible
                    raise StoreError(f"insert of memory {record.id} neither stored nor deduped")
                found = codec.from_row(row)
                history.append(
                    self._history_row(
                        found, "dedup", None, None, actor, "identical content already stored", now
                    )
                )
                results[i] = InsertResult(found, created=False)
            self._write_history(cur, history)
        return [r for r in results if r is not None]

    @staticmethod
    def _history_row(
        record: MemoryRecord,
        event: str,
        before: MemoryRecord | None,
        after: MemoryRecord | None,
        actor: str | None,
        reason: str | None,
        now: datetime,
    ) -> tuple[Any, ...]:
        return (
            record.id,
            record.namespace,
            event,
            codec.audit(before),
            codec.audit(after),
            codec.check_text(actor, "actor"),
            codec.check_text(reason, "reason"),
            now,
        )

    @staticmethod
    def _write_history(cur: psycopg.Cursor[Any], rows: Sequence[tuple[Any, ...]]) -> None:
        if rows:
            cur.executemany(
                "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
                "reason, created_at) VALUES (%s, %s, %s, %s::json, %s::json, %s, %s, %s)",
                rows,
            )

    def get(
        self, namespace: str, memory_id: str, *, include_deleted: bool = False
    ) -> MemoryRecord | None:
        """One memory of ``namespace``, or None."""
        query = codec.SELECT + " WHERE m.namespace = %s AND m.id = %s"
        if not include_deleted:
            query += " AND m.deleted_at IS NULL"
        with self._read() as conn:
            row = conn.execute(query, (namespace, memory_id)).fetchone()
        return None if row is None else codec.from_row(row)

    def get_many(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Live memories of ``namespace`` by id; unknown ids are left out."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        # Looked up by id alone, then checked here: with a namespace condition the
        # planner may scan the whole namespace through its index instead of fetching
        # a dozen rows by primary key (10 ms instead of 0.5 at 5k memories).
        with self._read() as conn:
            rows = conn.execute(codec.SELECT + " WHERE m.id = ANY(%s)", (ids,)).fetchall()
        out: dict[str, MemoryRecord] = {}
        for row in rows:
            record = codec.from_row(row)
            if record.namespace == namespace and record.deleted_at is None:
                out[record.id] = record
        return out

    def timestamps(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, datetime]:
        """``created_at`` of live memories of ``namespace`` by id; unknown ids left out."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        with self._read() as conn:  # by id alone, as in ``get_many``
            rows = conn.execute(
                "SELECT id, namespace, deleted_at, created_at FROM memories WHERE id = ANY(%s)",
                (ids,),
            ).fetchall()
        return {r[0]: codec.utc(r[3]) for r in rows if r[1] == namespace and r[2] is None}

    def list_memories(self, namespace: str, query: ListQuery) -> list[MemoryRecord]:
        """Memories of ``namespace`` matching every filter in ``query``."""
        where = ["m.namespace = %s"]
        params: list[Any] = [namespace]
        if not query.include_deleted:
            where.append("m.deleted_at IS NULL")
        for column in ("type", "category", "user_id", "agent_id", "run_id", "session_id"):
            value = getattr(query, column)
            if value is not None:
                where.append(f"m.{column} = %s")
                params.append(str(value))
        for tag in query.tags:
            where.append(
                "EXISTS (SELECT 1 FROM json_array_elements(m.tags) t "
                "WHERE json_typeof(t) = 'string' AND t #>> '{}' = %s)"
            )
            params.append(tag)
        for key, value in query.metadata.items():
            clause, values = _metadata_clause(str(key), value)
            where.append(clause)
            params.extend(values)
        if query.min_quality is not None:
            where.append("m.quality >= %s")
            params.append(query.min_quality)
        if query.max_quality is not None:
            where.append("m.quality <= %s")
            params.append(query.max_quality)
        if query.created_after is not None:
            where.append("m.created_at >= %s")
            params.append(query.created_after)
        if query.created_before is not None:
            where.append("m.created_at < %s")
            params.append(query.created_before)
        order = "DESC" if query.newest_first else "ASC"
        statement = (
            codec.SELECT
            + " WHERE "
            + " AND ".join(where)
            + f" ORDER BY m.created_at {order}, m.seq {order} LIMIT %s OFFSET %s"
        )
        params.extend([query.limit, query.offset])
        with self._read() as conn:
            return [codec.from_row(r) for r in conn.execute(statement, params).fetchall()]

    def count(self, namespace: str, *, include_deleted: bool = False) -> int:
        """How many memories ``namespace`` holds."""
        query = "SELECT count(*) FROM memories WHERE namespace = %s"
        if not include_deleted:
            query += " AND deleted_at IS NULL"
        with self._read() as conn:
            row = conn.execute(query, (namespace,)).fetchone()
        return int(row[0]) if row else 0

    def recent(self, namespace: str, limit: int) -> list[MemoryRecord]:
        """The newest live memories of ``namespace``."""
        return self.list_memories(namespace, ListQuery(limit=limit))

    def _live(self, conn: psycopg.Connection[Any], namespace: str, memory_id: str) -> MemoryRecord:
        # FOR UPDATE: concurrent read-modify-writes of one memory (feedback, update)
        # serialise here, as BEGIN IMMEDIATE serialises them on SQLite.
        row = conn.execute(
            codec.SELECT + " WHERE m.namespace = %s AND m.id = %s AND m.deleted_at IS NULL "
            "FOR UPDATE",
            (namespace, memory_id),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
        return codec.from_row(row)

    def update(
        self,
        namespace: str,
        memory_id: str,
        changes: Mapping[str, Any],
        *,
        event: str = "update",
        actor: str | None = None,
        reason: str | None = None,
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """Apply ``changes`` to a live memory, audit them, and return (before, after)."""
        schema.check_updatable(changes)
        with self._tx("update") as conn:
            before = self._live(conn, namespace, memory_id)
            values, after = schema.planned_update(before, changes)
            if after.content_hash != before.content_hash:
                clash = conn.execute(
                    "SELECT id FROM memories WHERE namespace = %s AND content_hash = %s "
                    "AND deleted_at IS NULL AND id != %s",
                    (namespace, after.content_hash, memory_id),
                ).fetchone()
                if clash is not None:
                    raise schema.content_clash(clash[0])
            sets = ", ".join(
                f"{c} = %s::json" if c in schema.JSON_FIELDS else f"{c} = %s" for c in values
            )
            params = [
                codec.check_text(v, c) if c == "normalized" else codec.encode(c, getattr(after, c))
                for c, v in values.items()
            ]
            conn.execute(
                f"UPDATE memories SET {sets} WHERE namespace = %s AND id = %s",
                (*params, namespace, memory_id),
            )
            with conn.cursor() as cur:
                self._write_history(
                    cur, [self._history_row(after, event, before, after, actor, reason, utcnow())]
                )
        return before, after

    def delete(self, namespace: str, memory_id: str, *, actor: str | None = None) -> MemoryRecord:
        """Tombstone a memory; it disappears from search, list and recall."""
        with self._tx("delete") as conn:
            before = self._live(conn, namespace, memory_id)
            now = utcnow()
            after = before.with_changes(deleted_at=now, updated_at=now)
            conn.execute(
                "UPDATE memories SET deleted_at = %s, updated_at = %s "
                "WHERE namespace = %s AND id = %s",
                (now, now, namespace, memory_id),
            )
            with conn.cursor() as cur:
                self._write_history(
                    cur, [self._history_row(after, "delete", before, after, actor, None, now)]
                )
        return after

    def purge(self, namespace: str | None = None) -> int:
        """Hard-delete tombstoned memories with their vectors, history and feedback."""
        where = "deleted_at IS NOT NULL" + ("" if namespace is None else " AND namespace = %s")
        params: tuple[Any, ...] = () if namespace is None else (namespace,)
        with self._tx("purge") as conn:
            ids = [r[0] for r in conn.execute(f"SELECT id FROM memories WHERE {where}", params)]
            if ids:
                conn.execute("DELETE FROM memory_history WHERE memory_id = ANY(%s)", (ids,))
                conn.execute("DELETE FROM memory_feedback_log WHERE memory_id = ANY(%s)", (ids,))
                conn.execute("DELETE FROM memories WHERE id = ANY(%s)", (ids,))
        return len(ids)

    def record_feedback(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """seed 000: quality += rating, clamped to [-3, +3]; the rating is logged."""
        codec.check_text(comment, "comment")
        with self._tx("feedback") as conn:
            before = self._live(conn, namespace, memory_id)
            now = utcnow()
            quality = max(-3, min(3, before.quality + rating))
            after = before.with_changes(quality=quality, updated_at=now)
            conn.execute(
                "UPDATE memories SET quality = %s, updated_at = %s "
                "WHERE namespace = %s AND id = %s",
                (quality, now, namespace, memory_id),
            )
            conn.execute(
                "INSERT INTO memory_feedback_log(memory_id, namespace, rating, comment, "
                "created_at) VALUES (%s, %s, %s, %s, %s)",
                (memory_id, namespace, rating, comment, now),
            )
            with conn.cursor() as cur:
                self._write_history(
                    cur, [self._history_row(after, "feedback", before, after, None, comment, now)]
                )
        return before, after

    def feedback_log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
        """Feedback rows, oldest first: a labelled preference data set (seed 000)."""
        query = (
            "SELECT id, memory_id, rating, comment, created_at FROM memory_feedback_log "
            "WHERE namespace = %s"
        )
        params: list[Any] = [namespace]
        if memory_id is not None:
            query += " AND memory_id = %s"
            params.append(memory_id)
        with self._read() as conn:
            rows = conn.execute(query + " ORDER BY id", params).fetchall()
        return [
            {
                "id": int(r[0]),
                "memory_id": r[1],
                "rating": int(r[2]),
                "comment": r[3],
                "created_at": codec.iso(r[4]),
            }
            for r in rows
        ]

    def history(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """The audit trail of one memory, oldest first."""
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT {codec.HISTORY_COLUMNS} FROM memory_history "
                "WHERE namespace = %s AND memory_id = %s ORDER BY id",
                (namespace, memory_id),
            ).fetchall()
        return [codec.history_from_row(r) for r in rows]

    def namespaces(self) -> dict[str, int]:
        """Live memory counts per namespace."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT namespace, count(*) FROM memories WHERE deleted_at IS NULL "
                "GROUP BY namespace ORDER BY namespace"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    # -- keyword search -------------------------------------------------------------
    def keyword_search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """Live memories of ``namespace`` ranked by IDF-weighted ``ts_rank_cd`` (>= 0,
        higher is better); see ``engram.store.postgres.keyword``."""
        terms = [codec.check_text(t, "query") for t in match_terms(match)]
        if not terms or limit <= 0:
            return []
        with self._read("keyword search") as conn:
            cached = self._live_counts.get(namespace)
            now = time.monotonic()
            if cached is None or now - cached[0] > COUNT_TTL:
                # BM25's N: counting scans the namespace (60 ms at 100k), so an estimate
                # up to COUNT_TTL seconds old is used; IDF barely moves in that time.
                cached = (now, keyword.live_count(conn, namespace))
                self._live_counts[namespace] = cached
            return keyword.search(conn, namespace, terms, limit, cached[1])

    # -- vectors --------------------------------------------------------------------
    def ensure_vector_index(self, model: str, dim: int) -> str | None:
        """Create the HNSW index of (model, dim) if it does not exist; returns its name.

        Called when a Memory opens with an embedder and before the first vector of a
        model is written. None when the dimension is past what HNSW indexes (exact
        search then answers). The advisory lock keeps two processes from racing.
        """
        key = (model, int(dim))
        if key in self._indexes:
            return self._indexes[key]
        name: str | None = None
        if self.config.read_only:
            with self._read() as conn:
                found = conn.execute(
                    "SELECT index_name FROM vector_indexes WHERE model = %s AND dim = %s", key
                ).fetchone()
            name = None if found is None else str(found[0])
        elif 0 < dim <= HNSW_MAX_DIM:
            name = vector_index_name(model, dim)
            with self._tx("creating the vector index") as conn:
                found = conn.execute(
                    "SELECT index_name FROM vector_indexes WHERE model = %s AND dim = %s",
                    key,
                ).fetchone()
                if found is None:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (migrations.LOCK_KEY + 1,))
                    found = conn.execute(
                        "SELECT index_name FROM vector_indexes WHERE model = %s AND dim = %s",
                        key,
                    ).fetchone()
                if found is None:
                    conn.execute(
                        sql.SQL(
                            "CREATE INDEX IF NOT EXISTS {name} ON memory_vectors USING hnsw "
                            "((embedding::vector({dim})) vector_cosine_ops) "
                            "WITH (m = {m}, ef_construction = {efc}) "
                            "WHERE model = {model} AND dim = {dim}"
                        ).format(
                            name=sql.Identifier(name),
                            dim=sql.SQL(str(int(dim))),
                            m=sql.SQL(str(int(self.config.hnsw_m))),
                            efc=sql.SQL(str(int(self.config.hnsw_ef_construction))),
                            model=sql.Literal(model),
                        )
                    )
                    conn.execute(
                        "INSERT INTO vector_indexes(model, dim, index_name) VALUES (%s, %s, %s)",
                        (model, int(dim), name),
                    )
                else:
                    name = str(found[0])
        self._indexes[key] = name
        return name

    def put_vectors(self, rows: Iterable[VectorRow]) -> int:
        """Upsert vectors (one per memory) and return the vector epoch after the write."""
        params: list[tuple[Any, ...]] = []
        models: set[tuple[str, int]] = set()
        for row in rows:
            vector = np.ascontiguousarray(row.vector, dtype=np.float32).reshape(-1)
            models.add((row.model, int(vector.shape[0])))
            params.append(
                (
                    row.model,
                    int(vector.shape[0]),
                    row.content_hash,
                    row.content_hash,
                    vector,
                    row.memory_id,
                )
            )
        for model, dim in models:
            self.ensure_vector_index(model, dim)
        with self._tx("storing vectors") as conn:
            if params:
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
                    cur.executemany(
                        "UPDATE memories SET embedding_model = %s WHERE id = %s",
                        [(p[0], p[5]) for p in params],
                    )
            epoch = conn.execute(
                "SELECT value FROM engram_meta WHERE key = 'vector_epoch'"
            ).fetchone()
        return int(epoch[0]) if epoch else 0

    def load_vectors(self, namespace: str, model: str) -> NamespaceVectors:
        """Every live vector of ``namespace`` by ``model`` whose content is current."""
        with self._tx("loading vectors") as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
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
        matrix = np.stack([codec.vector_array(r[1]) for r in rows])
        return NamespaceVectors(ids=[r[0] for r in rows], matrix=matrix, epoch=epoch)

    def vector_epoch(self) -> int:
        """Changes whenever a vector is written or a memory's liveness or content changes."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT value FROM engram_meta WHERE key = 'vector_epoch'"
            ).fetchone()
        return int(row[0]) if row else 0

    def vector_dimensions(self) -> dict[str, int]:
        """Dimension per model among stored vectors."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT model, max(dim) FROM memory_vectors GROUP BY model"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    _MISSING = (
        " LEFT JOIN memory_vectors v ON v.memory_id = m.id "
        "WHERE m.deleted_at IS NULL AND (v.memory_id IS NULL OR v.model != %s "
        "OR v.content_hash != m.content_hash)"
    )

    def missing_vectors(
        self, model: str, *, limit: int, namespace: str | None = None
    ) -> list[MemoryRecord]:
        """Live memories with no vector by ``model``, or one made from older content."""
        query = codec.SELECT + self._MISSING
        params: list[Any] = [model]
        if namespace is not None:
            query += " AND m.namespace = %s"
            params.append(namespace)
        query += " ORDER BY m.seq LIMIT %s"
        params.append(limit)
        with self._read() as conn:
            return [codec.from_row(r) for r in conn.execute(query, params).fetchall()]

    def delete_vectors(self, model: str | None = None) -> int:
        """Drop vectors of one model (or all) so ``reindex`` can rebuild them."""
        with self._tx("deleting vectors") as conn:
            if model is None:
                cur = conn.execute("DELETE FROM memory_vectors")
            else:
                cur = conn.execute("DELETE FROM memory_vectors WHERE model = %s", (model,))
            return int(cur.rowcount)

    def vector_search(self, model: str, dimension: int) -> VectorSearch:
        """pgvector search in the database; creates the (model, dimension) HNSW index."""
        from engram.store.postgres.dense import PgVectorSearch

        self.ensure_vector_index(model, dimension)
        return PgVectorSearch(self, model, dimension)

    # -- bulk copy (export, import, migrate-store) ------------------------------------
    def export_bundles(
        self,
        *,
        after: str | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
        vectors: bool = False,
    ) -> list[MemoryBundle]:
        """Memories ordered by id after ``after``, with their history, feedback, vector."""
        from engram.store.postgres import bulk

        with self._tx("export") as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return bulk.export_bundles(
                conn, after=after, limit=limit, namespaces=namespaces, vectors=vectors
            )

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        """Insert bundles not stored yet, in one transaction."""
        from engram.store.postgres import bulk

        for model, dim in {
            (b.vector.model, int(np.asarray(b.vector.vector).reshape(-1).shape[0]))
            for b in bundles
            if b.vector is not None
        }:
            self.ensure_vector_index(model, dim)
        with self._tx("import") as conn:
            return bulk.import_bundles(conn, bundles)

    def export_transcripts(
        self,
        *,
        after: tuple[str, str] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TranscriptRow]:
        """Transcripts ordered by (namespace, session_key) after ``after``."""
        from engram.store.postgres import bulk

        with self._tx("export") as conn:
            return bulk.export_transcripts(conn, after=after, limit=limit, namespaces=namespaces)

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        """Insert transcripts not stored yet, in one transaction."""
        from engram.store.postgres import bulk

        with self._tx("importing transcripts") as conn:
            return bulk.import_transcripts(conn, rows)

    # -- housekeeping ---------------------------------------------------------------
    def stats(self, model: str | None) -> StoreStats:
        """Counts for ``doctor``."""
        with self._read() as conn:
            tomb_row = conn.execute(
                "SELECT count(*) FROM memories WHERE deleted_at IS NOT NULL"
            ).fetchone()
            vectors = {
                r[0]: int(r[1])
                for r in conn.execute(
                    "SELECT model, count(*) FROM memory_vectors GROUP BY model"
                ).fetchall()
            }
            missing = 0
            if model is not None:
                row = conn.execute(
                    "SELECT count(*) FROM memories m" + self._MISSING, (model,)
                ).fetchone()
                missing = int(row[0]) if row else 0
        return StoreStats(
            memories=self.namespaces(),
            tombstoned=int(tomb_row[0]) if tomb_row else 0,
            vectors=vectors,
            missing_vectors=missing,
            schema_version=self.schema_version(),
            location=self.location,
        )


def _metadata_clause(key: str, value: Any) -> tuple[str, list[Any]]:
    """A filter on one metadata key with SQLite's ``json_extract(...) IS ?`` semantics.

    json_extract yields SQL values: JSON strings as text, numbers as numbers, true/false
    as 1/0, null or a missing key as NULL; ``IS`` compares them without coercion between
    text and numbers.
    """
    codec.check_text(key, "metadata key")
    path = "(m.metadata -> %s)"
    kind = f"json_typeof{path}"
    if value is None:
        return f"({path} IS NULL OR {kind} = 'null')", [key, key]
    if isinstance(value, str):
        codec.check_text(value, "metadata value")
        return f"({kind} = 'string' AND (m.metadata ->> %s) = %s)", [key, key, value]
    if isinstance(value, bool | int | float):
        number = (
            f"(CASE {kind} WHEN 'number' THEN (m.metadata ->> %s)::numeric "
            f"WHEN 'boolean' THEN CASE WHEN (m.metadata ->> %s) = 'true' THEN 1 ELSE 0 END "
            "END)"
        )
        return f"{number} = %s::numeric", [
            key,
            key,
            key,
            int(value) if isinstance(value, bool) else value,
        ]
    raise StoreError(
        f"metadata filter {key!r} must be a string, number, boolean or None, "
        f"got {type(value).__name__}"
    )

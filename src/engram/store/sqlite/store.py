"""The default store: one SQLite file in WAL mode (FEATURES C3).

All SQL lives in this package. Each public method is one short transaction guarded by a
lock, so a ``Memory`` may be shared between threads (``AsyncMemory`` runs calls on a
thread pool). Vectors are float32 BLOBs; the searchable matrix is derived from them by
``engram.vectors``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from engram.errors import (
    InvalidInputError,
    NotFoundError,
    StoreClosedError,
    StoreError,
)
from engram.records import (
    HistoryEntry,
    MemoryRecord,
    utcnow,
)
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
from engram.store.sqlite import fts, migrations
from engram.store.sqlite.codec import (
    COLUMNS,
    SELECT,
    audit,
    encode,
    from_row,
    to_row,
    ts,
)
from engram.store.sqlite.keys import KeysMixin
from engram.text import normalize_content


class SQLiteStore(KeysMixin):
    """The SQLite implementation of :class:`engram.store.Store`."""

    def __init__(self, path: str | Path = ":memory:", *, busy_timeout_ms: int = 5000) -> None:
        self.location = str(path)
        if self.location != ":memory:":
            # "~/engram.db" is a path in the home directory, not a "~" directory here
            self.location = str(Path(self.location).expanduser())
            Path(self.location).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(
                self.location, isolation_level=None, check_same_thread=False, timeout=30
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store at {self.location}: {exc}") from exc
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if self.location != ":memory:":
                self._conn.execute("PRAGMA journal_mode = WAL")
                # WAL makes NORMAL durable across application crashes (SQLite docs).
                self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            migrations.migrate(self._conn)
        except BaseException as exc:
            # A store that failed to open must not keep the file open (and locked).
            self._conn.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open SQLite store at {self.location}: {exc}") from exc
            raise
        self._lock = threading.RLock()
        self._closed = False
        # A second connection for keyword search on file stores, so recall can rank
        # keywords while the main connection serves the vector side (WAL lets readers
        # run beside each other and beside the writer). An in-memory database exists
        # only in its one connection.
        self._search_conn = self._conn
        self._search_lock = self._lock
        if self.location != ":memory:":
            try:
                self._search_conn = sqlite3.connect(
                    self.location, isolation_level=None, check_same_thread=False, timeout=30
                )
                self._search_conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            except sqlite3.Error as exc:
                self._conn.close()
                raise StoreError(f"cannot open SQLite store at {self.location}: {exc}") from exc
            self._search_lock = threading.RLock()

    # -- plumbing -------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._check_open()
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot start a write transaction: {exc}") from exc
            try:
                yield self._conn
                # Keyword indexes are per namespace; triggers queue the changes.
                fts.flush(self._conn)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._conn.execute("ROLLBACK")
                raise StoreError(f"commit failed: {exc}") from exc

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._check_open()
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise StoreError(f"read failed: {exc}") from exc

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosedError("this store is closed; open a new Memory to keep working")

    @property
    def closed(self) -> bool:
        """True after ``close``."""
        return self._closed

    def close(self) -> None:
        """Close the connections; idempotent."""
        with self._lock, self._search_lock:
            if not self._closed:
                self._closed = True
                if self._search_conn is not self._conn:
                    self._search_conn.close()
                self._conn.close()

    def schema_version(self) -> str:
        """The newest applied migration."""
        with self._read() as conn:
            return migrations.current_version(conn)

    # -- memories -------------------------------------------------------------------
    def insert(
        self, records: Sequence[MemoryRecord], *, actor: str | None = None
    ) -> list[InsertResult]:
        """Insert records in one transaction; exact duplicates return the existing memory."""
        results: list[InsertResult] = []
        now = ts(utcnow())
        try:
            with self._tx() as conn:
                for record in records:
                    existing = conn.execute(
                        SELECT + " WHERE m.namespace = ? AND m.content_hash = ? "
                        "AND m.deleted_at IS NULL",
                        (record.namespace, record.content_hash),
                    ).fetchone()
                    if existing is not None:
                        found = from_row(existing)
                        self._history(
                            conn,
                            found,
                            "dedup",
                            None,
                            None,
                            actor,
                            "identical content already stored",
                            now,
                        )
                        results.append(InsertResult(found, created=False))
                        continue
                    normalized = normalize_content(record.content).normalized
                    placeholders = ", ".join("?" for _ in COLUMNS)
                    conn.execute(
                        f"INSERT INTO memories ({', '.join(COLUMNS)}) VALUES ({placeholders})",
                        to_row(record, normalized),
                    )
                    self._history(conn, record, "create", None, record, actor, None, now)
                    results.append(InsertResult(record, created=True))
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"cannot insert memory: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"insert failed: {exc}") from exc
        return results

    def _history(
        self,
        conn: sqlite3.Connection,
        record: MemoryRecord,
        event: str,
        before: MemoryRecord | None,
        after: MemoryRecord | None,
        actor: str | None,
        reason: str | None,
        now: str,
    ) -> None:
        conn.execute(
            "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
            "reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (record.id, record.namespace, event, audit(before), audit(after), actor, reason, now),
        )

    def get(
        self, namespace: str, memory_id: str, *, include_deleted: bool = False
    ) -> MemoryRecord | None:
        """One memory of ``namespace``, or None."""
        sql = SELECT + " WHERE m.namespace = ? AND m.id = ?"
        if not include_deleted:
            sql += " AND m.deleted_at IS NULL"
        with self._read() as conn:
            row = conn.execute(sql, (namespace, memory_id)).fetchone()
        return None if row is None else from_row(row)

    def get_many(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Live memories of ``namespace`` by id; unknown ids are left out."""
        out: dict[str, MemoryRecord] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._read() as conn:
            # Stay well under SQLite's bound-parameter limit.
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                rows = conn.execute(
                    # ``+m.namespace`` keeps SQLite on the unique id index; with the
                    # namespace index it would scan the whole namespace (10x slower).
                    SELECT + f" WHERE +m.namespace = ? AND m.deleted_at IS NULL "
                    f"AND m.id IN ({marks})",
                    (namespace, *chunk),
                ).fetchall()
                for row in rows:
                    record = from_row(row)
                    out[record.id] = record
        return out

    def list_memories(self, namespace: str, query: ListQuery) -> list[MemoryRecord]:
        """Memories of ``namespace`` matching every filter in ``query``."""
        where = ["m.namespace = ?"]
        params: list[Any] = [namespace]
        if not query.include_deleted:
            where.append("m.deleted_at IS NULL")
        for column in ("type", "category", "user_id", "agent_id", "run_id", "session_id"):
            value = getattr(query, column)
            if value is not None:
                where.append(f"m.{column} = ?")
                params.append(str(value))
        for tag in query.tags:
            where.append("EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = ?)")
            params.append(tag)
        for key, value in query.metadata.items():
            path = '$."' + str(key).replace('"', '""') + '"'
            where.append("json_extract(m.metadata, ?) IS ?")
            params.extend([path, int(value) if isinstance(value, bool) else value])
        if query.min_quality is not None:
            where.append("m.quality >= ?")
            params.append(query.min_quality)
        if query.max_quality is not None:
            where.append("m.quality <= ?")
            params.append(query.max_quality)
        if query.created_after is not None:
            where.append("m.created_at >= ?")
            params.append(ts(query.created_after))
        if query.created_before is not None:
            where.append("m.created_at < ?")
            params.append(ts(query.created_before))
        order = "DESC" if query.newest_first else "ASC"
        sql = (
            SELECT
            + " WHERE "
            + " AND ".join(where)
            + f" ORDER BY m.created_at {order}, m.seq {order} LIMIT ? OFFSET ?"
        )
        params.extend([query.limit, query.offset])
        with self._read() as conn:
            return [from_row(r) for r in conn.execute(sql, params).fetchall()]

    def count(self, namespace: str, *, include_deleted: bool = False) -> int:
        """How many memories ``namespace`` holds."""
        sql = "SELECT count(*) FROM memories WHERE namespace = ?"
        if not include_deleted:
            sql += " AND deleted_at IS NULL"
        with self._read() as conn:
            return int(conn.execute(sql, (namespace,)).fetchone()[0])

    def session_members(
        self, namespace: str, memory_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        """Live members of the sessions of ``memory_ids``, oldest first; sessions with
        more than ``max_members`` live members are left out."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        sessions: set[str] = set()
        with self._read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                sessions.update(
                    row[0]
                    for row in conn.execute(
                        "SELECT DISTINCT session_id FROM memories WHERE +namespace = ? "
                        f"AND id IN ({marks}) AND session_id IS NOT NULL",
                        (namespace, *chunk),
                    )
                )
            if not sessions:
                return {}
            wanted = sorted(sessions)
            marks = ", ".join("?" for _ in wanted)
            sizes = dict(
                conn.execute(
                    "SELECT session_id, count(*) FROM memories WHERE namespace = ? "
                    f"AND session_id IN ({marks}) AND deleted_at IS NULL GROUP BY session_id",
                    (namespace, *wanted),
                ).fetchall()
            )
            small = [sid for sid in wanted if 0 < sizes.get(sid, 0) <= max_members]
            out: dict[str, list[str]] = {sid: [] for sid in small}
            if small:
                marks = ", ".join("?" for _ in small)
                for session, memory_id in conn.execute(
                    "SELECT session_id, id FROM memories WHERE namespace = ? "
                    f"AND session_id IN ({marks}) AND deleted_at IS NULL "
                    "ORDER BY session_id, created_at, seq",
                    (namespace, *small),
                ):
                    out[session].append(memory_id)
        return out

    def timestamps(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, datetime]:
        """``created_at`` of live memories of ``namespace`` by id."""
        ids = list(dict.fromkeys(memory_ids))
        out: dict[str, datetime] = {}
        with self._read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                for memory_id, created in conn.execute(
                    "SELECT id, created_at FROM memories WHERE +namespace = ? "
                    f"AND deleted_at IS NULL AND id IN ({marks})",
                    (namespace, *chunk),
                ):
                    out[memory_id] = datetime.fromisoformat(created)
        return out

    def recent(self, namespace: str, limit: int) -> list[MemoryRecord]:
        """The newest live memories of ``namespace``."""
        return self.list_memories(namespace, ListQuery(limit=limit))

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
        try:
            with self._tx() as conn:
                before = self._live(conn, namespace, memory_id)
                values, after = schema.planned_update(before, changes)
                if after.content_hash != before.content_hash:
                    clash = conn.execute(
                        "SELECT id FROM memories WHERE namespace = ? AND content_hash = ? "
                        "AND deleted_at IS NULL AND id != ?",
                        (namespace, after.content_hash, memory_id),
                    ).fetchone()
                    if clash is not None:
                        raise schema.content_clash(clash[0])
                sets = ", ".join(f"{c} = ?" for c in values)
                params = [
                    v if c == "normalized" else encode(c, getattr(after, c))
                    for c, v in values.items()
                ]
                conn.execute(
                    f"UPDATE memories SET {sets} WHERE namespace = ? AND id = ?",
                    (*params, namespace, memory_id),
                )
                self._history(conn, after, event, before, after, actor, reason, ts(utcnow()))
        except sqlite3.Error as exc:
            raise StoreError(f"update failed: {exc}") from exc
        return before, after

    def _live(self, conn: sqlite3.Connection, namespace: str, memory_id: str) -> MemoryRecord:
        row = conn.execute(
            SELECT + " WHERE m.namespace = ? AND m.id = ? AND m.deleted_at IS NULL",
            (namespace, memory_id),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
        return from_row(row)

    def delete(self, namespace: str, memory_id: str, *, actor: str | None = None) -> MemoryRecord:
        """Tombstone a memory; it disappears from search, list and recall."""
        try:
            with self._tx() as conn:
                before = self._live(conn, namespace, memory_id)
                now = utcnow()
                after = before.with_changes(deleted_at=now, updated_at=now)
                conn.execute(
                    "UPDATE memories SET deleted_at = ?, updated_at = ? "
                    "WHERE namespace = ? AND id = ?",
                    (ts(now), ts(now), namespace, memory_id),
                )
                self._history(conn, after, "delete", before, after, actor, None, ts(now))
        except sqlite3.Error as exc:
            raise StoreError(f"delete failed: {exc}") from exc
        return after

    def purge(self, namespace: str | None = None) -> int:
        """Hard-delete tombstoned memories with their vectors, history and feedback."""
        where = "deleted_at IS NOT NULL" + ("" if namespace is None else " AND namespace = ?")
        params: tuple[Any, ...] = () if namespace is None else (namespace,)
        try:
            with self._tx() as conn:
                ids = [r[0] for r in conn.execute(f"SELECT id FROM memories WHERE {where}", params)]
                for start in range(0, len(ids), 500):
                    chunk = ids[start : start + 500]
                    marks = ", ".join("?" for _ in chunk)
                    conn.execute(f"DELETE FROM memory_history WHERE memory_id IN ({marks})", chunk)
                    conn.execute(
                        f"DELETE FROM memory_feedback_log WHERE memory_id IN ({marks})", chunk
                    )
                conn.execute(f"DELETE FROM memories WHERE {where}", params)
        except sqlite3.Error as exc:
            raise StoreError(f"purge failed: {exc}") from exc
        return len(ids)

    def record_feedback(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """seed 000: quality += rating, clamped to [-3, +3]; the rating is logged."""
        try:
            with self._tx() as conn:
                before = self._live(conn, namespace, memory_id)
                now = utcnow()
                quality = max(-3, min(3, before.quality + rating))
                after = before.with_changes(quality=quality, updated_at=now)
                conn.execute(
                    "UPDATE memories SET quality = ?, updated_at = ? "
                    "WHERE namespace = ? AND id = ?",
                    (quality, ts(now), namespace, memory_id),
                )
                conn.execute(
                    "INSERT INTO memory_feedback_log(memory_id, namespace, rating, comment, "
                    "created_at) VALUES (?, ?, ?, ?, ?)",
                    (memory_id, namespace, rating, comment, ts(now)),
                )
                self._history(conn, after, "feedback", before, after, None, comment, ts(now))
        except sqlite3.Error as exc:
            raise StoreError(f"feedback failed: {exc}") from exc
        return before, after

    def feedback_log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
        """Feedback rows, oldest first: a labelled preference data set (seed 000)."""
        sql = (
            "SELECT id, memory_id, rating, comment, created_at FROM memory_feedback_log "
            "WHERE namespace = ?"
        )
        params: list[Any] = [namespace]
        if memory_id is not None:
            sql += " AND memory_id = ?"
            params.append(memory_id)
        with self._read() as conn:
            rows = conn.execute(sql + " ORDER BY id", params).fetchall()
        return [
            {"id": r[0], "memory_id": r[1], "rating": r[2], "comment": r[3], "created_at": r[4]}
            for r in rows
        ]

    def history(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """The audit trail of one memory, oldest first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT id, memory_id, namespace, event, before, after, actor, reason, "
                "created_at FROM memory_history WHERE namespace = ? AND memory_id = ? "
                "ORDER BY id",
                (namespace, memory_id),
            ).fetchall()
        return [
            HistoryEntry(
                id=r[0],
                memory_id=r[1],
                namespace=r[2],
                event=r[3],
                before=None if r[4] is None else json.loads(r[4]),
                after=None if r[5] is None else json.loads(r[5]),
                actor=r[6],
                reason=r[7],
                created_at=datetime.fromisoformat(r[8]),
            )
            for r in rows
        ]

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
        """BM25-ranked live memories of ``namespace`` (its own FTS5 index); relevance is
        ``-bm25()`` (>= 0)."""
        with self._search_lock:
            self._check_open()
            try:
                return fts.search(self._search_conn, namespace, match, limit)
            except sqlite3.Error as exc:
                raise StoreError(f"keyword search failed: {exc}") from exc

    # -- vectors --------------------------------------------------------------------
    def put_vectors(self, rows: Iterable[VectorRow]) -> int:
        """Upsert vectors (one per memory) and return the vector epoch after the write."""
        try:
            with self._tx() as conn:
                for row in rows:
                    found = conn.execute(
                        "SELECT seq FROM memories WHERE id = ?", (row.memory_id,)
                    ).fetchone()
                    if found is None:
                        continue  # deleted and purged while it was being embedded
                    vector = np.ascontiguousarray(row.vector, dtype=np.float32)
                    conn.execute(
                        "INSERT INTO memory_vectors(memory_seq, model, dim, content_hash, vector) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(memory_seq) DO UPDATE SET "
                        "model = excluded.model, dim = excluded.dim, "
                        "content_hash = excluded.content_hash, vector = excluded.vector",
                        (
                            found[0],
                            row.model,
                            int(vector.shape[0]),
                            row.content_hash,
                            vector.tobytes(),
                        ),
                    )
                    conn.execute(
                        "UPDATE memories SET embedding_model = ? WHERE seq = ?",
                        (row.model, found[0]),
                    )
                epoch = int(
                    conn.execute(
                        "SELECT value FROM engram_meta WHERE key = 'vector_epoch'"
                    ).fetchone()[0]
                )
        except sqlite3.Error as exc:
            raise StoreError(f"storing vectors failed: {exc}") from exc
        return epoch

    def load_vectors(self, namespace: str, model: str) -> NamespaceVectors:
        """Every live vector of ``namespace`` by ``model`` whose content is current."""
        with self._read() as conn:
            conn.execute("BEGIN")  # one snapshot for the rows and the epoch
            try:
                rows = conn.execute(
                    "SELECT m.id, v.vector, v.dim FROM memory_vectors v JOIN memories m "
                    "ON m.seq = v.memory_seq WHERE m.namespace = ? AND m.deleted_at IS NULL "
                    "AND v.model = ? AND v.content_hash = m.content_hash ORDER BY m.seq",
                    (namespace, model),
                ).fetchall()
                epoch = int(
                    conn.execute(
                        "SELECT value FROM engram_meta WHERE key = 'vector_epoch'"
                    ).fetchone()[0]
                )
            finally:
                conn.execute("COMMIT")
        if not rows:
            return NamespaceVectors(ids=[], matrix=np.zeros((0, 0), np.float32), epoch=epoch)
        dim = int(rows[0][2])
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(-1, dim)
        return NamespaceVectors(ids=[r[0] for r in rows], matrix=matrix.copy(), epoch=epoch)

    def vector_epoch(self) -> int:
        """Changes whenever a vector is written or a memory's liveness or content changes."""
        with self._read() as conn:
            return int(
                conn.execute("SELECT value FROM engram_meta WHERE key = 'vector_epoch'").fetchone()[
                    0
                ]
            )

    def vector_dimensions(self) -> dict[str, int]:
        """Dimension per model among stored vectors."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT model, min(dim), max(dim) FROM memory_vectors GROUP BY model"
            ).fetchall()
        return {r[0]: int(r[2]) for r in rows}

    def missing_vectors(
        self, model: str, *, limit: int, namespace: str | None = None
    ) -> list[MemoryRecord]:
        """Live memories with no vector by ``model``, or one made from older content."""
        sql = (
            SELECT + " LEFT JOIN memory_vectors v ON v.memory_seq = m.seq "
            "WHERE m.deleted_at IS NULL AND (v.memory_seq IS NULL OR v.model != ? "
            "OR v.content_hash != m.content_hash)"
        )
        params: list[Any] = [model]
        if namespace is not None:
            sql += " AND m.namespace = ?"
            params.append(namespace)
        sql += " ORDER BY m.seq LIMIT ?"
        params.append(limit)
        with self._read() as conn:
            return [from_row(r) for r in conn.execute(sql, params).fetchall()]

    def delete_vectors(self, model: str | None = None) -> int:
        """Drop vectors of one model (or all) so ``reindex`` can rebuild them."""
        try:
            with self._tx() as conn:
                if model is None:
                    cur = conn.execute("DELETE FROM memory_vectors")
                else:
                    cur = conn.execute("DELETE FROM memory_vectors WHERE model = ?", (model,))
                return int(cur.rowcount)
        except sqlite3.Error as exc:
            raise StoreError(f"deleting vectors failed: {exc}") from exc

    def vector_search(self, model: str, dimension: int) -> VectorSearch:
        """An exact in-memory index derived from this store's vector rows."""
        from engram.vectors import VectorIndex  # engram.vectors imports the store protocol

        return VectorIndex(self, model, dimension)

    # -- session transcripts (seed 004) ---------------------------------------------
    def put_transcript(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        """INSERT OR IGNORE one transcript per (namespace, session key); True if stored."""
        try:
            with self._tx() as conn:
                cur = conn.execute(
                    "INSERT OR IGNORE INTO session_transcripts(namespace, session_key, content, "
                    "agent_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    (namespace, session_key, content, agent_id, ts(utcnow())),
                )
                return cur.rowcount == 1
        except sqlite3.Error as exc:
            raise StoreError(f"storing the transcript failed: {exc}") from exc

    def transcripts(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        """Transcripts of ``namespace`` by session key, looked up in one batch."""
        keys = list(dict.fromkeys(session_keys))
        out: dict[str, str] = {}
        with self._read() as conn:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                rows = conn.execute(
                    "SELECT session_key, content FROM session_transcripts "
                    f"WHERE namespace = ? AND session_key IN ({marks})",
                    (namespace, *chunk),
                ).fetchall()
                out.update({r[0]: r[1] for r in rows})
        return out

    # -- bulk copy (export, import, migrate-store) ------------------------------------
    # The SQL lives in ``bulk``, imported here on use because it reuses this module's
    # row codec.
    def export_bundles(
        self,
        *,
        after: str | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
        vectors: bool = False,
    ) -> list[MemoryBundle]:
        """Memories ordered by id after ``after``, with their history, feedback, vector."""
        from engram.store.sqlite import bulk

        with self._read() as conn:
            return bulk.export_bundles(
                conn, after=after, limit=limit, namespaces=namespaces, vectors=vectors
            )

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        """Insert bundles not stored yet, in one transaction."""
        from engram.store.sqlite import bulk

        try:
            with self._tx() as conn:
                return bulk.import_bundles(conn, bundles)
        except sqlite3.Error as exc:
            raise StoreError(f"import failed: {exc}") from exc

    def export_transcripts(
        self,
        *,
        after: tuple[str, str] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TranscriptRow]:
        """Transcripts ordered by (namespace, session_key) after ``after``."""
        from engram.store.sqlite import bulk

        with self._read() as conn:
            return bulk.export_transcripts(conn, after=after, limit=limit, namespaces=namespaces)

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        """Insert transcripts not stored yet, in one transaction."""
        from engram.store.sqlite import bulk

        try:
            with self._tx() as conn:
                return bulk.import_transcripts(conn, rows)
        except sqlite3.Error as exc:
            raise StoreError(f"importing transcripts failed: {exc}") from exc

    # -- housekeeping ---------------------------------------------------------------
    def stats(self, model: str | None) -> StoreStats:
        """Counts for ``doctor``."""
        with self._read() as conn:
            tomb = int(
                conn.execute(
                    "SELECT count(*) FROM memories WHERE deleted_at IS NOT NULL"
                ).fetchone()[0]
            )
            vectors = {
                r[0]: int(r[1])
                for r in conn.execute("SELECT model, count(*) FROM memory_vectors GROUP BY model")
            }
            version = migrations.current_version(conn)
        missing = 0
        if model is not None:
            missing = len(self.missing_vectors(model, limit=10_000_000))
        return StoreStats(
            memories=self.namespaces(),
            tombstoned=tomb,
            vectors=vectors,
            missing_vectors=missing,
            schema_version=version,
            location=self.location,
        )

"""Bulk copy in the SQLite store: export and import of memory bundles and transcripts.

The row codec (columns, JSON and time encoding) is the memories part's, so a bundle
leaves and enters the database exactly as ``insert`` and ``get`` write and read it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from engram.errors import InvalidInputError, StoreError
from engram.records import HistoryEntry
from engram.store import schema
from engram.store.protocols.feedback import FeedbackRow
from engram.store.protocols.transcripts import TranscriptRow
from engram.store.protocols.transfer import ImportCounts, MemoryBundle
from engram.store.protocols.vectors import VectorRow
from engram.store.sqlite.codec import (
    HISTORY_COLUMNS,
    INSERT,
    SELECT,
    from_row,
    history_from_row,
    to_row,
    ts,
)
from engram.store.sqlite.db import Database
from engram.text import normalize_content

# Stay well under SQLite's bound-parameter limit.
_CHUNK = 500


def _in(column: str, count: int) -> str:
    return f"{column} IN ({', '.join('?' for _ in range(count))})"


def export_bundles(
    conn: sqlite3.Connection,
    *,
    after: str | None,
    limit: int,
    namespaces: Sequence[str] | None,
    vectors: bool,
) -> list[MemoryBundle]:
    """One page of bundles ordered by memory id (the caller holds one snapshot)."""
    where: list[str] = []
    params: list[Any] = []
    if after is not None:
        where.append("m.id > ?")
        params.append(after)
    if namespaces is not None:
        if not namespaces:
            return []
        where.append(_in("m.namespace", len(namespaces)))
        params.extend(namespaces)
    sql = SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY m.id LIMIT ?"
    params.append(limit)
    records = [from_row(r) for r in conn.execute(sql, params).fetchall()]
    ids = [r.id for r in records]
    history = _history(conn, ids)
    feedback = _feedback(conn, ids)
    vector_rows = _vectors(conn, ids) if vectors else {}
    return [
        MemoryBundle(
            record=r,
            history=tuple(history.get(r.id, ())),
            feedback=tuple(feedback.get(r.id, ())),
            vector=vector_rows.get(r.id),
        )
        for r in records
    ]


def _history(conn: sqlite3.Connection, ids: list[str]) -> dict[str, list[HistoryEntry]]:
    out: dict[str, list[HistoryEntry]] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        rows = conn.execute(
            f"SELECT {HISTORY_COLUMNS} FROM memory_history "
            f"WHERE {_in('memory_id', len(chunk))} ORDER BY id",
            chunk,
        ).fetchall()
        for r in rows:
            out.setdefault(r[1], []).append(history_from_row(r))
    return out


def _feedback(conn: sqlite3.Connection, ids: list[str]) -> dict[str, list[FeedbackRow]]:
    out: dict[str, list[FeedbackRow]] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        rows = conn.execute(
            "SELECT id, memory_id, namespace, rating, comment, created_at "
            f"FROM memory_feedback_log WHERE {_in('memory_id', len(chunk))} ORDER BY id",
            chunk,
        ).fetchall()
        for r in rows:
            out.setdefault(r[1], []).append(
                FeedbackRow(
                    id=r[0],
                    memory_id=r[1],
                    namespace=r[2],
                    rating=int(r[3]),
                    comment=r[4],
                    created_at=datetime.fromisoformat(r[5]),
                )
            )
    return out


def _vectors(conn: sqlite3.Connection, ids: list[str]) -> dict[str, VectorRow]:
    out: dict[str, VectorRow] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        rows = conn.execute(
            "SELECT m.id, v.model, v.dim, v.content_hash, v.vector FROM memory_vectors v "
            f"JOIN memories m ON m.seq = v.memory_seq WHERE {_in('m.id', len(chunk))}",
            chunk,
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


def import_bundles(conn: sqlite3.Connection, bundles: Sequence[MemoryBundle]) -> ImportCounts:
    """Insert bundles inside the caller's transaction; see ``TransferStore``."""
    memories = existing = duplicates = history = feedback = vectors = 0
    for bundle in bundles:
        record = schema.imported_record(bundle)
        _check_bundle(bundle)
        if conn.execute("SELECT 1 FROM memories WHERE id = ?", (record.id,)).fetchone():
            existing += 1
            continue
        if (
            record.deleted_at is None
            and conn.execute(
                "SELECT 1 FROM memories WHERE namespace = ? AND content_hash = ? "
                "AND deleted_at IS NULL",
                (record.namespace, record.content_hash),
            ).fetchone()
        ):
            duplicates += 1
            continue
        normalized = normalize_content(record.content).normalized
        seq = conn.execute(INSERT, to_row(record, normalized)).lastrowid
        memories += 1
        for entry in bundle.history:
            conn.execute(
                "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
                "reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.namespace,
                    entry.event,
                    _json(entry.before),
                    _json(entry.after),
                    entry.actor,
                    entry.reason,
                    ts(entry.created_at),
                ),
            )
            history += 1
        for row in bundle.feedback:
            conn.execute(
                "INSERT INTO memory_feedback_log(memory_id, namespace, rating, comment, "
                "created_at) VALUES (?, ?, ?, ?, ?)",
                (record.id, record.namespace, row.rating, row.comment, ts(row.created_at)),
            )
            feedback += 1
        if bundle.vector is not None:
            vector = np.ascontiguousarray(bundle.vector.vector, dtype=np.float32)
            conn.execute(
                "INSERT INTO memory_vectors(memory_seq, model, dim, content_hash, vector) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    seq,
                    bundle.vector.model,
                    int(vector.shape[0]),
                    bundle.vector.content_hash,
                    vector.tobytes(),
                ),
            )
            vectors += 1
    return ImportCounts(
        memories=memories,
        existing=existing,
        duplicates=duplicates,
        history=history,
        feedback=feedback,
        vectors=vectors,
    )


def _check_bundle(bundle: MemoryBundle) -> None:
    memory_id = bundle.record.id
    rows: list[HistoryEntry | FeedbackRow | VectorRow] = [*bundle.history, *bundle.feedback]
    if bundle.vector is not None:
        rows.append(bundle.vector)
    for row in rows:
        if row.memory_id != memory_id:
            raise InvalidInputError(
                f"a {type(row).__name__} of memory {row.memory_id} is bundled with memory "
                f"{memory_id}"
            )


def _json(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def export_transcripts(
    conn: sqlite3.Connection,
    *,
    after: tuple[str, str] | None,
    limit: int,
    namespaces: Sequence[str] | None,
) -> list[TranscriptRow]:
    """One page of transcripts ordered by (namespace, session_key)."""
    where: list[str] = []
    params: list[Any] = []
    if after is not None:
        where.append("(namespace, session_key) > (?, ?)")
        params.extend(after)
    if namespaces is not None:
        if not namespaces:
            return []
        where.append(_in("namespace", len(namespaces)))
        params.extend(namespaces)
    sql = (
        "SELECT namespace, session_key, content, agent_id, created_at FROM session_transcripts"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY namespace, session_key LIMIT ?"
    )
    params.append(limit)
    return [
        TranscriptRow(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]))
        for r in conn.execute(sql, params).fetchall()
    ]


def import_transcripts(conn: sqlite3.Connection, rows: Sequence[TranscriptRow]) -> ImportCounts:
    """INSERT OR IGNORE transcripts inside the caller's transaction."""
    stored = 0
    for row in rows:
        cur = conn.execute(
            "INSERT OR IGNORE INTO session_transcripts(namespace, session_key, content, "
            "agent_id, created_at) VALUES (?, ?, ?, ?, ?)",
            (row.namespace, row.session_key, row.content, row.agent_id, ts(row.created_at)),
        )
        stored += cur.rowcount
    return ImportCounts(transcripts=stored, existing=len(rows) - stored)


class SQLiteTransfer:
    """The SQLite implementation of ``TransferStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def export_bundles(
        self,
        *,
        after: str | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
        vectors: bool = False,
    ) -> list[MemoryBundle]:
        """Memories ordered by id after ``after``, with their history, feedback, vector."""
        with self._db.snapshot("export") as conn:
            return export_bundles(
                conn, after=after, limit=limit, namespaces=namespaces, vectors=vectors
            )

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        """Insert bundles not stored yet, in one transaction."""
        try:
            with self._db.tx() as conn:
                return import_bundles(conn, bundles)
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
        with self._db.read("export") as conn:
            return export_transcripts(conn, after=after, limit=limit, namespaces=namespaces)

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        """Insert transcripts not stored yet, in one transaction."""
        try:
            with self._db.tx() as conn:
                return import_transcripts(conn, rows)
        except sqlite3.Error as exc:
            raise StoreError(f"importing transcripts failed: {exc}") from exc

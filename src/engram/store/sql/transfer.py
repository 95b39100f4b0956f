"""Bulk copy: export and import of memory bundles and transcripts, on either engine.

The row codec is the memories part's (``engram.store.sql.codec``), so a bundle leaves
and enters the database exactly as ``insert`` and ``get`` write and read it. Only the
vector rows stay native (``BundleVectors``): SQLite keeps float32 BLOBs keyed by the
memory's ``seq``, PostgreSQL pgvector values keyed by its id, with a ``live`` flag and
an HNSW index per model and dimension.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engram.errors import InvalidInputError
from engram.records import HistoryEntry
from engram.store import schema
from engram.store.protocols import TransferStore
from engram.store.protocols.feedback import FeedbackRow
from engram.store.protocols.transcripts import TranscriptRow
from engram.store.protocols.transfer import ImportCounts, MemoryBundle
from engram.store.protocols.vectors import VectorRow
from engram.store.sql.codec import HISTORY_COLUMNS, SELECT, from_row, insert_sql
from engram.store.sql.codec import to_row as memory_row
from engram.store.sql.dialect import Conn, Dialect, dumps
from engram.store.sql.history import write_history
from engram.store.sql.rows import columns, record
from engram.store.sql.session import Sql, SqlPart
from engram.text import normalize_content

_FEEDBACK = columns(FeedbackRow)


class BundleVectors(Protocol):
    """How one engine stores a memory's vector, for bulk copy (the backend's vectors
    module provides it)."""

    def prepare(self, vectors: Sequence[VectorRow]) -> None:
        """Before an import's transaction: what its vectors need (PostgreSQL creates the
        HNSW index of each model and dimension)."""
        ...

    def read(self, conn: Conn, memory_ids: Sequence[str]) -> dict[str, VectorRow]:
        """The vectors of ``memory_ids`` (a slice of ``d.chunks``), by memory id."""
        ...

    def write(self, conn: Conn, vectors: Sequence[VectorRow]) -> None:
        """Insert the vectors of memories this transaction has just inserted."""
        ...


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
    return None if value is None else dumps(value)


def _page(
    d: Dialect,
    past: str,
    after: Sequence[Any] | None,
    column: str,
    namespaces: Sequence[str] | None,
) -> tuple[str, list[Any]] | None:
    """An export page's WHERE and parameters: rows ``past`` the last key of the page
    before (``after``), of ``namespaces`` when given; None when that is none at all."""
    if namespaces is not None and not namespaces:
        return None
    where, params = [], list(after or ())
    if after is not None:
        where.append(past)
    if namespaces is not None:
        clause, values = d.one_of(column, namespaces)
        where.append(clause)
        params.extend(values)
    return " AND ".join(where) or "TRUE", params


class SqlTransfer(SqlPart, TransferStore):
    """``TransferStore`` on either engine."""

    def __init__(self, sql: Sql, vectors: BundleVectors) -> None:
        super().__init__(sql)
        self._vectors = vectors
        self._insert = insert_sql(sql.d)

    def export_bundles(
        self,
        *,
        after: str | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
        vectors: bool = False,
    ) -> list[MemoryBundle]:
        d = self._d
        page = _page(d, "m.id > ?", None if after is None else [after], "m.namespace", namespaces)
        if page is None:
            return []
        sql, params = f"{SELECT} WHERE {page[0]} ORDER BY m.id LIMIT ?", [*page[1], limit]
        history: dict[str, list[HistoryEntry]] = {}
        feedback: dict[str, list[FeedbackRow]] = {}
        vector_rows: dict[str, VectorRow] = {}
        with self._sql.snapshot("export") as conn:  # one snapshot for every page's rows
            records = [from_row(d, r) for r in conn.execute(sql, params).fetchall()]
            for chunk in d.chunks([r.id for r in records]):
                clause, ids = d.one_of("memory_id", chunk)
                for r in conn.execute(
                    f"SELECT {HISTORY_COLUMNS} FROM memory_history WHERE {clause} ORDER BY id",
                    ids,
                ).fetchall():
                    history.setdefault(r[1], []).append(record(d, HistoryEntry, r))
                for r in conn.execute(
                    f"SELECT {_FEEDBACK} FROM memory_feedback_log WHERE {clause} ORDER BY id",
                    ids,
                ).fetchall():
                    row = record(d, FeedbackRow, r)
                    feedback.setdefault(row.memory_id, []).append(row)
                if vectors:
                    vector_rows.update(self._vectors.read(conn, chunk))
        return [
            MemoryBundle(
                record=r,
                history=tuple(history.get(r.id, ())),
                feedback=tuple(feedback.get(r.id, ())),
                vector=vector_rows.get(r.id),
            )
            for r in records
        ]

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        for bundle in bundles:
            _check_bundle(bundle)
        self._vectors.prepare([b.vector for b in bundles if b.vector is not None])
        with self._sql.tx("import") as conn:
            return self._import(conn, bundles)

    def _import(self, conn: Conn, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        d = self._d
        stored: set[str] = set()
        for chunk in d.chunks([b.record.id for b in bundles]):
            clause, ids = d.one_of("id", chunk)
            stored.update(
                r[0] for r in conn.execute(f"SELECT id FROM memories WHERE {clause}", ids)
            )
        memories = existing = duplicates = flagged = 0
        history: list[tuple[Any, ...]] = []
        feedback: list[tuple[Any, ...]] = []
        vectors: list[VectorRow] = []
        for bundle in bundles:
            record = schema.imported_record(bundle)
            if record.id in stored:
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
            # Inserted one by one: a later bundle's duplicate check must see this row.
            normalized = normalize_content(record.content).normalized
            conn.execute(self._insert, memory_row(d, record, normalized))
            stored.add(record.id)
            memories += 1
            # counted here, among the inserted: a skipped memory's flags changed nothing
            flagged += bool(record.metadata.get("injection_flags"))
            history.extend(
                (
                    record.id,
                    record.namespace,
                    entry.event,
                    _json(entry.before),
                    _json(entry.after),
                    d.text(entry.actor, "actor"),
                    d.text(entry.reason, "reason"),
                    d.ts(entry.created_at),
                )
                for entry in bundle.history
            )
            feedback.extend(
                (
                    record.id,
                    record.namespace,
                    row.rating,
                    d.text(row.comment, "comment"),
                    d.ts(row.created_at),
                )
                for row in bundle.feedback
            )
            if bundle.vector is not None:
                vectors.append(bundle.vector)
        write_history(conn, d, history)
        if feedback:
            conn.executemany(
                "INSERT INTO memory_feedback_log(memory_id, namespace, rating, comment, "
                "created_at) VALUES (?, ?, ?, ?, ?)",
                feedback,
            )
        if vectors:
            self._vectors.write(conn, vectors)
        return ImportCounts(
            memories=memories,
            existing=existing,
            duplicates=duplicates,
            history=len(history),
            feedback=len(feedback),
            vectors=len(vectors),
            flagged=flagged,
        )

    def export_transcripts(
        self,
        *,
        after: tuple[str, str] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TranscriptRow]:
        page = _page(self._d, "(namespace, session_key) > (?, ?)", after, "namespace", namespaces)
        if page is None:
            return []
        return self._records(
            TranscriptRow,
            f"SELECT {columns(TranscriptRow)} FROM session_transcripts WHERE {page[0]} "
            "ORDER BY namespace, session_key LIMIT ?",
            [*page[1], limit],
            what="export",
        )

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        d = self._d
        stored = 0
        with self._sql.tx("importing transcripts") as conn:
            for row in rows:
                cur = conn.execute(
                    "INSERT INTO session_transcripts(namespace, session_key, content, "
                    "agent_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (
                        row.namespace,
                        row.session_key,
                        d.text(row.content, "transcript"),
                        row.agent_id,
                        d.ts(row.created_at),
                    ),
                )
                stored += cur.rowcount
        return ImportCounts(transcripts=stored, existing=len(rows) - stored)

"""Bulk copy in the PostgreSQL store: export and import of memory bundles and transcripts.

``PgTransfer`` (``store.transfer``) runs these functions with a connection inside a
transaction. The codec is the memories part's, so a bundle leaves and enters the
database exactly as ``insert`` and ``get`` write and read it. Semantics mirror
``engram.store.sqlite.transfer``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import psycopg

from engram.errors import InvalidInputError
from engram.records import HistoryEntry
from engram.store import schema
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.feedback import FeedbackRow
from engram.store.protocols.transcripts import TranscriptRow
from engram.store.protocols.transfer import ImportCounts, MemoryBundle
from engram.store.protocols.vectors import VectorRow
from engram.text import normalize_content


def export_bundles(
    conn: psycopg.Connection[Any],
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
        where.append("m.id > %s")
        params.append(after)
    if namespaces is not None:
        if not namespaces:
            return []
        where.append("m.namespace = ANY(%s)")
        params.append(list(namespaces))
    query = (
        codec.SELECT
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY m.id LIMIT %s"
    )
    params.append(limit)
    records = [codec.from_row(r) for r in conn.execute(query, params).fetchall()]
    ids = [r.id for r in records]
    history: dict[str, list[HistoryEntry]] = {}
    feedback: dict[str, list[FeedbackRow]] = {}
    vector_rows: dict[str, VectorRow] = {}
    if ids:
        for r in conn.execute(
            f"SELECT {codec.HISTORY_COLUMNS} FROM memory_history "
            "WHERE memory_id = ANY(%s) ORDER BY id",
            (ids,),
        ).fetchall():
            history.setdefault(r[1], []).append(codec.history_from_row(r))
        for r in conn.execute(
            "SELECT id, memory_id, namespace, rating, comment, created_at "
            "FROM memory_feedback_log WHERE memory_id = ANY(%s) ORDER BY id",
            (ids,),
        ).fetchall():
            feedback.setdefault(r[1], []).append(
                FeedbackRow(
                    id=int(r[0]),
                    memory_id=r[1],
                    namespace=r[2],
                    rating=int(r[3]),
                    comment=r[4],
                    created_at=codec.utc(r[5]),
                )
            )
        if vectors:
            for r in conn.execute(
                "SELECT memory_id, model, content_hash, embedding FROM memory_vectors "
                "WHERE memory_id = ANY(%s)",
                (ids,),
            ).fetchall():
                vector = codec.vector_array(r[3])
                vector_rows[r[0]] = VectorRow(r[0], r[1], vector, r[2])
    return [
        MemoryBundle(
            record=r,
            history=tuple(history.get(r.id, ())),
            feedback=tuple(feedback.get(r.id, ())),
            vector=vector_rows.get(r.id),
        )
        for r in records
    ]


def import_bundles(conn: psycopg.Connection[Any], bundles: Sequence[MemoryBundle]) -> ImportCounts:
    """Insert bundles inside the caller's transaction; see ``TransferStore``."""
    memories = existing = duplicates = history = feedback = vectors = 0
    for bundle in bundles:
        _check_bundle(bundle)
    ids = [b.record.id for b in bundles]
    stored = (
        {
            r[0]
            for r in conn.execute("SELECT id FROM memories WHERE id = ANY(%s)", (ids,)).fetchall()
        }
        if ids
        else set()
    )
    history_rows: list[tuple[Any, ...]] = []
    feedback_rows: list[tuple[Any, ...]] = []
    vector_rows: list[tuple[Any, ...]] = []
    with conn.cursor() as cur:
        for bundle in bundles:
            record = schema.imported_record(bundle)
            if record.id in stored:
                existing += 1
                continue
            if (
                record.deleted_at is None
                and cur.execute(
                    "SELECT 1 FROM memories WHERE namespace = %s AND content_hash = %s "
                    "AND deleted_at IS NULL",
                    (record.namespace, record.content_hash),
                ).fetchone()
            ):
                duplicates += 1
                continue
            # Inserted one by one: a later bundle's duplicate check must see this row.
            cur.execute(
                codec.INSERT,
                codec.to_row(record, normalize_content(record.content).normalized),
            )
            stored.add(record.id)
            memories += 1
            for entry in bundle.history:
                history_rows.append(
                    (
                        record.id,
                        record.namespace,
                        entry.event,
                        _json(entry.before),
                        _json(entry.after),
                        codec.check_text(entry.actor, "actor"),
                        codec.check_text(entry.reason, "reason"),
                        codec.utc(entry.created_at),
                    )
                )
            for row in bundle.feedback:
                feedback_rows.append(
                    (
                        record.id,
                        record.namespace,
                        row.rating,
                        codec.check_text(row.comment, "comment"),
                        codec.utc(row.created_at),
                    )
                )
            if bundle.vector is not None:
                vector = np.ascontiguousarray(bundle.vector.vector, dtype=np.float32).reshape(-1)
                vector_rows.append(
                    (
                        record.id,
                        record.namespace,
                        bundle.vector.model,
                        int(vector.shape[0]),
                        bundle.vector.content_hash,
                        bundle.vector.content_hash,
                        vector,
                    )
                )
        if history_rows:
            cur.executemany(
                "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
                "reason, created_at) VALUES (%s, %s, %s, %s::json, %s::json, %s, %s, %s)",
                history_rows,
            )
            history = len(history_rows)
        if feedback_rows:
            cur.executemany(
                "INSERT INTO memory_feedback_log(memory_id, namespace, rating, comment, "
                "created_at) VALUES (%s, %s, %s, %s, %s)",
                feedback_rows,
            )
            feedback = len(feedback_rows)
        if vector_rows:
            cur.executemany(
                "INSERT INTO memory_vectors(memory_id, namespace, model, dim, content_hash, "
                "live, embedding) SELECT %s, m.namespace, %s, %s, %s, "
                "(m.deleted_at IS NULL AND m.content_hash = %s), %s FROM memories m "
                "WHERE m.id = %s",
                [(r[0], r[2], r[3], r[4], r[5], r[6], r[0]) for r in vector_rows],
            )
            vectors = len(vector_rows)
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
    return None if value is None else codec.dumps(value)


def export_transcripts(
    conn: psycopg.Connection[Any],
    *,
    after: tuple[str, str] | None,
    limit: int,
    namespaces: Sequence[str] | None,
) -> list[TranscriptRow]:
    """One page of transcripts ordered by (namespace, session_key)."""
    where: list[str] = []
    params: list[Any] = []
    if after is not None:
        where.append("(namespace, session_key) > (%s, %s)")
        params.extend(after)
    if namespaces is not None:
        if not namespaces:
            return []
        where.append("namespace = ANY(%s)")
        params.append(list(namespaces))
    query = (
        "SELECT namespace, session_key, content, agent_id, created_at FROM session_transcripts"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY namespace, session_key LIMIT %s"
    )
    params.append(limit)
    return [
        TranscriptRow(r[0], r[1], r[2], r[3], codec.utc(r[4]))
        for r in conn.execute(query, params).fetchall()
    ]


def import_transcripts(
    conn: psycopg.Connection[Any], rows: Sequence[TranscriptRow]
) -> ImportCounts:
    """Insert transcripts not stored yet, inside the caller's transaction."""
    stored = 0
    for row in rows:
        cur = conn.execute(
            "INSERT INTO session_transcripts(namespace, session_key, content, agent_id, "
            "created_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (
                row.namespace,
                row.session_key,
                codec.check_text(row.content, "transcript"),
                row.agent_id,
                codec.utc(row.created_at),
            ),
        )
        stored += cur.rowcount
    return ImportCounts(transcripts=stored, existing=len(rows) - stored)


class PgTransfer:
    """The PostgreSQL implementation of ``TransferStore``.

    ``ensure_index`` is the vectors part's ``ensure_index``: the HNSW index of each
    (model, dimension) among imported vectors exists before their rows are written.
    """

    def __init__(self, db: Database, ensure_index: Callable[[str, int], str | None]) -> None:
        self._db = db
        self._ensure_index = ensure_index

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
        for model, dim in {
            (b.vector.model, int(np.asarray(b.vector.vector).reshape(-1).shape[0]))
            for b in bundles
            if b.vector is not None
        }:
            self._ensure_index(model, dim)
        with self._db.tx("import") as conn:
            return import_bundles(conn, bundles)

    def export_transcripts(
        self,
        *,
        after: tuple[str, str] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TranscriptRow]:
        """Transcripts ordered by (namespace, session_key) after ``after``."""
        with self._db.tx("export") as conn:
            return export_transcripts(conn, after=after, limit=limit, namespaces=namespaces)

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        """Insert transcripts not stored yet, in one transaction."""
        with self._db.tx("importing transcripts") as conn:
            return import_transcripts(conn, rows)

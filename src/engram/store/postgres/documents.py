"""Documents and their chunk links in the PostgreSQL store (seed 004's document ingest)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import InvalidInputError, NotFoundError
from engram.records import new_id
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.documents import (
    DOCUMENT_STATUSES,
    SOURCE_TYPES,
    Document,
    DocumentChunk,
)

_COLUMNS = (
    "id, namespace, source_type, source, title, content_type, status, error, chunk_count, "
    "byte_length, created_at, updated_at"
)


def _document(row: Sequence[Any]) -> Document:
    return Document(
        id=row[0],
        namespace=row[1],
        source_type=row[2],
        source=row[3],
        title=row[4],
        content_type=row[5],
        status=row[6],
        error=row[7],
        chunk_count=int(row[8]),
        byte_length=int(row[9]),
        created_at=codec.utc(row[10]),
        updated_at=codec.utc(row[11]),
    )


def _status_clause(status: str | None) -> tuple[str, list[Any]]:
    if status is None:
        return "", []
    _check_status(status)
    return " AND status = %s", [status]


def _check_status(status: str) -> None:
    if status not in DOCUMENT_STATUSES:
        raise InvalidInputError(
            f"document status must be one of {', '.join(DOCUMENT_STATUSES)}, got {status!r}"
        )


def _row(conn: psycopg.Connection[Any], document_id: str) -> Document:
    found = conn.execute(
        f"SELECT {_COLUMNS} FROM documents WHERE id = %s", (document_id,)
    ).fetchone()
    if found is None:
        raise NotFoundError(f"no document {document_id!r}")
    return _document(found)


class PgDocuments:
    """The PostgreSQL implementation of ``DocumentStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(
        self,
        namespace: str,
        *,
        source_type: str,
        source: str | None,
        title: str | None,
        raw_content: str | None,
        content_type: str | None,
        byte_length: int,
        now: datetime,
    ) -> Document:
        """A new ``queued`` document (joins an open transaction)."""
        if source_type not in SOURCE_TYPES:
            raise InvalidInputError(f"source_type must be one of {', '.join(SOURCE_TYPES)}")
        for value, what in ((raw_content, "document content"), (title, "title")):
            codec.check_text(value, what)
        document_id = new_id()
        with self._db.tx("storing the document") as conn:
            conn.execute(
                "INSERT INTO documents(id, namespace, source_type, source, title, raw_content, "
                "content_type, status, chunk_count, byte_length, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, 'queued', 0, %s, %s, %s)",
                (
                    document_id,
                    namespace,
                    source_type,
                    source,
                    title,
                    raw_content,
                    content_type,
                    byte_length,
                    now,
                    now,
                ),
            )
            return _row(conn, document_id)

    def get(self, namespace: str, document_id: str) -> Document | None:
        """One document of ``namespace``."""
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM documents WHERE namespace = %s AND id = %s",
                (namespace, document_id),
            ).fetchone()
        return None if row is None else _document(row)

    def raw_content(self, namespace: str, document_id: str) -> str | None:
        """The content as given or fetched."""
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT raw_content FROM documents WHERE namespace = %s AND id = %s",
                (namespace, document_id),
            ).fetchone()
        return None if row is None else row[0]

    def set_status(
        self, document_id: str, status: str, *, error: str | None = None, now: datetime
    ) -> Document:
        """Move a document to ``status`` with ``error``."""
        _check_status(status)
        codec.check_text(error, "error")
        with self._db.tx("updating the document status") as conn:
            conn.execute(
                "UPDATE documents SET status = %s, error = %s, updated_at = %s WHERE id = %s",
                (status, error, now, document_id),
            )
            return _row(conn, document_id)

    def set_extracted(
        self,
        document_id: str,
        *,
        title: str | None,
        raw_content: str | None = None,
        content_type: str | None = None,
        byte_length: int | None = None,
        now: datetime,
    ) -> Document:
        """Record what extraction found; None keeps a field, the title only fills a
        missing one."""
        for value, what in ((raw_content, "document content"), (title, "title")):
            codec.check_text(value, what)
        with self._db.tx("recording the document's content") as conn:
            conn.execute(
                "UPDATE documents SET raw_content = COALESCE(%s, raw_content), "
                "content_type = COALESCE(%s, content_type), "
                "byte_length = COALESCE(%s, byte_length), title = COALESCE(title, %s), "
                "updated_at = %s WHERE id = %s",
                (raw_content, content_type, byte_length, title, now, document_id),
            )
            return _row(conn, document_id)

    def link(self, document_id: str, chunks: Sequence[tuple[int, str]], *, now: datetime) -> int:
        """Link chunks (an index already linked keeps its memory); the chunk count."""
        with self._db.tx("linking the document's chunks") as conn:
            if chunks:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO document_memories(document_id, memory_id, chunk_index) "
                        "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                        [(document_id, memory_id, index) for index, memory_id in chunks],
                    )
            conn.execute(
                "UPDATE documents SET chunk_count = (SELECT count(*) FROM document_memories "
                "WHERE document_id = %s), updated_at = %s WHERE id = %s",
                (document_id, now, document_id),
            )
            return _row(conn, document_id).chunk_count

    def chunks(self, document_id: str) -> list[DocumentChunk]:
        """Linked chunks in index order (a purged memory's link drops out)."""
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT dm.chunk_index, dm.memory_id, m.content_hash FROM document_memories dm "
                "JOIN memories m ON m.id = dm.memory_id WHERE dm.document_id = %s "
                "ORDER BY dm.chunk_index",
                (document_id,),
            ).fetchall()
        return [DocumentChunk(int(r[0]), r[1], r[2]) for r in rows]

    def select(
        self, namespace: str, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Document]:
        """Documents of ``namespace``, newest first."""
        clause, params = _status_clause(status)
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM documents WHERE namespace = %s{clause} "
                "ORDER BY created_at DESC, id DESC LIMIT %s OFFSET %s",
                (namespace, *params, limit, offset),
            ).fetchall()
        return [_document(r) for r in rows]

    def count(self, namespace: str, *, status: str | None = None) -> int:
        """How many documents ``namespace`` holds."""
        clause, params = _status_clause(status)
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT count(*) FROM documents WHERE namespace = %s{clause}",
                (namespace, *params),
            ).fetchone()
        return int(row[0]) if row else 0

    def delete(self, namespace: str, document_id: str) -> bool:
        """Remove a document and its links (``ON DELETE CASCADE``)."""
        with self._db.tx("deleting the document") as conn:
            cur = conn.execute(
                "DELETE FROM documents WHERE namespace = %s AND id = %s",
                (namespace, document_id),
            )
            return cur.rowcount == 1

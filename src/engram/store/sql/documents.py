"""Documents and their chunk links (seed 004's document ingest)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError
from engram.records import new_id
from engram.store.protocols import DocumentStore
from engram.store.protocols.documents import (
    DOCUMENT_STATUSES,
    SOURCE_TYPES,
    Document,
    DocumentChunk,
)
from engram.store.sql.dialect import Conn
from engram.store.sql.rows import checked, columns, equal
from engram.store.sql.session import SqlPart

_COLUMNS = columns(Document)
#: Memory ids asked about per statement (far below both engines' parameter limits).
HOLDERS_PAGE = 500


def _matching(namespace: str, status: str | None, source: str | None) -> tuple[str, list[Any]]:
    status = checked(status, DOCUMENT_STATUSES, "document status")
    return equal(namespace=namespace, status=status, source=source)


class SqlDocuments(SqlPart, DocumentStore):
    """``DocumentStore`` on either engine."""

    def _document(self, conn: Conn, document_id: str) -> Document:
        return self._found(
            conn,
            Document,
            f"SELECT {_COLUMNS} FROM documents WHERE id = ?",
            (document_id,),
            f"no document {document_id!r}",
        )

    def _check_content(self, raw_content: str | None, title: str | None) -> None:
        for value, what in ((raw_content, "document content"), (title, "title")):
            self._d.text(value, what)

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
        if source_type not in SOURCE_TYPES:
            raise InvalidInputError(f"source_type must be one of {', '.join(SOURCE_TYPES)}")
        self._check_content(raw_content, title)
        document_id = new_id()
        d = self._d
        with self._sql.tx("storing the document") as conn:
            conn.execute(
                "INSERT INTO documents(id, namespace, source_type, source, title, raw_content, "
                "content_type, status, chunk_count, byte_length, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)",
                (
                    document_id,
                    namespace,
                    source_type,
                    source,
                    title,
                    raw_content,
                    content_type,
                    byte_length,
                    d.ts(now),
                    d.ts(now),
                ),
            )
            return self._document(conn, document_id)

    def get(self, namespace: str, document_id: str) -> Document | None:
        return self._keyed(Document, "documents", (namespace, "id", document_id))

    def raw_content(self, namespace: str, document_id: str) -> str | None:
        row = self._row(
            "SELECT raw_content FROM documents WHERE namespace = ? AND id = ?",
            (namespace, document_id),
        )
        return None if row is None else row[0]

    def set_status(
        self, document_id: str, status: str, *, error: str | None = None, now: datetime
    ) -> Document:
        checked(status, DOCUMENT_STATUSES, "document status")
        self._d.text(error, "error")
        with self._sql.tx("updating the document status") as conn:
            conn.execute(
                "UPDATE documents SET status = ?, error = ?, updated_at = ? WHERE id = ?",
                (status, error, self._d.ts(now), document_id),
            )
            return self._document(conn, document_id)

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
        self._check_content(raw_content, title)
        with self._sql.tx("recording the document's content") as conn:
            conn.execute(
                "UPDATE documents SET raw_content = COALESCE(?, raw_content), "
                "content_type = COALESCE(?, content_type), "
                "byte_length = COALESCE(?, byte_length), title = COALESCE(title, ?), "
                "updated_at = ? WHERE id = ?",
                (raw_content, content_type, byte_length, title, self._d.ts(now), document_id),
            )
            return self._document(conn, document_id)

    def link(self, document_id: str, chunks: Sequence[tuple[int, str]], *, now: datetime) -> int:
        # An index already linked keeps its memory (ON CONFLICT DO NOTHING).
        with self._sql.tx("linking the document's chunks") as conn:
            if chunks:
                conn.executemany(
                    "INSERT INTO document_memories(document_id, memory_id, chunk_index) "
                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    [(document_id, memory_id, index) for index, memory_id in chunks],
                )
            conn.execute(
                "UPDATE documents SET chunk_count = (SELECT count(*) FROM document_memories "
                "WHERE document_id = ?), updated_at = ? WHERE id = ?",
                (document_id, self._d.ts(now), document_id),
            )
            return self._document(conn, document_id).chunk_count

    def chunks(self, document_id: str) -> list[DocumentChunk]:
        # The join drops the link of a purged memory.
        return self._records(
            DocumentChunk,
            "SELECT dm.chunk_index, dm.memory_id, m.content_hash FROM document_memories dm "
            "JOIN memories m ON m.id = dm.memory_id WHERE dm.document_id = ? "
            "ORDER BY dm.chunk_index",
            (document_id,),
        )

    def select(
        self,
        namespace: str,
        *,
        status: str | None = None,
        source: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Document]:
        where, params = _matching(namespace, status, source)
        return self._records(
            Document,
            f"SELECT {_COLUMNS} FROM documents WHERE {where} "
            "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )

    def count(self, namespace: str, *, status: str | None = None, source: str | None = None) -> int:
        where, params = _matching(namespace, status, source)
        return self._read_count(
            f"SELECT count(*) FROM documents WHERE {where}",
            params,
        )

    def by_source(self, namespace: str, source_type: str, source: str) -> list[Document]:
        return self._records(
            Document,
            f"SELECT {_COLUMNS} FROM documents WHERE namespace = ? AND source_type = ? "
            "AND source = ? ORDER BY created_at, id",
            (namespace, source_type, source),
        )

    def holders(
        self, namespace: str, memory_ids: Sequence[str], *, besides: str
    ) -> dict[str, tuple[str, int]]:
        found: dict[str, tuple[str, int]] = {}
        for start in range(0, len(memory_ids), HOLDERS_PAGE):
            page = list(memory_ids[start : start + HOLDERS_PAGE])
            marks = ", ".join("?" for _ in page)
            # Oldest first, so the newest document's row is the one kept.
            rows = self._rows(
                "SELECT dm.memory_id, dm.document_id, dm.chunk_index FROM document_memories dm "
                "JOIN documents d ON d.id = dm.document_id WHERE d.namespace = ? "
                f"AND dm.document_id != ? AND dm.memory_id IN ({marks}) "
                "ORDER BY d.created_at, d.id",
                (namespace, besides, *page),
            )
            found.update(
                (memory_id, (document_id, index)) for memory_id, document_id, index in rows
            )
        return found

    def delete(self, namespace: str, document_id: str) -> bool:
        # Its links go by ON DELETE CASCADE.
        with self._sql.tx("deleting the document") as conn:
            cur = conn.execute(
                "DELETE FROM documents WHERE namespace = ? AND id = ?", (namespace, document_id)
            )
            return cur.rowcount == 1

"""Hints (seed 004's prospective index): the ``memory_hints`` rows, on either engine.

The rows are written and read here once; their full-text index is each engine's own
(a :class:`HintIndex`): on SQLite one FTS5 table per namespace, kept in step by the
writes here (``engram.store.sqlite.hints``); on PostgreSQL a generated ``tsvector``
column with a GIN index, which needs no upkeep (``engram.store.postgres.hints``).
Purging a memory deletes its hint rows by ``ON DELETE CASCADE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engram.records import utcnow
from engram.store.protocols import HintStore
from engram.store.protocols.hints import HintSet, clean_hints
from engram.store.sql.dialect import Conn
from engram.store.sql.rows import found
from engram.store.sql.session import Sql, SqlPart


class HintIndex(Protocol):
    """An engine's full-text index of hint rows."""

    def forget(self, conn: Conn) -> None:
        """Hint rows were deleted in the caller's transaction: drop their entries."""

    def add(self, conn: Conn, namespace: str, memory_id: str) -> None:
        """``memory_id``'s hint rows were just written in the caller's transaction
        (after ``forget``): index them."""

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """BM25 over the namespace's hints, one score per live memory (its best hint)."""


class SqlHints(SqlPart, HintStore):
    """``HintStore`` on either engine, over the engine's :class:`HintIndex`."""

    def __init__(self, sql: Sql, index: HintIndex) -> None:
        super().__init__(sql)
        self._index = index
        # The row lock serialises two writers of one memory's hints on PostgreSQL (each
        # deletes, then inserts); it does not block readers or key-share (foreign key)
        # locks. SQLite's ``BEGIN IMMEDIATE`` serialises all writers already.
        self._lock = " FOR NO KEY UPDATE" if self._d.name == "postgres" else ""

    def put(self, namespace: str, memory_id: str, hints: Sequence[str], *, model: str) -> HintSet:
        d = self._d
        kept = clean_hints(hints)
        d.text(model, "hint model")
        now = utcnow()
        with self._sql.tx("storing hints") as conn:
            found(
                conn,
                "SELECT 1 FROM memories WHERE namespace = ? AND id = ? "
                f"AND deleted_at IS NULL{self._lock}",
                (d.text(namespace, "namespace"), d.text(memory_id, "id")),
                f"no memory {memory_id!r} in namespace {namespace!r} to hold hints",
            )
            conn.execute("DELETE FROM memory_hints WHERE memory_id = ?", (memory_id,))
            self._index.forget(conn)
            if kept:
                conn.executemany(
                    "INSERT INTO memory_hints(memory_id, namespace, hint, model, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(memory_id, namespace, hint, model, d.ts(now)) for hint in kept],
                )
                self._index.add(conn, namespace, memory_id)
        return HintSet(namespace, memory_id, tuple(kept), model, now)

    def get(self, namespace: str, memory_id: str) -> HintSet | None:
        # In the order they were given (their row ids).
        d = self._d
        rows = self._rows(
            "SELECT hint, model, created_at FROM memory_hints "
            "WHERE namespace = ? AND memory_id = ? ORDER BY id",
            (d.text(namespace, "namespace"), d.text(memory_id, "id")),
            what="reading hints",
        )
        if not rows:
            return None
        return HintSet(
            namespace, memory_id, tuple(r[0] for r in rows), rows[0][1], d.time(rows[0][2])
        )

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        return self._index.search(namespace, match, limit)

    def delete(self, namespace: str, memory_id: str) -> int:
        d = self._d
        with self._sql.tx("deleting hints") as conn:
            cur = conn.execute(
                "DELETE FROM memory_hints WHERE namespace = ? AND memory_id = ?",
                (d.text(namespace, "namespace"), d.text(memory_id, "id")),
            )
            self._index.forget(conn)
            return int(cur.rowcount)

    def count(self, namespace: str | None = None) -> int:
        where, params = "", []
        if namespace is not None:
            where, params = " WHERE namespace = ?", [self._d.text(namespace, "namespace")]
        return self._read_count(
            f"SELECT count(DISTINCT memory_id) FROM memory_hints{where}",
            params,
            what="counting hints",
        )

    def missing(self, namespace: str, limit: int = 1000) -> list[str]:
        rows = self._rows(
            "SELECT m.id FROM memories m WHERE m.namespace = ? AND m.deleted_at IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id) "
            "ORDER BY m.seq LIMIT ?",
            (self._d.text(namespace, "namespace"), limit),
            what="listing memories without hints",
        )
        return [str(r[0]) for r in rows]

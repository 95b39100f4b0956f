"""Feedback in the SQLite store: seed 000's thumbs on quality, logged and audited."""

from __future__ import annotations

import sqlite3
from typing import Any

from engram.errors import StoreError
from engram.records import MemoryRecord, utcnow
from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database
from engram.store.sqlite.memories import live, write_history


class SQLiteFeedback:
    """The SQLite implementation of ``FeedbackStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def record(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """seed 000: quality += rating, clamped to [-3, +3]; the rating is logged."""
        try:
            with self._db.tx() as conn:
                before = live(conn, namespace, memory_id)
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
                write_history(conn, after, "feedback", before, after, None, comment, ts(now))
        except sqlite3.Error as exc:
            raise StoreError(f"feedback failed: {exc}") from exc
        return before, after

    def log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
        """Feedback rows, oldest first: a labelled preference data set (seed 000)."""
        sql = (
            "SELECT id, memory_id, rating, comment, created_at FROM memory_feedback_log "
            "WHERE namespace = ?"
        )
        params: list[Any] = [namespace]
        if memory_id is not None:
            sql += " AND memory_id = ?"
            params.append(memory_id)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY id", params).fetchall()
        return [
            {"id": r[0], "memory_id": r[1], "rating": r[2], "comment": r[3], "created_at": r[4]}
            for r in rows
        ]

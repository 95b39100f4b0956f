"""Feedback in the PostgreSQL store: seed 000's thumbs on quality, logged and audited."""

from __future__ import annotations

from typing import Any

from engram.records import MemoryRecord, utcnow
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.postgres.memories import history_row, live, write_history


class PgFeedback:
    """The PostgreSQL implementation of ``FeedbackStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def record(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """seed 000: quality += rating, clamped to [-3, +3]; the rating is logged."""
        with self._db.tx("feedback") as conn:
            before = live(conn, namespace, memory_id)
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
                write_history(
                    cur, [history_row(after, "feedback", before, after, None, comment, now)]
                )
        return before, after

    def log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
        """Feedback rows, oldest first: a labelled preference data set (seed 000)."""
        query = (
            "SELECT id, memory_id, rating, comment, created_at FROM memory_feedback_log "
            "WHERE namespace = %s"
        )
        params: list[Any] = [namespace]
        if memory_id is not None:
            query += " AND memory_id = %s"
            params.append(memory_id)
        with self._db.read() as conn:
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

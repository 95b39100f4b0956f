"""Feedback: seed 000's thumbs on quality, logged and audited."""

from __future__ import annotations

from typing import Any

from engram.records import MemoryRecord, utcnow
from engram.store.protocols import FeedbackStore
from engram.store.sql.history import history_row, live, write_history
from engram.store.sql.session import SqlPart


class SqlFeedback(SqlPart, FeedbackStore):
    """``FeedbackStore`` on either engine."""

    def record(
        self, namespace: str, memory_id: str, rating: int, comment: str | None
    ) -> tuple[MemoryRecord, MemoryRecord]:
        d = self._d
        with self._sql.tx("feedback") as conn:
            before = live(conn, d, namespace, memory_id)
            now = utcnow()
            quality = max(-3, min(3, before.quality + rating))
            after = before.with_changes(quality=quality, updated_at=now)
            conn.execute(
                "UPDATE memories SET quality = ?, updated_at = ? WHERE namespace = ? AND id = ?",
                (quality, d.ts(now), namespace, memory_id),
            )
            conn.execute(
                "INSERT INTO memory_feedback_log(memory_id, namespace, rating, comment, "
                "created_at) VALUES (?, ?, ?, ?, ?)",
                (memory_id, namespace, rating, d.text(comment, "comment"), d.ts(now)),
            )
            write_history(
                conn, d, [history_row(d, after, "feedback", before, after, None, comment, now)]
            )
        return before, after

    def log(self, namespace: str, memory_id: str | None = None) -> list[dict[str, Any]]:
        # A labelled preference data set (seed 000).
        sql = (
            "SELECT id, memory_id, rating, comment, created_at FROM memory_feedback_log "
            "WHERE namespace = ?"
        )
        params: list[Any] = [namespace]
        if memory_id is not None:
            sql += " AND memory_id = ?"
            params.append(memory_id)
        rows = self._rows(sql + " ORDER BY id", params, what="feedback log")
        return [
            {
                "id": int(r[0]),
                "memory_id": r[1],
                "rating": int(r[2]),
                "comment": r[3],
                "created_at": self._d.time(r[4]).isoformat(timespec="microseconds"),
            }
            for r in rows
        ]

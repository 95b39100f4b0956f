"""The review queue in the SQLite store: proposals held back for a person."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
from engram.store.protocols.review import REVIEW_STATUSES, ReviewItem
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

_COLUMNS = (
    "id, namespace, memory_id, target_id, action, proposal, reason, status, created_at, "
    "resolved_by, note, resolved_at"
)


def _item(row: Sequence[Any]) -> ReviewItem:
    return ReviewItem(
        id=int(row[0]),
        namespace=row[1],
        memory_id=row[2],
        target_id=row[3],
        action=row[4],
        proposal=json.loads(row[5]),
        reason=row[6],
        status=row[7],
        created_at=datetime.fromisoformat(row[8]),
        resolved_by=row[9],
        note=row[10],
        resolved_at=parse_ts(row[11]),
    )


def _status_clause(status: str | None) -> tuple[str, list[Any]]:
    if status is None:
        return "", []
    if status not in REVIEW_STATUSES:
        raise InvalidInputError(
            f"review status must be one of {', '.join(REVIEW_STATUSES)}, got {status!r}"
        )
    return " AND status = ?", [status]


class SQLiteReview:
    """The SQLite implementation of ``ReviewStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def add(
        self,
        namespace: str,
        memory_id: str,
        *,
        target_id: str | None,
        action: str,
        proposal: Mapping[str, Any],
        reason: str,
        now: datetime,
    ) -> ReviewItem:
        """Queue a proposal (joins an open transaction)."""
        try:
            with self._db.tx() as conn:
                cur = conn.execute(
                    "INSERT INTO review_queue(namespace, memory_id, target_id, action, proposal, "
                    "reason, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
                    (
                        namespace,
                        memory_id,
                        target_id,
                        action,
                        json.dumps(dict(proposal), ensure_ascii=False),
                        reason,
                        ts(now),
                    ),
                )
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM review_queue WHERE id = ?", (cur.lastrowid,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"queueing the review failed: {exc}") from exc
        return _item(row)

    def get(self, namespace: str, item_id: int) -> ReviewItem | None:
        """One item of ``namespace``."""
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = ? AND id = ?",
                (namespace, item_id),
            ).fetchone()
        return None if row is None else _item(row)

    def select(
        self, namespace: str, *, status: str | None = "pending", limit: int = 100, offset: int = 0
    ) -> list[ReviewItem]:
        """Items of ``namespace``, oldest first."""
        clause, params = _status_clause(status)
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = ?{clause} "
                "ORDER BY id LIMIT ? OFFSET ?",
                (namespace, *params, limit, offset),
            ).fetchall()
        return [_item(r) for r in rows]

    def count(self, namespace: str, *, status: str | None = "pending") -> int:
        """How many items of ``namespace`` have ``status``."""
        clause, params = _status_clause(status)
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT count(*) FROM review_queue WHERE namespace = ?{clause}",
                (namespace, *params),
            ).fetchone()
        return int(row[0])

    def resolve(
        self,
        namespace: str,
        item_id: int,
        *,
        status: str,
        actor: str | None,
        note: str | None,
        now: datetime,
    ) -> ReviewItem:
        """Approve or reject a pending item."""
        if status not in ("approved", "rejected"):
            raise InvalidInputError(f"a review is 'approved' or 'rejected', got {status!r}")
        try:
            with self._db.tx() as conn:
                cur = conn.execute(
                    "UPDATE review_queue SET status = ?, resolved_by = ?, note = ?, "
                    "resolved_at = ? WHERE namespace = ? AND id = ? AND status = 'pending'",
                    (status, actor, note, ts(now), namespace, item_id),
                )
                if cur.rowcount != 1:
                    raise NotFoundError(
                        f"no pending review item {item_id} in namespace {namespace!r}; "
                        "`engram review list` shows them"
                    )
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM review_queue WHERE id = ?", (item_id,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"resolving the review failed: {exc}") from exc
        return _item(row)

"""The review queue: proposals held back for a person."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError
from engram.store.protocols.review import REVIEW_STATUSES, ReviewItem
from engram.store.sql.dialect import Dialect
from engram.store.sql.session import Sql

_COLUMNS = (
    "id, namespace, memory_id, target_id, action, proposal, reason, status, created_at, "
    "resolved_by, note, resolved_at"
)


def _item(d: Dialect, row: Sequence[Any]) -> ReviewItem:
    return ReviewItem(
        id=int(row[0]),
        namespace=row[1],
        memory_id=row[2],
        target_id=row[3],
        action=row[4],
        proposal=d.loads(row[5]),
        reason=row[6],
        status=row[7],
        created_at=d.time(row[8]),
        resolved_by=row[9],
        note=row[10],
        resolved_at=d.time_or_none(row[11]),
    )


def _status_clause(status: str | None) -> tuple[str, list[Any]]:
    if status is None:
        return "", []
    if status not in REVIEW_STATUSES:
        raise InvalidInputError(
            f"review status must be one of {', '.join(REVIEW_STATUSES)}, got {status!r}"
        )
    return " AND status = ?", [status]


class SqlReview:
    """``ReviewStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._d = sql.d

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
        d = self._d
        with self._sql.tx("queueing the review") as conn:
            row = conn.execute(
                "INSERT INTO review_queue(namespace, memory_id, target_id, action, proposal, "
                f"reason, status, created_at) VALUES (?, ?, ?, ?, {d.json}, ?, 'pending', ?) "
                f"RETURNING {_COLUMNS}",
                (
                    namespace,
                    memory_id,
                    target_id,
                    action,
                    d.dumps(dict(proposal)),
                    d.text(reason, "reason"),
                    d.ts(now),
                ),
            ).fetchone()
        assert row is not None  # RETURNING of an INSERT
        return _item(d, row)

    def get(self, namespace: str, item_id: int) -> ReviewItem | None:
        with self._sql.read() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = ? AND id = ?",
                (namespace, item_id),
            ).fetchone()
        return None if row is None else _item(self._d, row)

    def select(
        self, namespace: str, *, status: str | None = "pending", limit: int = 100, offset: int = 0
    ) -> list[ReviewItem]:
        clause, params = _status_clause(status)
        with self._sql.read() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = ?{clause} "
                "ORDER BY id LIMIT ? OFFSET ?",
                (namespace, *params, limit, offset),
            ).fetchall()
        return [_item(self._d, r) for r in rows]

    def count(self, namespace: str, *, status: str | None = "pending") -> int:
        clause, params = _status_clause(status)
        with self._sql.read() as conn:
            row = conn.execute(
                f"SELECT count(*) FROM review_queue WHERE namespace = ?{clause}",
                (namespace, *params),
            ).fetchone()
        return int(row[0]) if row else 0

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
        if status not in ("approved", "rejected"):
            raise InvalidInputError(f"a review is 'approved' or 'rejected', got {status!r}")
        with self._sql.tx("resolving the review") as conn:
            row = conn.execute(
                "UPDATE review_queue SET status = ?, resolved_by = ?, note = ?, "
                "resolved_at = ? WHERE namespace = ? AND id = ? AND status = 'pending' "
                f"RETURNING {_COLUMNS}",
                (status, actor, note, self._d.ts(now), namespace, item_id),
            ).fetchone()
            if row is None:
                raise NotFoundError(
                    f"no pending review item {item_id} in namespace {namespace!r}; "
                    "`engram review list` shows them"
                )
        return _item(self._d, row)

"""The review queue in the PostgreSQL store: proposals held back for a person."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.review import REVIEW_STATUSES, ReviewItem

_COLUMNS = (
    "id, namespace, memory_id, target_id, action, proposal, reason, status, created_at, "
    "resolved_by, note, resolved_at"
)


def _item(row: Sequence[Any]) -> ReviewItem:
    proposal = row[5] if isinstance(row[5], dict) else json.loads(row[5])
    return ReviewItem(
        id=int(row[0]),
        namespace=row[1],
        memory_id=row[2],
        target_id=row[3],
        action=row[4],
        proposal=proposal,
        reason=row[6],
        status=row[7],
        created_at=codec.utc(row[8]),
        resolved_by=row[9],
        note=row[10],
        resolved_at=None if row[11] is None else codec.utc(row[11]),
    )


def _status_clause(status: str | None) -> tuple[str, list[Any]]:
    if status is None:
        return "", []
    if status not in REVIEW_STATUSES:
        raise InvalidInputError(
            f"review status must be one of {', '.join(REVIEW_STATUSES)}, got {status!r}"
        )
    return " AND status = %s", [status]


class PgReview:
    """The PostgreSQL implementation of ``ReviewStore``."""

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
        with self._db.tx("queueing the review") as conn:
            row = conn.execute(
                "INSERT INTO review_queue(namespace, memory_id, target_id, action, proposal, "
                "reason, status, created_at) VALUES (%s, %s, %s, %s, %s::json, %s, 'pending', "
                f"%s) RETURNING {_COLUMNS}",
                (
                    namespace,
                    memory_id,
                    target_id,
                    action,
                    codec.dumps(dict(proposal)),
                    codec.check_text(reason, "reason"),
                    now,
                ),
            ).fetchone()
        assert row is not None
        return _item(row)

    def get(self, namespace: str, item_id: int) -> ReviewItem | None:
        """One item of ``namespace``."""
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = %s AND id = %s",
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
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = %s{clause} "
                "ORDER BY id LIMIT %s OFFSET %s",
                (namespace, *params, limit, offset),
            ).fetchall()
        return [_item(r) for r in rows]

    def count(self, namespace: str, *, status: str | None = "pending") -> int:
        """How many items of ``namespace`` have ``status``."""
        clause, params = _status_clause(status)
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT count(*) FROM review_queue WHERE namespace = %s{clause}",
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
        """Approve or reject a pending item."""
        if status not in ("approved", "rejected"):
            raise InvalidInputError(f"a review is 'approved' or 'rejected', got {status!r}")
        with self._db.tx("resolving the review") as conn:
            row = conn.execute(
                "UPDATE review_queue SET status = %s, resolved_by = %s, note = %s, "
                "resolved_at = %s WHERE namespace = %s AND id = %s AND status = 'pending' "
                f"RETURNING {_COLUMNS}",
                (status, actor, note, now, namespace, item_id),
            ).fetchone()
            if row is None:
                raise NotFoundError(
                    f"no pending review item {item_id} in namespace {namespace!r}; "
                    "`engram review list` shows them"
                )
        return _item(row)

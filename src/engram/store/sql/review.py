"""The review queue: proposals held back for a person."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError
from engram.store.protocols import ReviewStore
from engram.store.protocols.review import REVIEW_STATUSES, ReviewItem
from engram.store.sql.rows import checked, columns, equal, record
from engram.store.sql.session import SqlPart

_COLUMNS = columns(ReviewItem)


def _matching(namespace: str, status: str | None) -> tuple[str, list[Any]]:
    return equal(namespace=namespace, status=checked(status, REVIEW_STATUSES, "review status"))


class SqlReview(SqlPart, ReviewStore):
    """``ReviewStore`` on either engine."""

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
            # One pending item per (target, action), or per (memory, action) for a
            # proposal with no target: one old fact is one question to a person. The
            # extract job's UPDATE and retroactive supersession can both propose the
            # same change, and two statements can each close the same old value ("moved
            # to Glasgow", then "I live in Partick now", both over "lives in Bristol");
            # approving either supersedes the old fact, and the other new fact stays
            # current whatever the answer.
            keyed = "memory_id = ? AND target_id IS NULL" if target_id is None else "target_id = ?"
            pending = conn.execute(
                f"SELECT {_COLUMNS} FROM review_queue WHERE namespace = ? AND {keyed} "
                "AND action = ? AND status = 'pending' ORDER BY id LIMIT 1",
                (namespace, memory_id if target_id is None else target_id, action),
            ).fetchone()
            if pending is not None:
                return record(d, ReviewItem, pending)
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
        return record(d, ReviewItem, row)

    def get(self, namespace: str, item_id: int) -> ReviewItem | None:
        return self._keyed(ReviewItem, "review_queue", (namespace, "id", item_id))

    def select(
        self, namespace: str, *, status: str | None = "pending", limit: int = 100, offset: int = 0
    ) -> list[ReviewItem]:
        where, params = _matching(namespace, status)
        return self._records(
            ReviewItem,
            f"SELECT {_COLUMNS} FROM review_queue WHERE {where} ORDER BY id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )

    def count(self, namespace: str, *, status: str | None = "pending") -> int:
        where, params = _matching(namespace, status)
        return self._read_count(f"SELECT count(*) FROM review_queue WHERE {where}", params)

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
            return self._found(
                conn,
                ReviewItem,
                "UPDATE review_queue SET status = ?, resolved_by = ?, note = ?, "
                "resolved_at = ? WHERE namespace = ? AND id = ? AND status = 'pending' "
                f"RETURNING {_COLUMNS}",
                (status, actor, note, self._d.ts(now), namespace, item_id),
                f"no pending review item {item_id} in namespace {namespace!r}; "
                "`engram review list` shows them",
            )

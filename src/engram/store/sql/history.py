"""A memory's audit rows and its locked read, inside a caller's transaction.

Every concern that changes a memory (feedback, lifecycle, transfer, curation ...) reads
it with ``live`` and appends to ``memory_history`` with ``history_row`` and
``write_history``, so each change is audited the same way on both engines.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import NotFoundError
from engram.records import MemoryRecord
from engram.store.sql.codec import SELECT, audit, from_row
from engram.store.sql.dialect import Conn, Dialect


def history_row(
    d: Dialect,
    record: MemoryRecord,
    event: str,
    before: MemoryRecord | None,
    after: MemoryRecord | None,
    actor: str | None,
    reason: str | None,
    now: datetime,
) -> tuple[Any, ...]:
    """The parameters of one ``memory_history`` row, for ``write_history``."""
    return (
        record.id,
        record.namespace,
        event,
        audit(before),
        audit(after),
        d.text(actor, "actor"),
        d.text(reason, "reason"),
        d.ts(now),
    )


def write_history(conn: Conn, d: Dialect, rows: Sequence[tuple[Any, ...]]) -> None:
    """Append audit rows (made by ``history_row``) inside the caller's transaction."""
    if rows:
        conn.executemany(
            "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
            f"reason, created_at) VALUES (?, ?, ?, {d.json}, {d.json}, ?, ?, ?)",
            rows,
        )


def live(conn: Conn, d: Dialect, namespace: str, memory_id: str) -> MemoryRecord:
    """A live memory read inside the caller's transaction; ``NotFoundError`` if none.
    On PostgreSQL the row is locked (``FOR UPDATE``), so concurrent read-modify-writes
    of one memory serialise as ``BEGIN IMMEDIATE`` serialises them on SQLite."""
    row = conn.execute(
        SELECT + f" WHERE m.namespace = ? AND m.id = ? AND m.deleted_at IS NULL{d.for_update}",
        (namespace, memory_id),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
    return from_row(d, row)

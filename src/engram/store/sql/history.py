"""A memory's audit rows and its locked read, inside a caller's transaction.

Every concern that changes a memory (feedback, lifecycle, transfer, curation ...) reads
it with ``live`` and appends to ``memory_history`` with ``history_row`` and
``write_history``, so each change is audited the same way on both engines.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.ids import no_memory
from engram.records import MemoryRecord
from engram.store.sql.codec import SELECT, audit, from_row
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.rows import found

_RUN = threading.local()


@contextmanager
def job_run(job_id: int) -> Iterator[None]:
    """Mark this thread's history writes, while a job's handler runs, with a key that
    names the job, the memory and the write's place among the job's writes to that
    memory (``job_key``).

    A worker killed after a handler's writes but before the job was finished leaves
    the lease to expire; the job then runs again (a new attempt) and makes the same
    writes in the same order, with the same keys, and a unique index on
    ``memory_history.job_key`` makes each a no-op (engram issue 26, item 6: a re-run
    wrote 2 ``proposal`` and 3 ``dedup`` rows twice). The attempt is left out of the
    key on purpose: the re-run is a later attempt of the same work."""
    outer = getattr(_RUN, "job", None)
    _RUN.job, _RUN.seen = job_id, Counter()
    try:
        yield
    finally:
        _RUN.job = outer


def job_key(memory_id: str) -> str | None:
    """The next history write's key in the running job; None outside a job."""
    job = getattr(_RUN, "job", None)
    if job is None:
        return None
    seen: Counter[str] = _RUN.seen
    n = seen[memory_id]
    seen[memory_id] += 1
    return f"{job}:{memory_id}:{n}"


#: How a history row is written: a job's re-run writes nothing twice (``job_run``).
INSERT_HISTORY = (
    "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, reason, "
    "created_at, job_key) VALUES (?, ?, ?, {before}, {after}, ?, ?, ?, ?) "
    "ON CONFLICT DO NOTHING"
)


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
            INSERT_HISTORY.format(before=d.json, after=d.json),
            [(*row, job_key(row[0])) for row in rows],
        )


def live(conn: Conn, d: Dialect, namespace: str, memory_id: str) -> MemoryRecord:
    """A live memory read inside the caller's transaction; ``NotFoundError`` if none.
    On PostgreSQL the row is locked (``FOR UPDATE``), so concurrent read-modify-writes
    of one memory serialise as ``BEGIN IMMEDIATE`` serialises them on SQLite."""
    row = found(
        conn,
        SELECT + f" WHERE m.namespace = ? AND m.id = ? AND m.deleted_at IS NULL{d.for_update}",
        (namespace, memory_id),
        no_memory(memory_id, namespace),
    )
    return from_row(d, row)

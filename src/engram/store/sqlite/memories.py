"""Memories in the SQLite store: the ``memories`` rows and their audit history.

Implements ``engram.store.protocols.MemoryStore`` on the backend's shared
``Database``; the namespace's FTS5 index follows every write through triggers (see
``engram.store.sqlite.fts``), inside the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
from engram.records import HistoryEntry, MemoryRecord
from engram.store import schema
from engram.store.protocols.memories import InsertResult, ListQuery, MemoryFacts
from engram.store.sqlite.codec import (
    HISTORY_COLUMNS,
    INSERT,
    SELECT,
    audit,
    encode,
    from_row,
    history_from_row,
    to_row,
    ts,
)
from engram.store.sqlite.db import Database
from engram.text import normalize_content


def write_history(
    conn: sqlite3.Connection,
    record: MemoryRecord,
    event: str,
    before: MemoryRecord | None,
    after: MemoryRecord | None,
    actor: str | None,
    reason: str | None,
    now: str,
) -> None:
    """Append one audit row inside the caller's transaction."""
    conn.execute(
        "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
        "reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (record.id, record.namespace, event, audit(before), audit(after), actor, reason, now),
    )


#: Where a ``SELECT`` row holds the content hash.
_HASH = schema.MEMORY_COLUMNS.index("content_hash")


def _stored(
    conn: sqlite3.Connection, records: Sequence[MemoryRecord]
) -> dict[tuple[str, str], tuple[Any, ...]]:
    """The live rows already holding the content of ``records``, by (namespace, content
    hash): one indexed read per namespace and 500 hashes, not one per record."""
    wanted: dict[str, set[str]] = {}
    for record in records:
        wanted.setdefault(record.namespace, set()).add(record.content_hash)
    found: dict[tuple[str, str], tuple[Any, ...]] = {}
    for namespace, hashes in wanted.items():
        ordered = sorted(hashes)
        for start in range(0, len(ordered), 500):
            chunk = ordered[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            for row in conn.execute(
                SELECT + f" WHERE m.namespace = ? AND m.content_hash IN ({marks}) "
                "AND m.deleted_at IS NULL",
                (namespace, *chunk),
            ):
                found[(namespace, row[_HASH])] = tuple(row)
    return found


def live(conn: sqlite3.Connection, namespace: str, memory_id: str) -> MemoryRecord:
    """A live memory read inside the caller's transaction; ``NotFoundError`` if none."""
    row = conn.execute(
        SELECT + " WHERE m.namespace = ? AND m.id = ? AND m.deleted_at IS NULL",
        (namespace, memory_id),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
    return from_row(row)


def _metadata_clause(key: str, value: Any) -> tuple[str, list[Any]]:
    """A filter on one metadata key, matched by ``key = ?`` in ``json_each``: a JSON path
    (``$."key"``) cannot address every key (one with a quote is a path error).

    Strings match JSON strings only; numbers and booleans compare as numbers (true is
    1, false 0); None matches a JSON null or a missing key. PostgreSQL's clause (in
    ``engram.store.postgres.memories``) gives the same answers.
    """
    if value is None:
        return (
            "NOT EXISTS (SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ? "
            "AND j.type != 'null')",
            [key],
        )
    if isinstance(value, str):
        kinds = "'text'"
    elif isinstance(value, bool | int | float):
        kinds = "'integer', 'real', 'true', 'false'"
        value = int(value) if isinstance(value, bool) else value
    else:
        raise InvalidInputError(
            f"metadata filter {key!r} must be a string, number, boolean or None, "
            f"got {type(value).__name__}"
        )
    return (
        "EXISTS (SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ? "
        f"AND j.type IN ({kinds}) AND j.value = ?)",
        [key, value],
    )


def _where(namespace: str, query: ListQuery) -> tuple[str, list[Any]]:
    """The WHERE clause and parameters of ``query``'s filters (no order, no page)."""
    where = ["m.namespace = ?"]
    params: list[Any] = [namespace]
    if not query.include_deleted:
        where.append("m.deleted_at IS NULL")
    for column in ("type", "category", "user_id", "agent_id", "run_id", "session_id"):
        value = getattr(query, column)
        if value is not None:
            where.append(f"m.{column} = ?")
            params.append(str(value))
    if query.tags:
        # One clause however many tags: a clause per tag passes SQLite's expression
        # depth (1000) at a few hundred tags. The wanted tags travel as one JSON
        # array, so no count of them reaches the bound-parameter limit either.
        wanted = list(dict.fromkeys(query.tags))
        where.append(
            "(SELECT count(DISTINCT t.value) FROM json_each(m.tags) t WHERE t.type = 'text' "
            "AND t.value IN (SELECT w.value FROM json_each(?) w)) = ?"
        )
        params.extend([json.dumps(wanted), len(wanted)])
    for key, value in query.metadata.items():
        clause, values = _metadata_clause(str(key), value)
        where.append(clause)
        params.extend(values)
    if query.min_quality is not None:
        where.append("m.quality >= ?")
        params.append(query.min_quality)
    if query.max_quality is not None:
        where.append("m.quality <= ?")
        params.append(query.max_quality)
    if query.created_after is not None:
        where.append("m.created_at >= ?")
        params.append(ts(query.created_after))
    if query.created_before is not None:
        where.append("m.created_at < ?")
        params.append(ts(query.created_before))
    if query.id_prefix is not None:
        # A range on the unique id index: U+10FFFF sorts after every other character.
        where.append("m.id >= ? AND m.id < ?")
        params.extend([query.id_prefix, query.id_prefix + "\U0010ffff"])
    return " AND ".join(where), params


class SQLiteMemories:
    """The SQLite implementation of ``MemoryStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def insert(
        self, records: Sequence[MemoryRecord], *, actor: str | None = None
    ) -> list[InsertResult]:
        """Insert records in one transaction; exact duplicates return the existing memory."""
        results: list[InsertResult] = []
        now = ts(self._db.clock())
        try:
            with self._db.tx() as conn:
                stored = _stored(conn, records)
                written: set[tuple[str, str]] = set()
                for record in records:
                    key = (record.namespace, record.content_hash)
                    existing = stored.get(key)
                    if key in written:  # the batch repeats itself: read the copy it wrote
                        existing = conn.execute(
                            SELECT + " WHERE m.namespace = ? AND m.content_hash = ? "
                            "AND m.deleted_at IS NULL",
                            key,
                        ).fetchone()
                    if existing is not None:
                        found = from_row(existing)
                        write_history(
                            conn,
                            found,
                            "dedup",
                            None,
                            None,
                            actor,
                            "identical content already stored",
                            now,
                        )
                        results.append(InsertResult(found, created=False))
                        continue
                    normalized = normalize_content(record.content).normalized
                    conn.execute(INSERT, to_row(record, normalized))
                    write_history(conn, record, "create", None, record, actor, None, now)
                    written.add(key)
                    results.append(InsertResult(record, created=True))
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"cannot insert memory: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"insert failed: {exc}") from exc
        return results

    def get(
        self, namespace: str, memory_id: str, *, include_deleted: bool = False
    ) -> MemoryRecord | None:
        """One memory of ``namespace``, or None."""
        sql = SELECT + " WHERE m.namespace = ? AND m.id = ?"
        if not include_deleted:
            sql += " AND m.deleted_at IS NULL"
        with self._db.read() as conn:
            row = conn.execute(sql, (namespace, memory_id)).fetchone()
        return None if row is None else from_row(row)

    def get_many(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Live memories of ``namespace`` by id; unknown ids are left out."""
        out: dict[str, MemoryRecord] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._db.read() as conn:
            # Stay well under SQLite's bound-parameter limit.
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                rows = conn.execute(
                    # ``+m.namespace`` keeps SQLite on the unique id index; with the
                    # namespace index it would scan the whole namespace (10x slower).
                    SELECT + f" WHERE +m.namespace = ? AND m.deleted_at IS NULL "
                    f"AND m.id IN ({marks})",
                    (namespace, *chunk),
                ).fetchall()
                for row in rows:
                    record = from_row(row)
                    out[record.id] = record
        return out

    def select(self, namespace: str, query: ListQuery) -> list[MemoryRecord]:
        """Memories of ``namespace`` matching every filter in ``query``."""
        where, params = _where(namespace, query)
        order = "DESC" if query.newest_first else "ASC"
        sql = (
            SELECT + f" WHERE {where} ORDER BY m.created_at {order}, m.seq {order} LIMIT ? OFFSET ?"
        )
        params.extend([query.limit, query.offset])
        with self._db.read() as conn:
            return [from_row(r) for r in conn.execute(sql, params).fetchall()]

    def count(
        self, namespace: str, *, include_deleted: bool = False, query: ListQuery | None = None
    ) -> int:
        """How many memories ``namespace`` holds (that match ``query``'s filters)."""
        query = query or ListQuery(include_deleted=include_deleted)
        where, params = _where(namespace, query)
        with self._db.read() as conn:
            return int(
                conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0]
            )

    def session_members(
        self, namespace: str, session_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        """Live members of ``session_ids``, oldest first; sessions with more than
        ``max_members`` live members are left out."""
        wanted = sorted(set(session_ids))
        if not wanted:
            return {}
        with self._db.read() as conn:
            marks = ", ".join("?" for _ in wanted)
            sizes = dict(
                conn.execute(
                    "SELECT session_id, count(*) FROM memories WHERE namespace = ? "
                    f"AND session_id IN ({marks}) AND deleted_at IS NULL GROUP BY session_id",
                    (namespace, *wanted),
                ).fetchall()
            )
            small = [sid for sid in wanted if 0 < sizes.get(sid, 0) <= max_members]
            out: dict[str, list[str]] = {sid: [] for sid in small}
            if small:
                marks = ", ".join("?" for _ in small)
                for session, memory_id in conn.execute(
                    "SELECT session_id, id FROM memories WHERE namespace = ? "
                    f"AND session_id IN ({marks}) AND deleted_at IS NULL "
                    "ORDER BY session_id, created_at, seq",
                    (namespace, *small),
                ):
                    out[session].append(memory_id)
        return out

    def facts(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryFacts]:
        """Creation time, session and length of live memories of ``namespace`` by id."""
        ids = list(dict.fromkeys(memory_ids))
        out: dict[str, MemoryFacts] = {}
        with self._db.read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                for memory_id, created, session, chars in conn.execute(
                    # ``+namespace`` keeps SQLite on the unique id index: with a
                    # namespace index it scans the whole namespace (at 100k: 126 ms).
                    "SELECT id, created_at, session_id, length(content) FROM memories "
                    f"WHERE +namespace = ? AND deleted_at IS NULL AND id IN ({marks})",
                    (namespace, *chunk),
                ):
                    out[memory_id] = MemoryFacts(datetime.fromisoformat(created), session, chars)
        return out

    def update(
        self,
        namespace: str,
        memory_id: str,
        changes: Mapping[str, Any],
        *,
        event: str = "update",
        actor: str | None = None,
        reason: str | None = None,
    ) -> tuple[MemoryRecord, MemoryRecord]:
        """Apply ``changes`` to a live memory, audit them, and return (before, after)."""
        schema.check_updatable(changes)
        try:
            with self._db.tx() as conn:
                before = live(conn, namespace, memory_id)
                values, after = schema.planned_update(before, changes)
                if after.content_hash != before.content_hash:
                    clash = conn.execute(
                        "SELECT id FROM memories WHERE namespace = ? AND content_hash = ? "
                        "AND deleted_at IS NULL AND id != ?",
                        (namespace, after.content_hash, memory_id),
                    ).fetchone()
                    if clash is not None:
                        raise schema.content_clash(clash[0])
                sets = ", ".join(f"{c} = ?" for c in values)
                params = [
                    v if c == "normalized" else encode(c, getattr(after, c))
                    for c, v in values.items()
                ]
                conn.execute(
                    f"UPDATE memories SET {sets} WHERE namespace = ? AND id = ?",
                    (*params, namespace, memory_id),
                )
                now = ts(self._db.clock())
                write_history(conn, after, event, before, after, actor, reason, now)
        except sqlite3.Error as exc:
            raise StoreError(f"update failed: {exc}") from exc
        return before, after

    def delete(self, namespace: str, memory_id: str, *, actor: str | None = None) -> MemoryRecord:
        """Tombstone a memory; it disappears from search, list and recall."""
        try:
            with self._db.tx() as conn:
                before = live(conn, namespace, memory_id)
                now = self._db.clock()
                after = before.with_changes(deleted_at=now, updated_at=now)
                conn.execute(
                    "UPDATE memories SET deleted_at = ?, updated_at = ? "
                    "WHERE namespace = ? AND id = ?",
                    (ts(now), ts(now), namespace, memory_id),
                )
                write_history(conn, after, "delete", before, after, actor, None, ts(now))
        except sqlite3.Error as exc:
            raise StoreError(f"delete failed: {exc}") from exc
        return after

    def purge(self, namespace: str | None = None) -> int:
        """Hard-delete tombstoned memories with their vectors, history and feedback."""
        where = "deleted_at IS NOT NULL" + ("" if namespace is None else " AND namespace = ?")
        params: tuple[Any, ...] = () if namespace is None else (namespace,)
        try:
            with self._db.tx() as conn:
                ids = [r[0] for r in conn.execute(f"SELECT id FROM memories WHERE {where}", params)]
                for start in range(0, len(ids), 500):
                    chunk = ids[start : start + 500]
                    marks = ", ".join("?" for _ in chunk)
                    conn.execute(f"DELETE FROM memory_history WHERE memory_id IN ({marks})", chunk)
                    conn.execute(
                        f"DELETE FROM memory_feedback_log WHERE memory_id IN ({marks})", chunk
                    )
                conn.execute(f"DELETE FROM memories WHERE {where}", params)
        except sqlite3.Error as exc:
            raise StoreError(f"purge failed: {exc}") from exc
        return len(ids)

    def history(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """The audit trail of one memory, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {HISTORY_COLUMNS} FROM memory_history "
                "WHERE namespace = ? AND memory_id = ? ORDER BY id",
                (namespace, memory_id),
            ).fetchall()
        return [history_from_row(r) for r in rows]

    def namespaces(self) -> dict[str, int]:
        """Live memory counts per namespace."""
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT namespace, count(*) FROM memories WHERE deleted_at IS NULL "
                "GROUP BY namespace ORDER BY namespace"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

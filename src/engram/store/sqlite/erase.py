"""Erase on SQLite (issue 14): hard deletes in one transaction, with an ``erase_audit``
row that no erase removes.

A whole-namespace erase reaches every table with a ``namespace`` column (found in the
schema, so a concern added later is erased too) except ``KEPT_TABLES``: ``memories``
first (its triggers queue the keyword-index removals; vectors, chunk vectors, hints,
graph mentions and palace drawers go by ``ON DELETE CASCADE``), then the other tables
newest first, so a table is emptied before the tables it references.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import StoreError
from engram.store.protocols.erase import KEPT_TABLES, EraseAudit
from engram.store.sqlite import hints
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

#: Ids per statement: well under SQLite's bound-parameter limit.
CHUNK = 500
_COLUMNS = (
    "id, namespace, actor, filters, whole_namespace, memories_erased, rows_erased, created_at"
)


def _audit_row(row: Sequence[Any]) -> EraseAudit:
    created = parse_ts(row[7])
    assert created is not None  # NOT NULL column
    return EraseAudit(
        id=int(row[0]),
        namespace=row[1],
        actor=row[2],
        filters=json.loads(row[3]),
        whole_namespace=bool(row[4]),
        memories=int(row[5]),
        rows=int(row[6]),
        created_at=created,
    )


def _namespaced_tables(conn: sqlite3.Connection) -> list[str]:
    """Tables with a ``namespace`` column, in creation order, ``KEPT_TABLES`` left out."""
    names = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY rowid"
        )
    ]
    out = []
    for name in names:
        columns = {r[1] for r in conn.execute(f"PRAGMA table_info('{name}')")}
        if "namespace" in columns and name not in KEPT_TABLES:
            out.append(name)
    return out


def _erase_namespace(conn: sqlite3.Connection, namespace: str) -> tuple[int, int]:
    tables = _namespaced_tables(conn)
    memories = conn.execute("DELETE FROM memories WHERE namespace = ?", (namespace,)).rowcount
    rows = memories
    for table in reversed([t for t in tables if t != "memories"]):
        rows += conn.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,)).rowcount
    return memories, rows


def _erase_memories(
    conn: sqlite3.Connection, namespace: str, memory_ids: Sequence[str]
) -> tuple[int, int]:
    memories = rows = 0
    for start in range(0, len(memory_ids), CHUNK):
        chunk = list(memory_ids[start : start + CHUNK])
        marks = ", ".join("?" for _ in chunk)
        for table in ("memory_history", "memory_feedback_log", "memory_jobs"):
            rows += conn.execute(
                f"DELETE FROM {table} WHERE namespace = ? AND memory_id IN ({marks})",
                (namespace, *chunk),
            ).rowcount
        rows += conn.execute(
            f"DELETE FROM review_queue WHERE namespace = ? AND (memory_id IN ({marks}) "
            f"OR target_id IN ({marks}))",
            (namespace, *chunk, *chunk),
        ).rowcount
        rows += conn.execute(
            f"DELETE FROM document_memories WHERE memory_id IN ({marks}) AND memory_id IN "
            f"(SELECT id FROM memories WHERE namespace = ?)",
            (*chunk, namespace),
        ).rowcount
        erased = conn.execute(
            f"DELETE FROM memories WHERE +namespace = ? AND id IN ({marks})", (namespace, *chunk)
        ).rowcount
        memories += erased
        rows += erased
    return memories, rows


class SQLiteErase:
    """The SQLite implementation of ``EraseStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def erase(
        self,
        namespace: str,
        memory_ids: Sequence[str] | None,
        *,
        actor: str | None,
        filters: Mapping[str, Any],
        now: datetime,
    ) -> EraseAudit:
        """Hard-delete and audit in one transaction (see ``EraseStore.erase``)."""
        try:
            with self._db.tx() as conn:
                if memory_ids is None:
                    memories, rows = _erase_namespace(conn, namespace)
                else:
                    memories, rows = _erase_memories(conn, namespace, memory_ids)
                hints.flush(conn)  # the hint index's copies go now, not at the next write
                cur = conn.execute(
                    "INSERT INTO erase_audit(namespace, actor, filters, whole_namespace, "
                    "memories_erased, rows_erased, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        namespace,
                        actor,
                        json.dumps(dict(filters), sort_keys=True),
                        memory_ids is None,
                        memories,
                        rows,
                        ts(now),
                    ),
                )
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM erase_audit WHERE id = ?", (cur.lastrowid,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"erase failed: {exc}") from exc
        return _audit_row(row)

    def audit(self, namespace: str | None, *, limit: int, offset: int) -> list[EraseAudit]:
        """Audit rows, newest first."""
        where, params = ("", ()) if namespace is None else ("WHERE namespace = ?", (namespace,))
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM erase_audit {where} ORDER BY id DESC LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
        return [_audit_row(r) for r in rows]

    def namespaces(self) -> list[str]:
        """Every namespace with a row an erase reaches."""
        with self._db.read() as conn:
            tables = _namespaced_tables(conn)
            union = " UNION ".join(f"SELECT namespace FROM {t}" for t in tables)
            return [r[0] for r in conn.execute(f"SELECT namespace FROM ({union}) ORDER BY 1")]

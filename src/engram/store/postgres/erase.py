"""Erase on PostgreSQL (issue 14), as on SQLite: hard deletes in one transaction, with
an ``erase_audit`` row that no erase removes.

A whole-namespace erase reaches every table of the schema with a ``namespace`` column
except ``KEPT_TABLES``: ``memories`` first (vectors, chunk vectors, hints, graph mentions
and palace drawers go by ``ON DELETE CASCADE``), then the other tables newest first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.erase import KEPT_TABLES, EraseAudit

_COLUMNS = (
    "id, namespace, actor, filters, whole_namespace, memories_erased, rows_erased, created_at"
)


def _audit_row(row: Sequence[Any]) -> EraseAudit:
    return EraseAudit(
        id=int(row[0]),
        namespace=row[1],
        actor=row[2],
        filters=dict(row[3]),
        whole_namespace=bool(row[4]),
        memories=int(row[5]),
        rows=int(row[6]),
        created_at=row[7],
    )


def _namespaced_tables(conn: psycopg.Connection[Any]) -> list[str]:
    """Tables of the current schema with a ``namespace`` column, oldest first (by oid),
    partitions and ``KEPT_TABLES`` left out."""
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "JOIN pg_attribute a ON a.attrelid = c.oid "
        "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') "
        "AND NOT c.relispartition AND a.attname = 'namespace' AND NOT a.attisdropped "
        "ORDER BY c.oid"
    ).fetchall()
    return [r[0] for r in rows if r[0] not in KEPT_TABLES]


def _delete(conn: psycopg.Connection[Any], table: str, namespace: str) -> int:
    query = sql.SQL("DELETE FROM {} WHERE namespace = %s").format(sql.Identifier(table))
    return conn.execute(query, (namespace,)).rowcount


def _erase_namespace(conn: psycopg.Connection[Any], namespace: str) -> tuple[int, int]:
    tables = _namespaced_tables(conn)
    memories = _delete(conn, "memories", namespace)
    rows = memories
    for table in reversed([t for t in tables if t != "memories"]):
        rows += _delete(conn, table, namespace)
    return memories, rows


def _erase_memories(
    conn: psycopg.Connection[Any], namespace: str, memory_ids: Sequence[str]
) -> tuple[int, int]:
    ids = list(memory_ids)
    rows = 0
    for table in ("memory_history", "memory_feedback_log", "memory_jobs"):
        rows += conn.execute(
            sql.SQL("DELETE FROM {} WHERE namespace = %s AND memory_id = ANY(%s)").format(
                sql.Identifier(table)
            ),
            (namespace, ids),
        ).rowcount
    rows += conn.execute(
        "DELETE FROM review_queue WHERE namespace = %s "
        "AND (memory_id = ANY(%s) OR target_id = ANY(%s))",
        (namespace, ids, ids),
    ).rowcount
    rows += conn.execute(
        "DELETE FROM document_memories WHERE memory_id = ANY(%s) "
        "AND memory_id IN (SELECT id FROM memories WHERE namespace = %s)",
        (ids, namespace),
    ).rowcount
    memories = conn.execute(
        "DELETE FROM memories WHERE namespace = %s AND id = ANY(%s)", (namespace, ids)
    ).rowcount
    return memories, rows + memories


class PgErase:
    """The PostgreSQL implementation of ``EraseStore``."""

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
        with self._db.tx("erase") as conn:
            if memory_ids is None:
                memories, rows = _erase_namespace(conn, namespace)
            else:
                memories, rows = _erase_memories(conn, namespace, memory_ids)
            row = conn.execute(
                "INSERT INTO erase_audit(namespace, actor, filters, whole_namespace, "
                "memories_erased, rows_erased, created_at) "
                f"VALUES (%s, %s, %s::jsonb, %s, %s, %s, %s) RETURNING {_COLUMNS}",
                (
                    namespace,
                    codec.check_text(actor, "actor"),
                    codec.dumps(dict(filters)),
                    memory_ids is None,
                    memories,
                    rows,
                    now,
                ),
            ).fetchone()
        assert row is not None  # INSERT ... RETURNING
        return _audit_row(row)

    def audit(self, namespace: str | None, *, limit: int, offset: int) -> list[EraseAudit]:
        """Audit rows, newest first."""
        where, params = ("", ()) if namespace is None else ("WHERE namespace = %s", (namespace,))
        with self._db.read("reading the erase audit") as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM erase_audit {where} ORDER BY id DESC LIMIT %s OFFSET %s",
                (*params, limit, offset),
            ).fetchall()
        return [_audit_row(r) for r in rows]

    def namespaces(self) -> list[str]:
        """Every namespace with a row an erase reaches."""
        with self._db.read("listing namespaces") as conn:
            tables = _namespaced_tables(conn)
            union = sql.SQL(" UNION ").join(
                sql.SQL("SELECT namespace FROM {}").format(sql.Identifier(t)) for t in tables
            )
            query = sql.SQL("SELECT namespace FROM ({}) AS n ORDER BY 1").format(union)
            return [r[0] for r in conn.execute(query).fetchall()]

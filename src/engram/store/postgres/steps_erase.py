"""PostgreSQL schema step of the erase audit (issue 14), as SQLite's ``021_erase_audit``.
Never edit it once shipped; add a step."""

from __future__ import annotations

import psycopg


def m017_erase_audit(conn: psycopg.Connection) -> None:
    """``erase_audit``: who erased what, when, with which filters, and how much."""
    conn.execute(
        """
        CREATE TABLE erase_audit (
            id BIGSERIAL PRIMARY KEY,
            namespace TEXT COLLATE "C" NOT NULL,
            actor TEXT,
            filters JSONB NOT NULL,
            whole_namespace BOOLEAN NOT NULL,
            memories_erased BIGINT NOT NULL,
            rows_erased BIGINT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL
        )
        """
    )
    conn.execute("CREATE INDEX erase_audit_namespace ON erase_audit(namespace, id)")

"""SQLite schema step of the erase audit (issue 14): one row per erase, in a table no
erase deletes from. Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m021_erase_audit(conn: sqlite3.Connection) -> None:
    """``erase_audit``: who erased what, when, with which filters, and how much."""
    _run_script(
        conn,
        """
        CREATE TABLE erase_audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            actor TEXT,
            filters TEXT NOT NULL,
            whole_namespace INTEGER NOT NULL,
            memories_erased INTEGER NOT NULL,
            rows_erased INTEGER NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX erase_audit_namespace ON erase_audit(namespace, id);
        """,
    )

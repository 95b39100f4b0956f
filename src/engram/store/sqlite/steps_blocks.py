"""SQLite schema step of core memory blocks (FEATURES S5; seed 002's self-editing
strategy). Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m025_core_blocks(conn: sqlite3.Connection) -> None:
    """Core blocks, and their edit history (append-only: no code path updates it)."""
    _run_script(
        conn,
        """
        CREATE TABLE core_blocks (
            namespace TEXT NOT NULL,
            label TEXT NOT NULL,
            value TEXT NOT NULL,
            char_limit INTEGER NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            read_only INTEGER NOT NULL DEFAULT 0,
            version INTEGER NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (namespace, label)
        );
        CREATE TABLE core_block_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            label TEXT NOT NULL,
            op TEXT NOT NULL,
            old_value TEXT,
            new_value TEXT,
            actor TEXT,
            at TEXT NOT NULL
        );
        CREATE INDEX core_block_history_by_block
            ON core_block_history(namespace, label, id);
        """,
    )

"""SQLite schema step of the lifecycle (FEATURES S8, S9): seed 002's archive with its
archival index, agent retention overrides, and the indexes seed 004's retention worker
sweeps by. Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m026_lifecycle(conn: sqlite3.Connection) -> None:
    """The archive of consolidated originals, retention overrides, sweep indexes."""
    _run_script(
        conn,
        """
        CREATE TABLE memory_archive (
            archive_id TEXT PRIMARY KEY,
            namespace TEXT NOT NULL,
            original_id TEXT NOT NULL,
            summary_id TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('abstractive', 'extractive')),
            category TEXT,
            record TEXT NOT NULL,
            original_created_at TEXT NOT NULL,
            archived_at TEXT NOT NULL,
            UNIQUE (namespace, original_id)
        );
        CREATE INDEX memory_archive_summary ON memory_archive(namespace, summary_id);
        CREATE INDEX memory_archive_age ON memory_archive(namespace, original_created_at);
        CREATE TABLE retention_overrides (
            namespace TEXT NOT NULL,
            category TEXT NOT NULL,
            days INTEGER NOT NULL CHECK (days >= 1),
            PRIMARY KEY (namespace, category)
        );
        CREATE INDEX memories_tombstoned ON memories(deleted_at) WHERE deleted_at IS NOT NULL;
        CREATE INDEX memory_history_age ON memory_history(created_at);
        CREATE INDEX memory_jobs_finished ON memory_jobs(status, completed_at, failed_at);
        """,
    )

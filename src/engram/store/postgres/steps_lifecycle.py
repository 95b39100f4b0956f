"""PostgreSQL schema step of the lifecycle (FEATURES S8, S9), as SQLite's
``026_lifecycle``. Never edit it once shipped; add a step."""

from __future__ import annotations

import psycopg


def m022_lifecycle(conn: psycopg.Connection) -> None:
    """As SQLite's 026: the archive, retention overrides, sweep indexes."""
    conn.execute(
        """
        CREATE TABLE memory_archive (
            archive_id TEXT COLLATE "C" PRIMARY KEY,
            namespace TEXT COLLATE "C" NOT NULL,
            original_id TEXT COLLATE "C" NOT NULL,
            summary_id TEXT COLLATE "C" NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('abstractive', 'extractive')),
            category TEXT,
            record JSONB NOT NULL,
            original_created_at TIMESTAMPTZ NOT NULL,
            archived_at TIMESTAMPTZ NOT NULL,
            UNIQUE (namespace, original_id)
        )
        """
    )
    conn.execute("CREATE INDEX memory_archive_summary ON memory_archive(namespace, summary_id)")
    conn.execute(
        "CREATE INDEX memory_archive_age ON memory_archive(namespace, original_created_at)"
    )
    conn.execute(
        """
        CREATE TABLE retention_overrides (
            namespace TEXT COLLATE "C" NOT NULL,
            category TEXT NOT NULL,
            days INTEGER NOT NULL CHECK (days >= 1),
            PRIMARY KEY (namespace, category)
        )
        """
    )
    conn.execute(
        "CREATE INDEX memories_tombstoned ON memories(deleted_at) WHERE deleted_at IS NOT NULL"
    )
    conn.execute("CREATE INDEX memory_history_age ON memory_history(created_at)")
    conn.execute(
        "CREATE INDEX memory_jobs_finished ON memory_jobs(status, completed_at, failed_at)"
    )

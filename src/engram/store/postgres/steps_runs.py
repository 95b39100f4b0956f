"""PostgreSQL schema step of the run log (FEATURES H1, H2; seed 000's ``RunTrace``), as
SQLite's ``019_runs``. Never edit it once shipped; add a step."""

from __future__ import annotations

import psycopg


def m015_runs(conn: psycopg.Connection) -> None:
    """As SQLite's 019: ``runs`` and ``run_memory_hits`` (no foreign key to
    ``memories``: the log outlives a purged memory)."""
    conn.execute(
        """
        CREATE TABLE runs (
            namespace TEXT COLLATE "C" NOT NULL,
            run_id TEXT COLLATE "C" NOT NULL,
            task TEXT,
            task_type TEXT,
            status TEXT NOT NULL,
            score DOUBLE PRECISION,
            tokens_in BIGINT,
            tokens_out BIGINT,
            output TEXT,
            output_chars BIGINT NOT NULL DEFAULT 0,
            output_path TEXT,
            issues json NOT NULL DEFAULT '[]',
            metadata json NOT NULL DEFAULT '{}',
            started_at TIMESTAMPTZ,
            finished_at TIMESTAMPTZ,
            created_at TIMESTAMPTZ NOT NULL,
            updated_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (namespace, run_id)
        );
        CREATE INDEX runs_ns_created ON runs(namespace, created_at);
        CREATE TABLE run_memory_hits (
            namespace TEXT COLLATE "C" NOT NULL,
            run_id TEXT COLLATE "C" NOT NULL,
            memory_id TEXT COLLATE "C" NOT NULL,
            rank INTEGER NOT NULL,
            score DOUBLE PRECISION,
            title TEXT,
            at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (namespace, run_id, memory_id),
            FOREIGN KEY (namespace, run_id) REFERENCES runs(namespace, run_id)
                ON DELETE CASCADE
        );
        CREATE INDEX run_memory_hits_memory ON run_memory_hits(namespace, memory_id);
        """
    )

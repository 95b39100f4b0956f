"""SQLite schema step of the run log (FEATURES H1, H2; seed 000's ``RunTrace``): runs and
the memories injected into each. Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m019_runs(conn: sqlite3.Connection) -> None:
    """``runs`` (one row per run of a namespace) and ``run_memory_hits`` (seed 000:
    ``log_memory_hits`` records which observations were injected, with their titles).
    A hit keeps no foreign key to ``memories``: the log outlives a purged memory."""
    _run_script(
        conn,
        """
        CREATE TABLE runs (
            namespace TEXT NOT NULL,
            run_id TEXT NOT NULL,
            task TEXT,
            task_type TEXT,
            status TEXT NOT NULL,
            score REAL,
            tokens_in INTEGER,
            tokens_out INTEGER,
            output TEXT,
            output_chars INTEGER NOT NULL DEFAULT 0,
            output_path TEXT,
            issues TEXT NOT NULL DEFAULT '[]',
            metadata TEXT NOT NULL DEFAULT '{}',
            started_at TEXT,
            finished_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (namespace, run_id)
        );
        CREATE INDEX runs_ns_created ON runs(namespace, created_at);
        CREATE TABLE run_memory_hits (
            namespace TEXT NOT NULL,
            run_id TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            rank INTEGER NOT NULL,
            score REAL,
            title TEXT,
            at TEXT NOT NULL,
            PRIMARY KEY (namespace, run_id, memory_id),
            FOREIGN KEY (namespace, run_id) REFERENCES runs(namespace, run_id)
                ON DELETE CASCADE
        );
        CREATE INDEX run_memory_hits_memory ON run_memory_hits(namespace, memory_id);
        """,
    )

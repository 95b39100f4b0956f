"""SQLite schema step of sessions (FEATURES S11, S13; seed 004's ``session_checkpoints``,
``session_memories`` and ``session_scores``). Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m022_sessions(conn: sqlite3.Connection) -> None:
    """Checkpoints, the memories injected into each session, and continuity scores."""
    _run_script(
        conn,
        """
        CREATE TABLE session_checkpoints (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            session_key TEXT NOT NULL,
            harness TEXT,
            project TEXT,
            project_normalized TEXT,
            trigger TEXT NOT NULL,
            digest TEXT NOT NULL,
            prompt_count INTEGER NOT NULL DEFAULT 0,
            memory_queries TEXT NOT NULL DEFAULT '[]',
            recent_remembers TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL
        );
        CREATE INDEX session_checkpoints_by_session
            ON session_checkpoints(namespace, session_key, id);
        CREATE INDEX session_checkpoints_by_time ON session_checkpoints(created_at);
        CREATE TABLE session_memories (
            namespace TEXT NOT NULL,
            session_key TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            rank INTEGER NOT NULL,
            was_injected INTEGER NOT NULL DEFAULT 1,
            relevance_score REAL,
            injected_at TEXT NOT NULL,
            PRIMARY KEY (namespace, session_key, memory_id)
        );
        CREATE TABLE session_scores (
            namespace TEXT NOT NULL,
            session_key TEXT NOT NULL,
            score REAL NOT NULL,
            confidence REAL NOT NULL,
            memories_recalled INTEGER NOT NULL,
            memories_used INTEGER NOT NULL,
            novel_context_count INTEGER NOT NULL,
            reasoning TEXT NOT NULL,
            method TEXT NOT NULL,
            per_memory TEXT NOT NULL DEFAULT '{}',
            scored_at TEXT NOT NULL,
            PRIMARY KEY (namespace, session_key)
        );
        """,
    )

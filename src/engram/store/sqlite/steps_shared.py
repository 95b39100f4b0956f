"""SQLite schema step of agent levels and shared knowledge (FEATURES S2, S3; seed 002's
``MemoryLevel`` per agent). Shared publications are memories in a shared namespace and
need no table of their own. Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m023_shared_knowledge(conn: sqlite3.Connection) -> None:
    """Agent profiles (each agent's memory level), and the lookup of an agent's
    session-level memories when its session ends."""
    _run_script(
        conn,
        """
        CREATE TABLE agent_profiles (
            agent_id TEXT PRIMARY KEY,
            level TEXT NOT NULL
                CHECK (level IN ('none', 'session', 'project', 'persistent')),
            project TEXT,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX memories_by_agent_session ON memories(agent_id, session_id)
            WHERE deleted_at IS NULL AND agent_id IS NOT NULL AND session_id IS NOT NULL;
        """,
    )

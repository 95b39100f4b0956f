"""PostgreSQL schema step of agent levels and shared knowledge (FEATURES S2, S3), as
SQLite's ``023_shared_knowledge``. Never edit it once shipped; add a step."""

from __future__ import annotations

import psycopg


def m019_shared_knowledge(conn: psycopg.Connection) -> None:
    """As SQLite's 023: agent profiles and the agent/session lookup."""
    conn.execute(
        """
        CREATE TABLE agent_profiles (
            agent_id TEXT COLLATE "C" PRIMARY KEY,
            level TEXT NOT NULL
                CHECK (level IN ('none', 'session', 'project', 'persistent')),
            project TEXT,
            updated_at TIMESTAMPTZ NOT NULL
        );
        CREATE INDEX memories_by_agent_session ON memories(agent_id, session_id)
            WHERE deleted_at IS NULL AND agent_id IS NOT NULL AND session_id IS NOT NULL;
        """
    )

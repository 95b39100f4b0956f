"""Agent profiles in the PostgreSQL store: each agent's memory level (FEATURES S2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.agents import AgentProfile, MemoryLevel, SessionMemory

#: Memories written at the session level carry this mark (``engram.agents``).
_SESSION_LEVEL = "metadata->>'memory_level' = 'session'"


def _profile(row: Sequence[Any]) -> AgentProfile:
    return AgentProfile(
        agent_id=row[0], level=MemoryLevel(row[1]), project=row[2], updated_at=codec.utc(row[3])
    )


class PgAgents:
    """The PostgreSQL implementation of ``AgentStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, agent_id: str) -> AgentProfile | None:
        with self._db.read("agent profile") as conn:
            row = conn.execute(
                "SELECT agent_id, level, project, updated_at FROM agent_profiles "
                "WHERE agent_id = %s",
                (agent_id,),
            ).fetchone()
        return None if row is None else _profile(row)

    def put(self, profile: AgentProfile) -> None:
        with self._db.tx("agent profile") as conn:
            conn.execute(
                "INSERT INTO agent_profiles(agent_id, level, project, updated_at) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (agent_id) DO UPDATE SET "
                "level = EXCLUDED.level, project = EXCLUDED.project, "
                "updated_at = EXCLUDED.updated_at",
                (profile.agent_id, profile.level.value, profile.project, profile.updated_at),
            )

    def remove(self, agent_id: str) -> bool:
        with self._db.tx("agent profile") as conn:
            cur = conn.execute("DELETE FROM agent_profiles WHERE agent_id = %s", (agent_id,))
            return cur.rowcount > 0

    def list_profiles(self, *, limit: int, offset: int) -> list[AgentProfile]:
        with self._db.read("agent profiles") as conn:
            rows = conn.execute(
                "SELECT agent_id, level, project, updated_at FROM agent_profiles "
                "ORDER BY agent_id LIMIT %s OFFSET %s",
                (limit, offset),
            ).fetchall()
        return [_profile(r) for r in rows]

    def session_memories(self, agent_id: str, session_id: str) -> list[SessionMemory]:
        with self._db.read("session memories") as conn:
            rows = conn.execute(
                "SELECT namespace, id FROM memories WHERE agent_id = %s AND session_id = %s "
                "AND deleted_at IS NULL "
                f"AND {_SESSION_LEVEL} ORDER BY namespace, created_at, id",
                (agent_id, session_id),
            ).fetchall()
        return [SessionMemory(r[0], r[1]) for r in rows]

"""Agent profiles: each agent's memory level (FEATURES S2)."""

from __future__ import annotations

from engram.store.protocols import AgentStore
from engram.store.protocols.agents import AgentProfile, SessionMemory
from engram.store.sql.rows import columns, upsert
from engram.store.sql.session import Sql, SqlPart

_COLUMNS = columns(AgentProfile)
_PROFILE = f"SELECT {_COLUMNS} FROM agent_profiles"


class SqlAgents(SqlPart, AgentStore):
    """``AgentStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        super().__init__(sql)
        #: Memories written at the session level carry this mark (``engram.agents``).
        self._session_level = f"{self._d.json_text('metadata', 'memory_level')} = 'session'"

    def get(self, agent_id: str) -> AgentProfile | None:
        sql = _PROFILE + " WHERE agent_id = ?"
        return self._record(AgentProfile, sql, (agent_id,), "agent profile")

    def put(self, profile: AgentProfile) -> None:
        with self._sql.tx("agent profile") as conn:
            conn.execute(
                upsert(self._d, "agent_profiles", _COLUMNS, "agent_id"),
                (
                    self._d.text(profile.agent_id, "agent id"),
                    profile.level.value,
                    self._d.text(profile.project, "project"),
                    self._d.ts(profile.updated_at),
                ),
            )

    def remove(self, agent_id: str) -> bool:
        with self._sql.tx("agent profile") as conn:
            cur = conn.execute("DELETE FROM agent_profiles WHERE agent_id = ?", (agent_id,))
            return cur.rowcount > 0

    def list_profiles(self, *, limit: int, offset: int) -> list[AgentProfile]:
        return self._records(
            AgentProfile,
            _PROFILE + " ORDER BY agent_id LIMIT ? OFFSET ?",
            (limit, offset),
            what="agent profiles",
        )

    def session_memories(self, agent_id: str, session_id: str) -> list[SessionMemory]:
        rows = self._rows(
            "SELECT namespace, id FROM memories WHERE agent_id = ? AND session_id = ? "
            f"AND deleted_at IS NULL AND {self._session_level} "
            "ORDER BY namespace, created_at, id",
            (agent_id, session_id),
            what="session memories",
        )
        return [SessionMemory(r[0], r[1]) for r in rows]

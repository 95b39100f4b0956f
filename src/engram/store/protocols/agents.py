"""The agents part of a store: each agent's memory level (seed 002's ``MemoryLevel``)
and the session-level memories a finished session leaves behind (FEATURES S2)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable


class MemoryLevel(StrEnum):
    """How much of an agent's memory persists (seed 002's ``MemoryLevel``)."""

    NONE = "none"
    """Nothing: the agent's writes are refused."""
    SESSION = "session"
    """Until the session ends: writes carry a session id and are removed with it."""
    PROJECT = "project"
    """In the project's namespace (``project:<name>``), shared by the project's agents."""
    PERSISTENT = "persistent"
    """Kept, as every memory was before levels existed."""


@dataclass(frozen=True, slots=True)
class AgentProfile:
    """One agent's stored level."""

    agent_id: str
    level: MemoryLevel
    project: str | None
    """The project of a ``project``-level agent (None at other levels)."""
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class SessionMemory:
    """A live memory an agent wrote in a session: where it is and its id."""

    namespace: str
    memory_id: str


@runtime_checkable
class AgentStore(Protocol):
    """Agent profiles (levels) and the lookup behind ending a session-level session."""

    def get(self, agent_id: str) -> AgentProfile | None:
        """The agent's stored profile, or None when it never set a level."""
        ...

    def put(self, profile: AgentProfile) -> None:
        """Insert or replace the agent's profile."""
        ...

    def remove(self, agent_id: str) -> bool:
        """Forget the agent's profile (it falls back to the default level); True if
        there was one."""
        ...

    def list_profiles(self, *, limit: int, offset: int) -> list[AgentProfile]:
        """Profiles ordered by agent id."""
        ...

    def session_memories(self, agent_id: str, session_id: str) -> list[SessionMemory]:
        """Live memories ``agent_id`` wrote at the session level (``metadata``
        ``memory_level: "session"``) with ``session_id``, in every namespace."""
        ...

"""``mem.agents``: each agent's memory level (seed 002's ``MemoryLevel``; FEATURES S2).

An agent's level decides what becomes of the memories it writes (``add`` and
``add_many`` with its ``agent_id``):

- ``none``: nothing is kept; the write is refused with ``WriteRefusedError`` (in
  ``add_many(on_invalid="skip")`` the item is reported ``invalid`` with the reason);
- ``session``: each memory must carry a ``session_id`` and is marked
  ``metadata.memory_level = "session"``; ``end_session(agent_id, session_id)``
  tombstones them when the session ends (``admin.purge`` then removes them for good);
- ``project``: memories land in the project's namespace ``project:<project>`` unless
  the caller named that namespace itself; naming another is refused;
- ``persistent``: kept, as before levels existed.

Seed 002 documents ``session`` as its default. engram's default is ``persistent``
(``[agents] default_level``): an agent that never set a level keeps today's behaviour,
so no existing user loses a memory on upgrade. Set a level per agent to opt in, or
``default_level = "session"`` for seed 002's default.

Time comes from ``self.clock`` (UTC ``datetime``), so tests move it by hand.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime

from engram.core import Core, Part
from engram.errors import InvalidInputError, WriteRefusedError, shown
from engram.records import MemoryRecord, utcnow
from engram.store.protocols.agents import AgentProfile, MemoryLevel
from engram.validate import name_value, namespace_for, offset_value, positive_int

__all__ = ["PROJECT_PREFIX", "AgentProfile", "Agents", "MemoryLevel"]

#: Where a project-level agent's memories go: ``project:<project>``.
PROJECT_PREFIX = "project:"
#: The metadata key that marks a session-level memory.
LEVEL_KEY = "memory_level"
#: Characters of an agent id or a project name.
MAX_NAME = 200


def _name(what: str, value: object) -> str:
    return name_value(what, value, limit=MAX_NAME)


def level_value(level: object) -> MemoryLevel:
    """A level from its name; ``InvalidInputError`` naming the four otherwise."""
    try:
        return MemoryLevel(level if isinstance(level, str) else "")
    except ValueError:
        names = ", ".join(m.value for m in MemoryLevel)
        raise InvalidInputError(
            f"unknown memory level {shown(level)}: use one of {names}"
        ) from None


class Agents(Part):
    """Per-agent memory levels, enforced on every write that names the agent."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-moved clock."""
        self._lock = threading.Lock()
        self._known: dict[str, AgentProfile | None] = {}
        core.write_checks.append(self._admit)

    # -- levels -------------------------------------------------------------------
    def set_level(
        self, agent_id: str, level: MemoryLevel | str, *, project: str | None = None
    ) -> AgentProfile:
        """Set the agent's level; ``project`` is required at (and only at) the
        ``project`` level. Applies to the agent's writes from now on."""
        core = self._core
        core.check_open()
        agent = _name("agent_id", agent_id)
        chosen = level_value(level)
        if chosen is MemoryLevel.PROJECT:
            if project is None:
                raise InvalidInputError("the project level needs project='<name>'")
            project = _name("project", project)
            namespace_for(PROJECT_PREFIX + project, None, None, None, "default")  # valid?
        elif project is not None:
            raise InvalidInputError(
                f"project= applies only to the project level, not {shown(chosen.value)}"
            )
        profile = AgentProfile(agent, chosen, project, self.clock())
        core.store.agents.put(profile)
        with self._lock:
            self._known[agent] = profile
        return profile

    @property
    def default_level(self) -> MemoryLevel:
        """The level of agents that never set one (``[agents] default_level``)."""
        return MemoryLevel(self._core.config.agents.default_level)

    def reset(self, agent_id: str) -> bool:
        """Forget the agent's level (it falls back to the default level); True if it
        had one."""
        self._core.check_open()
        agent = _name("agent_id", agent_id)
        removed = self._core.store.agents.remove(agent)
        with self._lock:
            self._known[agent] = None
        return removed

    def profile(self, agent_id: str) -> AgentProfile | None:
        """The agent's stored profile; None when it never set a level."""
        self._core.check_open()
        return self._core.store.agents.get(_name("agent_id", agent_id))

    def level(self, agent_id: str) -> MemoryLevel:
        """The agent's level (the default level when it never set one)."""
        found = self.profile(agent_id)
        return self.default_level if found is None else found.level

    def list_levels(self, *, limit: int = 100, offset: int = 0) -> list[AgentProfile]:
        """Agents with a stored level, by agent id."""
        self._core.check_open()
        positive_int("limit", limit, upper=10_000)
        offset_value(offset)
        return self._core.store.agents.list_profiles(limit=limit, offset=offset)

    def namespace(self, agent_id: str) -> str:
        """Where the agent's writes land when the caller names no namespace or user:
        ``project:<project>`` at the project level, else ``agent:<agent_id>``."""
        found = self.profile(agent_id)
        if found is not None and found.level is MemoryLevel.PROJECT and found.project:
            return PROJECT_PREFIX + found.project
        return self._core.scope(agent_id=_name("agent_id", agent_id)).namespace

    # -- the session level's end --------------------------------------------------
    def end_session(self, agent_id: str, session_id: str, *, namespace: str | None = None) -> int:
        """Tombstone every memory ``agent_id`` wrote at the session level in
        ``session_id`` (in any namespace, or only in ``namespace``); returns how many.
        Harnesses call it when the session ends (after ``mem.sessions.end``).
        ``admin.purge`` removes them for good."""
        core = self._core
        core.check_open()
        agent = _name("agent_id", agent_id)
        session = _name("session_id", session_id)
        found = core.store.agents.session_memories(agent, session)
        if namespace is not None:
            only = core.scope(namespace).namespace
            found = [item for item in found if item.namespace == only]
        with core.store.transaction():
            for item in found:
                core.store.memories.delete(item.namespace, item.memory_id, actor=agent)
        if core.index is not None:
            for item in found:
                core.index.removed(item.namespace, item.memory_id)
        return len(found)

    # -- the write policy ---------------------------------------------------------
    def _cached(self, agent_id: str) -> AgentProfile | None:
        """The profile, read once per agent by this process (``set_level``/``reset``
        through this ``Memory`` refresh it; ``refresh()`` drops what was read)."""
        with self._lock:
            if agent_id in self._known:
                return self._known[agent_id]
        found = self._core.store.agents.get(agent_id)
        with self._lock:
            self._known[agent_id] = found
        return found

    def refresh(self) -> None:
        """Forget the profiles read so far: another process changed a level."""
        with self._lock:
            self._known.clear()

    def _admit(self, record: MemoryRecord, explicit: bool) -> MemoryRecord:
        """``Core.write_checks``: apply the writing agent's level to a new memory."""
        if record.agent_id is None:
            return record
        found = self._cached(record.agent_id)
        level = self.default_level if found is None else found.level
        who = f"agent {record.agent_id!r} has memory level {level.value!r}"
        if level is MemoryLevel.NONE:
            raise WriteRefusedError(
                f"{who}: engram keeps none of its memories; set another level with "
                "mem.agents.set_level (CLI: engram agents level) to store them"
            )
        if level is MemoryLevel.SESSION:
            if not record.session_id:
                raise WriteRefusedError(
                    f"{who}: pass session_id so the memory can be removed when the session "
                    "ends (mem.agents.end_session)"
                )
            return record.with_changes(metadata={**record.metadata, LEVEL_KEY: level.value})
        if level is MemoryLevel.PROJECT and found is not None and found.project:
            home = PROJECT_PREFIX + found.project
            if record.namespace == home:
                return record
            if explicit:
                raise WriteRefusedError(
                    f"{who}: its memories go to namespace {shown(home)}, not "
                    f"{shown(record.namespace)}; name {shown(home)} or no namespace"
                )
            return record.with_changes(namespace=home)
        return record

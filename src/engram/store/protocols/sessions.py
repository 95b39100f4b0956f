"""The sessions part of a store: checkpoints, injected memories and continuity scores
(seed 004's "Session Checkpoints" and "Continuity Scoring"; FEATURES S11, S13).

A checkpoint is a snapshot of a session's state (its focus as a digest, prompt count,
memory queries, recent remembers) taken on a trigger, so an agent whose context was
compacted or whose process died can recover where it was. The injected-memory rows say
which memories recall put in front of the session; at session end each gets a relevance
score and the session one continuity score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: seed 004: "Checkpoints are triggered by five event types".
TRIGGERS = ("periodic", "pre_compaction", "session_end", "agent", "explicit")


@dataclass(frozen=True, slots=True)
class Checkpoint(Record):
    """One stored snapshot of a session (seed 004's checkpoint row)."""

    id: int
    namespace: str
    session_key: str
    trigger: str
    digest: str
    prompt_count: int
    memory_queries: tuple[str, ...]
    recent_remembers: tuple[str, ...]
    created_at: datetime
    harness: str | None = None
    project: str | None = None
    project_normalized: str | None = None
    agent_id: str | None = None
    """The agent whose session it is (the first ``agent_id`` it was tracked with)."""


@dataclass(frozen=True, slots=True)
class NewCheckpoint:
    """What a caller hands the store to write (secrets already redacted)."""

    session_key: str
    trigger: str
    digest: str
    prompt_count: int
    memory_queries: tuple[str, ...] = ()
    recent_remembers: tuple[str, ...] = ()
    harness: str | None = None
    project: str | None = None
    project_normalized: str | None = None
    agent_id: str | None = None


@dataclass(frozen=True, slots=True)
class InjectedMemory:
    """A memory recall put in front of a session, and how useful it proved."""

    memory_id: str
    rank: int
    injected_at: datetime
    relevance: float | None = None
    """seed 004's ``relevance_score``, set by continuity scoring at session end."""


@dataclass(frozen=True, slots=True)
class SessionScore(Record):
    """seed 004's ``session_scores`` row: how well the injected memories served."""

    namespace: str
    session_key: str
    score: float
    confidence: float
    memories_recalled: int
    memories_used: int
    novel_context_count: int
    reasoning: str
    method: str
    """``llm`` or ``offline`` (the heuristic without a model)."""
    scored_at: datetime
    per_memory: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class SessionStore(Protocol):
    """Checkpoints, injected memories and scores, each scoped to a namespace."""

    def add_checkpoint(
        self, namespace: str, checkpoint: NewCheckpoint, *, cap: int, now: datetime
    ) -> Checkpoint:
        """Store one checkpoint; then delete the session's oldest beyond ``cap``."""
        ...

    def checkpoints(
        self, namespace: str, session_key: str, *, limit: int, trigger: str | None = None
    ) -> list[Checkpoint]:
        """The session's checkpoints, newest first."""
        ...

    def sessions(
        self, namespace: str, *, limit: int, offset: int, agent_id: str | None = None
    ) -> list[tuple[str, int, datetime]]:
        """(session key, checkpoint count, last checkpoint time), most recent first;
        ``agent_id``: only the sessions whose checkpoints carry that agent."""
        ...

    def prune_checkpoints(self, before: datetime) -> int:
        """Hard-delete every checkpoint older than ``before`` (seed 004: strict)."""
        ...

    def log_injected(
        self, namespace: str, session_key: str, memory_ids: Sequence[str], *, now: datetime
    ) -> int:
        """Record memories injected into the session, ranked in the given order after
        any already recorded; a memory already recorded keeps its first rank."""
        ...

    def injected(self, namespace: str, session_key: str) -> list[InjectedMemory]:
        """The session's injected memories by rank."""
        ...

    def save_score(self, score: SessionScore, relevance: Mapping[str, float]) -> SessionScore:
        """Write the session's score (replacing an earlier one) and each injected
        memory's relevance, in one transaction."""
        ...

    def score(self, namespace: str, session_key: str) -> SessionScore | None:
        """The session's continuity score, if it was scored."""
        ...


def per_memory_json(value: Any) -> dict[str, float]:
    """A stored ``per_memory`` map back to floats (both backends store JSON text)."""
    if not isinstance(value, dict):
        return {}
    return {str(k): float(v) for k, v in value.items()}

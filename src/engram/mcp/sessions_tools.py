"""The session MCP tools (FEATURES S11, S13; seed 004): ``session_checkpoint``,
``recover_session`` and ``end_session``, a thin translation of ``mem.sessions``.

An agent calls ``session_checkpoint`` before its context is compacted (or when it
decides to), ``recover_session`` after, to learn where it was, and ``end_session`` when
the work is done so the memories it was given are scored.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from engram.errors import InvalidInputError
from engram.mcp.annotations import READ_ONLY, WRITE, Tools
from engram.memory import Memory
from engram.records import iso

T = TypeVar("T")

SESSION_TOOL_NAMES = ("session_checkpoint", "recover_session", "end_session")

SessionKeyArg = Annotated[
    str,
    Field(min_length=1, max_length=200, description="The session's key (your harness's id)."),
]


class Call(Protocol):
    """``create_mcp_server``'s runner (see ``palace_tools.Call``)."""

    async def __call__(self, fn: Callable[[str], T]) -> T: ...


class SessionCheckpoint(BaseModel):
    """The checkpoint written, or none yet while it waits out the debounce window."""

    written: bool
    id: int | None = None
    trigger: str
    created_at: str | None = None


class RecoveredSession(BaseModel):
    """Where the session was, newest first; empty if it has no checkpoint."""

    session_key: str
    digest: str


class SessionScoreOut(BaseModel):
    """How well the memories injected into the session served it."""

    score: float = Field(description="0-1.")
    confidence: float
    memories_recalled: int
    memories_used: int
    method: str = Field(description="llm, or offline (a keyword heuristic without a model).")
    reasoning: str


def _nobody() -> str | None:
    return None


def sessions_tools(memory: Memory, call: Call, bound: Callable[[], str | None] = _nobody) -> Tools:
    """The session tools over ``memory``, each with its MCP annotations. ``bound``: the
    agent the caller's API key is bound to (``engram serve``'s ``/mcp``), if any: such a
    key touches only its own agent's sessions (``Sessions.require_agent``)."""

    def mine(session_key: str, ns: str, agent: str | None) -> None:
        if agent is not None:
            memory.sessions.require_agent(session_key, agent, namespace=ns)

    async def session_checkpoint(
        session_key: SessionKeyArg,
        trigger: Annotated[
            Literal["pre_compaction", "agent", "explicit"],
            Field(description="pre_compaction before your context is compacted."),
        ] = "agent",
        context: Annotated[
            str | None,
            Field(
                max_length=20_000,
                description="Your own summary of the work so far (with pre_compaction only).",
            ),
        ] = None,
    ) -> SessionCheckpoint:
        """Call before your context is compacted, or at a milestone, to save where the
        session is (secrets are redacted). recover_session gives it back."""

        agent = bound()

        def run(ns: str) -> SessionCheckpoint:
            mine(session_key, ns, agent)
            if context is not None and trigger != "pre_compaction":
                # Seed 004's digests carry the session context only before a compaction;
                # any other trigger dropped it without a word (new-user pass, round eight).
                raise InvalidInputError(
                    f"context is kept only with trigger 'pre_compaction' (got {trigger!r}): "
                    "pass trigger 'pre_compaction', or leave context out"
                )
            written = memory.sessions.checkpoint(
                session_key, trigger, context=context, namespace=ns, agent_id=agent
            )
            if written is None:
                return SessionCheckpoint(written=False, trigger=trigger)
            return SessionCheckpoint(
                written=True,
                id=written.id,
                trigger=written.trigger,
                created_at=iso(written.created_at),
            )

        return await call(run)

    async def recover_session(
        session_key: SessionKeyArg,
        budget: Annotated[
            int | None, Field(ge=200, le=10_000, description="Characters at most.")
        ] = None,
    ) -> RecoveredSession:
        """Call after your context was compacted or restarted to learn where this
        session was: its latest checkpoint first, then earlier searches and remembers."""

        agent = bound()

        def run(ns: str) -> RecoveredSession:
            mine(session_key, ns, agent)
            digest = memory.sessions.recover(session_key, budget=budget, namespace=ns)
            return RecoveredSession(session_key=session_key, digest=digest)

        return await call(run)

    async def end_session(
        session_key: SessionKeyArg,
        transcript: Annotated[
            str | None,
            Field(max_length=1_000_000, description="The session's transcript, if at hand."),
        ] = None,
    ) -> SessionScoreOut:
        """Call when the session's work is done: engram stores its final checkpoint and
        scores how useful the memories it was given were, so better ones rank higher."""

        agent = bound()

        def run(ns: str) -> SessionScoreOut:
            mine(session_key, ns, agent)
            s = memory.sessions.end(session_key, transcript=transcript, namespace=ns)
            return SessionScoreOut.model_validate(s, from_attributes=True)

        return await call(run)

    return {
        "session_checkpoint": (session_checkpoint, WRITE),
        "recover_session": (
            recover_session,
            READ_ONLY,
        ),
        "end_session": (end_session, WRITE),
    }

"""The shared-knowledge MCP tools (FEATURES S3; seed 002's ``SharedKnowledgeStore``):
``publish_knowledge``, ``search_shared`` and ``retract_knowledge``, a thin translation
of ``mem.shared``.

The shared space follows the caller's namespace (``engram.shared.space_of``): a user's
agents share ``user:<user>/shared``; a local server shares ``shared:default``.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated

from pydantic import BaseModel, Field

from engram.errors import PermissionDeniedError
from engram.mcp.annotations import DESTRUCTIVE, READ_ONLY_IDEMPOTENT, WRITE, Tools
from engram.mcp.sessions_tools import Call
from engram.memory import Memory
from engram.shared import space_of

SHARED_TOOL_NAMES = ("publish_knowledge", "search_shared", "retract_knowledge")

AgentArg = Annotated[
    str,
    Field(
        min_length=1,
        max_length=190,
        pattern=r"^[A-Za-z0-9_.:@/+-]+$",
        description="Your agent id (the publisher).",
    ),
]


class Publication(BaseModel):
    """A stored publication."""

    id: str
    namespace: str
    publisher: str


class SharedHit(BaseModel):
    """One publication found."""

    id: str
    score: float
    publisher: str | None
    content: str


class Retracted(BaseModel):
    """The retracted publication."""

    id: str
    retracted: bool


def _nobody() -> str | None:
    return None


def _publisher(agent_id: str, bound: str | None) -> str:
    """The publisher of a call: ``agent_id``, which an agent's API key (``bound``) may
    only give as its own agent (the "only its publisher" rule must not trust it)."""
    if bound is not None and agent_id != bound:
        raise PermissionDeniedError(
            f"this API key acts as agent {bound!r}; it may not publish or retract as "
            f"agent {agent_id!r}"
        )
    return agent_id


def shared_tools(memory: Memory, call: Call, bound: Callable[[], str | None] = _nobody) -> Tools:
    """The shared-knowledge tools over ``memory``, each with its MCP annotations.
    ``bound``: the agent the caller's API key is bound to (``/mcp``), if any."""

    async def publish_knowledge(
        agent_id: AgentArg,
        content: Annotated[
            str, Field(min_length=1, max_length=100_000, description="What to share.")
        ],
        tags: Annotated[list[str] | None, Field(max_length=20)] = None,
    ) -> Publication:
        """Call when you learned a fact, decision or lesson the other agents should know:
        it is shared with them (they find it with search_shared). Only you can retract
        it later."""

        agent = bound()

        def run(ns: str) -> Publication:
            who = _publisher(agent_id, agent)
            record = memory.shared.publish(who, content, namespace=space_of(ns), tags=tags)
            return Publication(
                id=record.id, namespace=record.namespace, publisher=record.agent_id or agent_id
            )

        return await call(run)

    async def search_shared(
        query: Annotated[str, Field(min_length=1, max_length=10_000)],
        exclude_agent: Annotated[
            str | None,
            Field(max_length=190, description="Your agent id, to leave out your own."),
        ] = None,
        limit: Annotated[int | None, Field(ge=1, le=50)] = None,
    ) -> list[SharedHit]:
        """Call before a task to learn what other agents published about it, best first;
        pass your own agent id as exclude_agent to leave out what you shared."""

        def run(ns: str) -> list[SharedHit]:
            hits = memory.shared.search_shared(
                query, exclude_agent=exclude_agent, namespace=space_of(ns), limit=limit
            )
            return [
                SharedHit(
                    id=h.id, score=h.score, publisher=h.memory.agent_id, content=h.memory.content
                )
                for h in hits
            ]

        return await call(run)

    async def retract_knowledge(
        agent_id: AgentArg,
        memory_id: Annotated[
            str,
            Field(
                min_length=1,
                max_length=200,
                description="The publication's whole id, as publish_knowledge or "
                "search_shared returned it.",
            ),
        ],
        reason: Annotated[str | None, Field(max_length=2000)] = None,
    ) -> Retracted:
        """Call when something you published is wrong or outdated, to withdraw it (only
        its publisher may); the retraction is audited."""

        agent = bound()

        def run(ns: str) -> Retracted:
            record = memory.shared.retract(
                _publisher(agent_id, agent), memory_id, namespace=space_of(ns), reason=reason
            )
            return Retracted(id=record.id, retracted=record.deleted_at is not None)

        return await call(run)

    return {
        "publish_knowledge": (publish_knowledge, WRITE),
        "search_shared": (
            search_shared,
            READ_ONLY_IDEMPOTENT,
        ),
        "retract_knowledge": (
            retract_knowledge,
            DESTRUCTIVE,
        ),
    }

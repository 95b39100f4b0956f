"""The shared-knowledge MCP tools (FEATURES S3; seed 002's ``SharedKnowledgeStore``):
``publish_knowledge``, ``search_shared`` and ``retract_knowledge``, a thin translation
of ``mem.shared``.

The shared space follows the caller's namespace (``engram.shared.space_of``): a user's
agents share ``user:<user>/shared``; a local server shares ``shared:default``.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from typing import Annotated

from pydantic import BaseModel, Field

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


def shared_tools(memory: Memory, call: Call) -> Tools:
    """The shared-knowledge tools over ``memory``, each with its MCP annotations."""

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

        def run(ns: str) -> Publication:
            record = memory.shared.publish(agent_id, content, namespace=space_of(ns), tags=tags)
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

        def run(ns: str) -> Retracted:
            record = memory.shared.retract(
                agent_id, memory_id, namespace=space_of(ns), reason=reason
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

"""The knowledge-graph MCP tools (FEATURES G1, G2): ``kg_query``, ``kg_timeline`` and
``kg_invalidate``, a thin translation of ``mem.graph`` for agents.

``engram.mcp.server`` registers them next to the memory tools and runs each through
the same ``call``: the namespace is resolved when the tool runs, the library call goes
to a worker thread, and an ``EngramError`` becomes a tool error with its message.
Relations are shown as (subject, predicate, object) with their validity window, the
vocabulary of the tools' own arguments.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal, Protocol, TypeVar

from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from engram.mcp.annotations import READ_ONLY, Tools
from engram.memory import Memory
from engram.records import iso

T = TypeVar("T")

#: The graph tools, in the order they are listed (after the memory tools).
GRAPH_TOOL_NAMES = ("kg_query", "kg_timeline", "kg_invalidate")

#: At most this many relations go back to the agent from kg_query and kg_timeline; the
#: rest are counted (``total``), so the agent knows to narrow with ``as_of``.
MAX_RELATIONS = 100
#: kg_query reads this many relations from the library before filtering by direction.
READ_RELATIONS = 1000


class Call(Protocol):
    """``create_mcp_server``'s runner: resolve the namespace, run ``fn`` on a thread,
    turn an ``EngramError`` into a tool error."""

    async def __call__(self, fn: Callable[[str], T]) -> T: ...


class KgRelation(BaseModel):
    """One fact of the graph and when it held."""

    subject: str
    predicate: str = Field(description="The relation type, e.g. owns, lives_in.")
    object: str
    confidence: float = Field(description="0 to 1, averaged over the memories that said it.")
    valid_from: str = Field(description="When it began to hold (ISO 8601 UTC).")
    valid_to: str | None = Field(description="When it stopped holding; null: it still holds.")
    current: bool = Field(description="True while it holds.")


class KgRelations(BaseModel):
    """An entity's relations, current or as of a date."""

    entity: str = Field(description="The entity's name as first seen.")
    as_of: str | None = Field(description="The date asked for; null: the relations now.")
    direction: str
    relations: list[KgRelation]
    total: int = Field(description="How many relations matched; at most 100 are listed.")


class KgTimeline(BaseModel):
    """An entity's whole history."""

    entity: str
    relations: list[KgRelation] = Field(description="Oldest first, closed ones included.")
    total: int = Field(description="How many relations it has had; at most 100 are listed.")


def _relation(rel: Any) -> KgRelation:
    return KgRelation(
        subject=rel.source,
        predicate=rel.relation_type,
        object=rel.target,
        confidence=round(rel.confidence, 4),
        valid_from=iso(rel.valid_from),
        valid_to=None if rel.valid_to is None else iso(rel.valid_to),
        current=rel.valid_to is None,
    )


EntityName = Annotated[
    str, Field(min_length=1, max_length=200, description="An entity's name or alias.")
]
Moment = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=64,
        description="A date (YYYY-MM-DD, the end of that day in UTC) or an ISO 8601 time.",
    ),
]


def graph_tools(memory: Memory, call: Call) -> Tools:
    """The graph tools over ``memory``, each with its MCP annotations."""

    async def kg_query(
        entity: EntityName,
        as_of: Moment = None,
        direction: Annotated[
            Literal["outgoing", "incoming", "both"],
            Field(
                description='"outgoing": facts with the entity as subject; "incoming": as '
                'object; "both".'
            ),
        ] = "both",
    ) -> KgRelations:
        """Call to ask the knowledge graph what is known about a person, project or
        thing: its relations (subject, predicate, object) that hold now, or that held
        on the date as_of. Use kg_timeline for how they changed over time."""

        def run(ns: str) -> KgRelations:
            found = memory.graph.entity(entity, namespace=ns)
            if as_of is None:
                rels = memory.graph.relations(entity, namespace=ns, limit=READ_RELATIONS)
            else:
                rels = memory.graph.as_of(as_of, entity=entity, namespace=ns, limit=READ_RELATIONS)
            if direction == "outgoing":
                rels = [r for r in rels if r.source_entity_id == found.id]
            elif direction == "incoming":
                rels = [r for r in rels if r.target_entity_id == found.id]
            return KgRelations(
                entity=found.name,
                as_of=as_of,
                direction=direction,
                relations=[_relation(r) for r in rels[:MAX_RELATIONS]],
                total=len(rels),
            )

        return await call(run)

    async def kg_timeline(entity: EntityName) -> KgTimeline:
        """Call to see how what is known about a person, project or thing changed over
        time: every relation it was part of, oldest first, each with when it began and
        when it stopped holding (null while it still holds)."""

        def run(ns: str) -> KgTimeline:
            found = memory.graph.entity(entity, namespace=ns)
            rels = memory.graph.timeline(entity, namespace=ns)
            return KgTimeline(
                entity=found.name,
                relations=[_relation(r) for r in rels[:MAX_RELATIONS]],
                total=len(rels),
            )

        return await call(run)

    async def kg_invalidate(
        subject: EntityName,
        predicate: Annotated[
            str,
            Field(min_length=1, max_length=100, description="The relation type, e.g. owns."),
        ],
        object: EntityName,
        ended: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=64,
                description="When it stopped holding (default now): a date (YYYY-MM-DD) "
                "or an ISO 8601 time.",
            ),
        ] = None,
    ) -> KgRelation:
        """Call when a fact in the knowledge graph no longer holds (the user sold the
        car, left the job): it closes the relation subject-predicate-object that holds
        now, at ended. Its history is kept; kg_query no longer lists it."""

        def run(ns: str) -> KgRelation:
            return _relation(
                memory.graph.invalidate(subject, predicate, object, at=ended, namespace=ns)
            )

        return await call(run)

    return {
        "kg_query": (kg_query, READ_ONLY),
        "kg_timeline": (kg_timeline, READ_ONLY),
        "kg_invalidate": (
            kg_invalidate,
            ToolAnnotations(
                read_only_hint=False,
                destructive_hint=True,
                idempotent_hint=False,
                open_world_hint=False,
            ),
        ),
    }

"""The organisation MCP tools (seed 002; FEATURES S4): ``org_policies``, ``org_query``
and ``org_write``, a thin translation of ``mem.org``.

An MCP caller is an agent. Who it writes as comes from ``author``: over HTTP, the
request's API key (an agent key's agent and seniority, or the human who owns any other
key); over stdio, the agent ``engram mcp --agent NAME --seniority LEVEL`` names
(``junior`` by default). ``mem.org`` checks seed 002's write access either way, so a
core policy can never be written from an agent's tool call.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from engram.mcp.annotations import READ_ONLY, WRITE, Tools
from engram.memory import Memory
from engram.org import OrgFact, OrgFactAuthor

T = TypeVar("T")

ORG_TOOL_NAMES = ("org_policies", "org_query", "org_write")

OrgCategory = Literal["policy", "adr", "procedure", "convention", "coding_standard"]


class Call(Protocol):
    """``create_mcp_server``'s runner (see ``palace_tools.Call``)."""

    async def __call__(self, fn: Callable[[str], T]) -> T: ...


class OrgFactView(BaseModel):
    """One fact of the organisation (its current version)."""

    fact_id: str
    version: int
    category: str
    content: str
    tags: list[str]
    author: str = Field(description="human:<id> or agent:<id> (<seniority>).")


class OrgFacts(BaseModel):
    """Org facts, in the order asked for."""

    items: list[OrgFactView]


def _view(f: OrgFact) -> OrgFactView:
    a = f.author
    who = f"human:{a.id}" if a.kind == "human" else f"agent:{a.id} ({a.seniority})"
    return OrgFactView(
        fact_id=f.fact_id,
        version=f.version,
        category=f.category,
        content=f.content,
        tags=list(f.tags),
        author=who,
    )


def org_tools(memory: Memory, call: Call, author: Callable[[], OrgFactAuthor]) -> Tools:
    """The org tools over ``memory``; ``author`` says who the caller writes as."""

    async def org_policies() -> OrgFacts:
        """Call to read the organisation's core policies: rules that always apply (they
        also head every get_context and search context)."""

        def run(ns: str) -> OrgFacts:
            return OrgFacts(items=[_view(f) for f in memory.org.list_policies()])

        return await call(run)

    async def org_query(
        text: Annotated[
            str, Field(min_length=1, max_length=10_000, description="What you need to know.")
        ],
        categories: Annotated[
            list[OrgCategory] | None, Field(description="Only these kinds of fact.")
        ] = None,
        tags: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=200)]] | None,
            Field(max_length=50, description="Only facts with all of these tags, exactly."),
        ] = None,
        limit: Annotated[int | None, Field(ge=1, le=50, description="At most (default 5).")] = None,
    ) -> OrgFacts:
        """Call at task start to look up the organisation's ADRs, procedures, conventions
        and coding standards related to the task, best first."""

        def run(ns: str) -> OrgFacts:
            found = memory.org.query(text, categories=categories, tags=tags, limit=limit)
            return OrgFacts(items=[_view(f) for f in found])

        return await call(run)

    async def org_write(
        content: Annotated[str, Field(min_length=1, max_length=20_000)],
        category: Annotated[
            OrgCategory,
            Field(description="adr and procedure need a senior-or-higher agent; policy a human."),
        ],
        fact_id: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=200,
                description="To write a new version of a fact: its id, or a unique prefix of it "
                "(8 or more characters).",
            ),
        ] = None,
        tags: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=200)]] | None,
            Field(max_length=50),
        ] = None,
        reason: Annotated[
            str | None, Field(max_length=2_000, description="Why: kept in the audit trail.")
        ] = None,
    ) -> OrgFactView:
        """Call to record an organisation decision (an ADR) or procedure, or a new version
        of one (pass its fact_id). Writes are append-only and audited; your role decides
        what you may write."""
        who = author()

        def run(ns: str) -> OrgFactView:
            fact = memory.org.write(
                content, category=category, author=who, fact_id=fact_id, tags=tags, reason=reason
            )
            return _view(fact)

        return await call(run)

    return {
        "org_policies": (org_policies, READ_ONLY),
        "org_query": (org_query, READ_ONLY),
        "org_write": (
            org_write,
            WRITE,
        ),
    }

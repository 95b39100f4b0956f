"""The self-editing memory MCP tools and ``propose_procedure`` (seed 002; FEATURES S5,
S7), a thin translation of ``mem.inject`` and ``mem.procedures``.

``core_memory`` shows the agent its core blocks (in MCP nothing injects them into its
context); ``core_memory_append`` and ``core_memory_replace`` edit them;
``archival_memory_insert``, ``archival_memory_search`` and ``conversation_search`` reach
archival and recall memory. Each tool's description is the library's (``engram.inject.
tools``), and each call runs through ``mem.inject.call``, so the MCP tools and the
framework-neutral ones cannot disagree. ``propose_procedure`` turns a failed task into a
procedure (stored when confident enough).

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated, Any, Protocol, TypeVar

from pydantic import BaseModel, Field

from engram.inject.tools import TOOLS
from engram.mcp.annotations import IDEMPOTENT_WRITE, READ_ONLY, WRITE, Tools
from engram.memory import Memory

T = TypeVar("T")

BLOCK_TOOL_NAMES = (
    "core_memory",
    "core_memory_append",
    "core_memory_replace",
    "archival_memory_insert",
    "archival_memory_search",
    "conversation_search",
    "propose_procedure",
)

Label = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description=TOOLS["core_memory_append"].properties["label"]["description"],
    ),
]
Query = Annotated[str, Field(min_length=1, max_length=10_000, description="What to look for.")]
Limit = Annotated[int, Field(ge=1, le=50, description="How many hits.")]
Tag = Annotated[str, Field(min_length=1, max_length=200)]


class Call(Protocol):
    """``create_mcp_server``'s runner (see ``palace_tools.Call``)."""

    async def __call__(self, fn: Callable[[str], T]) -> T: ...


class CoreMemory(BaseModel):
    """Your core memory blocks as they appear in context ("" when there are none)."""

    core_memory: str


class BlockView(BaseModel):
    """A core block after the edit."""

    label: str
    value: str
    chars: int
    char_limit: int
    version: int


class HitOut(BaseModel):
    """One ranked hit, its content shortened."""

    id: str
    title: str | None
    content: str
    truncated: bool
    type: str
    tags: list[str]
    created_at: str
    score: float


class Hits(BaseModel):
    """Ranked hits."""

    mode: str
    hits: list[HitOut]
    abstained: bool


class Inserted(BaseModel):
    """The archival memory stored (or the one already holding the same content)."""

    id: str


class ProcedureView(BaseModel):
    """A procedure in seed 002's three tiers; memory_id is null when not stored."""

    name: str
    discovery: str
    activation: dict[str, str]
    execution: list[str]
    confidence: float
    method: str = Field(description="llm, or template (offline).")
    memory_id: str | None
    skill_path: str | None


def _described(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    fn.__doc__ = TOOLS[name].description  # one source of truth: engram.inject.tools
    return fn


def blocks_tools(memory: Memory, call: Call) -> Tools:
    """The self-editing and procedure tools over ``memory``, each with its annotations."""

    def run_tool(name: str, arguments: dict[str, Any]) -> Callable[[str], dict[str, Any]]:
        def run(ns: str) -> dict[str, Any]:
            return memory.inject.call(name, arguments, namespace=ns)

        return run

    async def core_memory() -> CoreMemory:
        """Call to read your core memory blocks (persona, human ...), which you edit with
        core_memory_append and core_memory_replace."""

        def run(ns: str) -> CoreMemory:
            return CoreMemory(core_memory=memory.inject.blocks.render(namespace=ns))

        return await call(run)

    async def core_memory_append(
        label: Label,
        content: Annotated[
            str, Field(min_length=1, max_length=100_000, description="The text to add.")
        ],
    ) -> BlockView:
        args = {"label": label, "content": content}
        return BlockView(**await call(run_tool("core_memory_append", args)))

    async def core_memory_replace(
        label: Label,
        old_content: Annotated[
            str, Field(min_length=1, max_length=100_000, description="Text in the block, exactly.")
        ],
        new_content: Annotated[str, Field(max_length=100_000, description="What replaces it.")],
    ) -> BlockView:
        args = {"label": label, "old_content": old_content, "new_content": new_content}
        return BlockView(**await call(run_tool("core_memory_replace", args)))

    async def archival_memory_insert(
        content: Annotated[
            str, Field(min_length=1, max_length=100_000, description="The statement to store.")
        ],
        tags: Annotated[
            list[Tag] | None, Field(max_length=32, description="Tags to file it under.")
        ] = None,
    ) -> Inserted:
        args: dict[str, Any] = {"content": content, "tags": tags}
        return Inserted(**await call(run_tool("archival_memory_insert", args)))

    async def archival_memory_search(query: Query, limit: Limit = 10) -> Hits:
        args = {"query": query, "limit": limit}
        return Hits(**await call(run_tool("archival_memory_search", args)))

    async def conversation_search(query: Query, limit: Limit = 10) -> Hits:
        args = {"query": query, "limit": limit}
        return Hits(**await call(run_tool("conversation_search", args)))

    async def propose_procedure(
        task: Annotated[
            str, Field(min_length=1, max_length=10_000, description="What the task was.")
        ],
        error: Annotated[
            str, Field(min_length=1, max_length=20_000, description="The error it failed with.")
        ],
        steps: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=4000)]] | None,
            Field(max_length=50, description="What was tried, in order (tool calls)."),
        ] = None,
        trace: Annotated[
            str | None, Field(max_length=100_000, description="A stack trace or log excerpt.")
        ] = None,
        retries: Annotated[int, Field(ge=0, le=1_000_000)] = 0,
        turns: Annotated[int, Field(ge=0, le=1_000_000)] = 0,
    ) -> ProcedureView:
        """Call after a task failed, with what happened: a separate proposer turns it
        into a procedure (when it applies, what to do, why, the steps) and stores it as
        procedural memory when it is confident enough (memory_id set), so the next
        attempt finds it with search_memory. Secrets in the payload are redacted."""
        failure: dict[str, Any] = {"task": task, "error": error, "steps": steps or []}
        failure |= {"trace": trace, "retries": retries, "turns": turns}

        def run(ns: str) -> ProcedureView:
            return ProcedureView(**memory.procedures.propose(failure, namespace=ns).to_dict())

        return await call(run)

    return {
        "core_memory": (core_memory, READ_ONLY),
        "core_memory_append": (_described(core_memory_append, "core_memory_append"), WRITE),
        "core_memory_replace": (_described(core_memory_replace, "core_memory_replace"), WRITE),
        "archival_memory_insert": (
            _described(archival_memory_insert, "archival_memory_insert"),
            IDEMPOTENT_WRITE,
        ),
        "archival_memory_search": (
            _described(archival_memory_search, "archival_memory_search"),
            READ_ONLY,
        ),
        "conversation_search": (_described(conversation_search, "conversation_search"), READ_ONLY),
        "propose_procedure": (propose_procedure, WRITE),
    }

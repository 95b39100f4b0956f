"""Injection strategies, core memory blocks and procedures over HTTP (seed 002;
FEATURES S5, S7).

- ``/v1/inject/context``: the context strategy's memory message for a turn;
- ``/v1/inject/tools`` and ``/v1/inject/tools/{name}``: the memory tools' definitions
  and a tool call run for the agent;
- ``/v1/blocks``: core memory blocks and their history;
- ``/v1/procedures``: procedures proposed from failures, and their SKILL.md text.

Each route resolves the caller's namespace like every other route (``Caller.scope``), so
a key reaches only its own namespaces' blocks and procedures. Block writes record the
key that made them in the block's append-only history (``key:<id>``, or
``agent:<name>`` for an agent's key, which also cannot overwrite or delete a read-only
block); the tool route records ``agent``. SKILL.md files are written on the server
only to the configured ``[procedural] skill_md_directory``, never to a path a caller
names.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field

from engram.api import models as m
from engram.api.auth import Caller, ServerState, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS, MemoryId, ScopeQuery, _namespace
from engram.inject import STRATEGIES, insert, last_user_text
from engram.inject.blocks import block_dict
from engram.keys import Principal
from engram.procedures import skill_markdown
from engram.records import iso

Label = Annotated[
    str,
    Path(pattern=r"^[a-z][a-z0-9_-]{0,63}$", description="The block's label, e.g. persona."),
]
ToolName = Annotated[str, Path(min_length=1, max_length=64, description="The tool's name.")]
Strategy = Literal["context", "tool_based", "self_editing"]
assert set(Strategy.__args__) == set(STRATEGIES)  # type: ignore[attr-defined]

router = APIRouter(responses=_ERRORS, tags=["injection"])


class BlockOut(BaseModel):
    """One core memory block."""

    namespace: str
    label: str
    value: str
    chars: int
    char_limit: int
    description: str
    read_only: bool
    version: int
    updated_at: str


class BlockList(BaseModel):
    """The namespace's core blocks, by label."""

    items: list[BlockOut]


class BlockEditOut(BaseModel):
    """One row of a block's append-only history."""

    id: int
    op: str
    old_value: str | None
    new_value: str | None
    actor: str | None
    at: str


class BlockHistory(BaseModel):
    """A block's edits, newest first."""

    items: list[BlockEditOut]


class BlockSetIn(BaseModel):
    """Create a block or overwrite its value; unnamed settings are kept."""

    model_config = STRICT

    value: str = Field(max_length=100_000)
    char_limit: int | None = Field(default=None, ge=1, le=100_000)
    description: str | None = Field(default=None, max_length=2000)
    read_only: bool | None = None


class BlockAppendIn(BaseModel):
    """Text to add on a new line (``core_memory_append``)."""

    model_config = STRICT

    content: str = Field(min_length=1, max_length=100_000)


class BlockReplaceIn(BaseModel):
    """Text to replace (``core_memory_replace``)."""

    model_config = STRICT

    old_content: str = Field(min_length=1, max_length=100_000)
    new_content: str = Field(max_length=100_000)


class InjectContextIn(BaseModel):
    """A turn's messages; the memory message goes after the leading system prompt."""

    model_config = STRICT

    messages: list[dict[str, Any]] = Field(max_length=10_000)
    budget_tokens: int = Field(ge=1, le=1_000_000)
    role: Literal["system", "user"] = "system"
    query: str | None = Field(default=None, min_length=1, max_length=10_000)
    limit: int | None = Field(default=None, ge=1, le=50)
    blocks: bool = True


class InjectContextOut(BaseModel):
    """The messages with memory injected, and what was injected."""

    messages: list[dict[str, Any]]
    memory_ids: list[str]
    blocks: list[str]
    tokens: int
    warnings: list[str]


class ToolsOut(BaseModel):
    """The strategy's system instruction and tools (OpenAI function-calling shape)."""

    strategy: str
    instructions: str
    tools: list[dict[str, Any]]


class ToolCallIn(BaseModel):
    """The arguments the model passed."""

    model_config = STRICT

    arguments: dict[str, Any] = Field(default_factory=dict)


class FailureIn(BaseModel):
    """seed 002's failure payload (no raw conversation)."""

    model_config = STRICT

    task: str = Field(min_length=1, max_length=10_000)
    error: str = Field(min_length=1, max_length=20_000)
    steps: list[str] = Field(default_factory=list, max_length=50)
    trace: str | None = Field(default=None, max_length=100_000)
    retries: int = Field(default=0, ge=0, le=1_000_000)
    turns: int = Field(default=0, ge=0, le=1_000_000)
    store: bool = True


class ProcedureOut(BaseModel):
    """A procedure in seed 002's three tiers."""

    name: str
    discovery: str
    activation: dict[str, str]
    execution: list[str]
    confidence: float
    method: str
    memory_id: str | None
    skill_path: str | None


class ProcedureList(BaseModel):
    """Stored procedures, newest first."""

    items: list[ProcedureOut]


class ProcedureQuery(m.Scope):
    limit: int = Field(default=50, ge=1, le=1000)


class HistoryQuery(m.Scope):
    limit: int = Field(default=50, ge=1, le=1000)


class ToolsQuery(BaseModel):
    model_config = STRICT

    strategy: Strategy = "tool_based"


def _writer(caller: Principal, state: ServerState) -> dict[str, Any]:
    """Who writes a block, for its history, and whether the key is an agent's: an agent
    key (``engram keys create --agent``) writes under the agent's rules, so it cannot
    overwrite a read-only block through the routes meant for people."""
    who = state.memory.org.author_for_key(caller.key_id, caller.user, caller.admin)
    if who.kind == "agent":
        return {"actor": f"agent:{who.id}", "by_agent": True}
    return {"actor": f"key:{caller.key_id}" if caller.key_id else "local", "by_agent": False}


# -- the context strategy and the tools ---------------------------------------------
@router.post("/v1/inject/context", response_model=InjectContextOut, summary="Inject memory")
def inject_context(
    body: InjectContextIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """The messages with the memory message (core blocks, then recalled memories packed
    into the token budget) inserted between the system prompt and the task."""
    ns = _namespace(caller, state, scope_in)
    prepared = state.memory.inject.prepare(
        body.query or last_user_text(body.messages),
        budget_tokens=body.budget_tokens,
        role=body.role,
        limit=body.limit,
        blocks=body.blocks,
        namespace=ns,
    )
    return {
        "messages": insert(body.messages, prepared),
        "memory_ids": [h.memory.id for h in prepared.hits],
        "blocks": [b.label for b in prepared.blocks],
        "tokens": prepared.tokens,
        "warnings": list(prepared.warnings),
    }


@router.get("/v1/inject/tools", response_model=ToolsOut, summary="Memory tools")
def inject_tools(query: Annotated[ToolsQuery, Query()], state: State) -> dict[str, Any]:
    """The strategy's tool definitions, to hand to any agent framework."""
    mem = state.memory
    return {
        "strategy": query.strategy,
        "instructions": mem.inject.instructions(query.strategy),
        "tools": mem.inject.tools(query.strategy),
    }


@router.post("/v1/inject/tools/{name}", summary="Run a memory tool")
def inject_call(
    name: ToolName,
    scope_in: ScopeQuery,
    caller: Caller,
    state: State,
    body: Annotated[ToolCallIn | None, Body()] = None,
) -> dict[str, Any]:
    """Run one tool call the model made; the result is the tool's JSON answer."""
    ns = _namespace(caller, state, scope_in)
    return state.memory.inject.call(name, (body or ToolCallIn()).arguments, namespace=ns)


# -- core blocks -----------------------------------------------------------------
@router.get("/v1/blocks", response_model=BlockList, summary="Core blocks")
def list_blocks(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """The namespace's core memory blocks."""
    ns = _namespace(caller, state, scope_in)
    return {"items": [block_dict(b) for b in state.memory.inject.blocks.list(namespace=ns)]}


@router.get("/v1/blocks/{label}", response_model=BlockOut, summary="Core block")
def get_block(label: Label, scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """One core block."""
    ns = _namespace(caller, state, scope_in)
    return block_dict(state.memory.inject.blocks.get(label, namespace=ns))


@router.put("/v1/blocks/{label}", response_model=BlockOut, summary="Set a core block")
def set_block(
    label: Label, body: BlockSetIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Create the block or overwrite its value (read-only blocks too: this route is for
    people and programs, not the agent's tools)."""
    ns = _namespace(caller, state, scope_in)
    written = state.memory.inject.blocks.set(
        label, **body.model_dump(), **_writer(caller, state), namespace=ns
    )
    return block_dict(written)


@router.post("/v1/blocks/{label}/append", response_model=BlockOut, summary="Append")
def append_block(
    label: Label, body: BlockAppendIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Append a line (refused past the limit or on a read-only block)."""
    ns = _namespace(caller, state, scope_in)
    written = state.memory.inject.blocks.append(
        label, body.content, actor=_writer(caller, state)["actor"], namespace=ns
    )
    return block_dict(written)


@router.post("/v1/blocks/{label}/replace", response_model=BlockOut, summary="Replace")
def replace_block(
    label: Label, body: BlockReplaceIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Replace text in the block (refused when it is not there, past the limit, or on
    a read-only block)."""
    ns = _namespace(caller, state, scope_in)
    actor = _writer(caller, state)["actor"]
    written = state.memory.inject.blocks.replace(
        label, body.old_content, body.new_content, actor=actor, namespace=ns
    )
    return block_dict(written)


@router.delete("/v1/blocks/{label}", response_model=BlockOut, summary="Delete a core block")
def delete_block(
    label: Label, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Remove the block; its history stays."""
    ns = _namespace(caller, state, scope_in)
    removed = state.memory.inject.blocks.delete(label, **_writer(caller, state), namespace=ns)
    return block_dict(removed)


@router.get("/v1/blocks/{label}/history", response_model=BlockHistory, summary="Block history")
def block_history(
    label: Label, query: Annotated[HistoryQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Every edit of the block, newest first, with who made it."""
    ns = _namespace(caller, state, query)
    edits = state.memory.inject.blocks.history(label, limit=query.limit, namespace=ns)
    return {
        "items": [
            {
                "id": e.id,
                "op": e.op,
                "old_value": e.old_value,
                "new_value": e.new_value,
                "actor": e.actor,
                "at": iso(e.at),
            }
            for e in edits
        ]
    }


# -- procedures ------------------------------------------------------------------
@router.post("/v1/procedures", response_model=ProcedureOut, summary="Propose a procedure")
def propose_procedure(
    body: FailureIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Turn a failed task into a procedure; stored when its confidence reaches
    ``min_confidence`` (``memory_id`` set), else returned only."""
    # an agent's key writes the procedure as its agent, as it writes a memory (left39)
    scope = caller.acting_scope(state.memory, **scope_in.scope_args())
    failure = body.model_dump()
    keep = failure.pop("store")  # (a ``.store`` attribute would read as reaching a store)
    return state.memory.procedures.propose(
        failure,
        store=keep,
        namespace=scope.namespace,
        user_id=scope.user_id,
        agent_id=scope.agent_id,
    ).to_dict()


@router.get("/v1/procedures", response_model=ProcedureList, summary="Procedures")
def list_procedures(
    query: Annotated[ProcedureQuery, Query()], caller: Caller, state: State
) -> dict[str, Any]:
    """Stored procedures, newest first."""
    ns = _namespace(caller, state, query)
    items = state.memory.procedures.list(limit=query.limit, namespace=ns)
    return {"items": [p.to_dict() for p in items]}


@router.get("/v1/procedures/{memory_id}", response_model=ProcedureOut, summary="Procedure")
def get_procedure(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """One stored procedure."""
    ns = _namespace(caller, state, scope_in)
    return state.memory.procedures.get(memory_id, namespace=ns).to_dict()


@router.get(
    "/v1/procedures/{memory_id}/skill",
    summary="SKILL.md",
    # Not ``response_class``: that would document the JSON errors as text too.
    responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}}}},
)
def procedure_skill(
    memory_id: MemoryId, scope_in: ScopeQuery, caller: Caller, state: State
) -> Response:
    """The stored procedure as a SKILL.md file (Agent Skills format)."""
    ns = _namespace(caller, state, scope_in)
    found = state.memory.procedures.get(memory_id, namespace=ns)
    return Response(skill_markdown(found), media_type="text/markdown; charset=utf-8")

"""The MCP tools: a thin translation of ``Memory``'s verbs for agents (seed 002's
tool-based injection: ``search_memory`` and ``recall_memory`` by id, plus seed 001's
``get_context`` block).

Every tool resolves its namespace by calling ``namespace()`` when it runs, never
earlier: over HTTP the callable reads the namespace of the request's API key, so one
server serves many users. Blocking library calls run on a worker thread. An
``EngramError`` becomes a tool error carrying its message; input schemas reject
unknown fields and out-of-range values before the library is called.

Annotations are evaluated at definition time (no ``from __future__ import
annotations``) because the SDK builds each tool's schema from its signature, and a
bound such as ``max_content_chars`` comes from the ``Memory``'s configuration.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, cast

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.types import ToolAnnotations
from pydantic import ConfigDict, Field, ValidationError

from engram._version import __version__
from engram.errors import EngramError, NotFoundError
from engram.mcp.annotations import DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY, Tools
from engram.mcp.arguments import ArgumentsObject, argument_errors, strict_errors, unknown_tool
from engram.mcp.blocks_tools import BLOCK_TOOL_NAMES, blocks_tools
from engram.mcp.documents_tools import DOCUMENT_TOOL_NAMES, documents_tools
from engram.mcp.graph_tools import GRAPH_TOOL_NAMES, graph_tools
from engram.mcp.lifecycle_tools import LIFECYCLE_TOOL_NAMES, lifecycle_tools
from engram.mcp.org_tools import ORG_TOOL_NAMES, org_tools
from engram.mcp.palace_tools import PALACE_TOOL_NAMES, RoomArg, WingArg, palace_tools
from engram.mcp.results import (
    WORDING,
    Forgotten,
    MemoryPage,
    MemoryView,
    Rated,
    RecallResult,
    Remembered,
    SearchResult,
    context_note,
    hit_view,
    summary_of,
    whole_view,
)
from engram.mcp.runs_tools import RUNS_TOOL_NAMES, RunIdArg, runs_tools
from engram.mcp.sessions_tools import SESSION_TOOL_NAMES, sessions_tools
from engram.mcp.shared_tools import SHARED_TOOL_NAMES, shared_tools
from engram.mcp.stdio import serve_stdio
from engram.memory import Memory
from engram.org import OrgFactAuthor, agent

T = TypeVar("T")

#: The tools, in the order they are listed.
TOOL_NAMES = (
    "get_context",
    "search_memory",
    "recall_memory",
    "remember",
    "feedback",
    "forget",
    "list_memories",
    *DOCUMENT_TOOL_NAMES,
    *GRAPH_TOOL_NAMES,
    *PALACE_TOOL_NAMES,
    *RUNS_TOOL_NAMES,
    *SESSION_TOOL_NAMES,
    *LIFECYCLE_TOOL_NAMES,
    *BLOCK_TOOL_NAMES,
    *ORG_TOOL_NAMES,
    *SHARED_TOOL_NAMES,
)

# The names of engram.records.MemoryType and MemoryCategory (tests keep them in step).
MemoryTypeName = Literal[
    "fact",
    "preference",
    "decision",
    "procedural",
    "semantic",
    "observation",
    "document_chunk",
    "message",
]
CategoryName = Literal["working", "episodic", "semantic", "procedural", "social"]
Rating = Literal["up", "down", 1, -1]

INSTRUCTIONS = """\
engram is your long-term memory: what earlier sessions learned, decided and were told.
- Before starting a task, call get_context with the task; it returns prior work on
  related topics ("" when there is none).
- To look something up mid-task, call search_memory, then recall_memory with the ids
  whose full text you need.
- When you learn something worth knowing next time (a decision and why, a preference, a
  fact about the project or the user), call remember with one self-contained statement.
- After a memory helped or misled you, call feedback; call forget when one is wrong or
  obsolete.
- If you run as a harness with run ids, pass run_id to get_context, and call
  compress_and_store with the task and its output when the task is finished.
- For what is known about a person, project or thing, call kg_query (kg_timeline for how
  it changed); call kg_invalidate when such a fact stops holding.
- Before your context is compacted, call session_checkpoint (trigger pre_compaction);
  after, recover_session tells you where you were; end_session when the work is done.
- core_memory shows your core blocks (edit: core_memory_append); a task failed: propose_procedure.
Store only what cannot be found again by reading the code or the environment."""


# -- arguments ----------------------------------------------------------------------
MemoryId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="A memory's whole id, as a tool returned it (a prefix is not looked up).",
    ),
]
Tag = Annotated[str, Field(min_length=1, max_length=200)]
Tags = Annotated[list[Tag], Field(max_length=32)]
#: The filters search_memory and list_memories both take.
TypeFilter = Annotated[MemoryTypeName | None, Field(description="Only this type.")]
TagsFilter = Annotated[Tags | None, Field(description="Only memories with all these tags.")]
MetadataFilter = Annotated[
    dict[str, str | int | float | bool | None] | None,
    Field(description="Only memories whose metadata has these values."),
]


def _filters(
    type: str | None, tags: Sequence[str] | None, metadata: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The library's ``filters`` from a tool's ``type``, ``tags`` and ``metadata``."""
    filters: dict[str, Any] = {f"metadata.{k}": v for k, v in (metadata or {}).items()}
    if type is not None:
        filters["type"] = type
    if tags:
        filters["tags"] = list(tags)
    return filters


def _strict(tool: Tool) -> Tool:
    """Make the tool reject unknown arguments (``additionalProperties: false``)."""
    base = tool.fn_metadata.arg_model
    strict = cast(
        type[ArgModelBase],
        type(
            base.__name__,
            (base,),
            {"model_config": ConfigDict(extra="forbid"), "__module__": __name__},
        ),
    )
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool


def _nobody() -> str | None:
    return None


def create_mcp_server(
    memory: Memory,
    *,
    namespace: str | Callable[[], str],
    author: OrgFactAuthor | Callable[[], OrgFactAuthor] | None = None,
    user_id: str | None = None,
    agent_id: str | None = None,
    bound_agent: Callable[[], str | None] | None = None,
) -> MCPServer[Any]:
    """An MCP server whose tools act on ``memory`` in one namespace.

    ``namespace`` is a namespace name, or a callable returning one, called each time a
    tool runs (the HTTP API passes one that reads the caller's namespace). ``author``
    is who ``org_write`` writes as (a callable for the HTTP API's per-key author);
    default a junior agent named ``mcp``. ``user_id`` and ``agent_id`` are stamped on
    every memory ``remember`` stores, as the library's ``mem.add(..., user_id=,
    agent_id=)`` stamps them: ``engram mcp --user alice --agent planner`` records which
    agent wrote what (new-user round twenty-five: it recorded none). ``bound_agent``
    (the HTTP API's, called each time a tool runs): the agent the caller's API key is
    bound to, which ``remember`` stamps and the session and shared tools hold the call
    to (keys38).
    """
    bound = bound_agent or _nobody
    stamped = {k: v for k, v in (("user_id", user_id), ("agent_id", agent_id)) if v}
    writer = author if author is not None else agent("mcp", "junior")
    author_of: Callable[[], OrgFactAuthor] = writer if callable(writer) else (lambda: writer)
    if isinstance(namespace, str):
        fixed = memory.scope(namespace).namespace  # validates the name now

        def resolve() -> str:
            return fixed

    else:
        resolve = namespace

    async def call(fn: Callable[[str], T]) -> T:
        try:
            ns = resolve()
            return await anyio.to_thread.run_sync(fn, ns)
        except EngramError as exc:
            raise ToolError(str(exc)) from exc

    max_chars = memory.config.max_content_chars

    async def get_context(
        task: Annotated[
            str,
            Field(min_length=1, max_length=10_000, description="The task you are about to do."),
        ],
        limit: Annotated[
            int | None, Field(ge=1, le=50, description="At most this many memories (default 4).")
        ] = None,
        budget_tokens: Annotated[
            int | None, Field(ge=1, le=100_000, description="Token budget for the block.")
        ] = None,
        style: Annotated[
            Literal["prior_work", "memory_context"],
            Field(
                description='"prior_work": a "Prior work on related topics:" block; '
                '"memory_context": a <memory_context> list with dates and ids.'
            ),
        ] = "prior_work",
        wing: WingArg = None,
        room: RoomArg = None,
        cite: Annotated[
            Literal["id", "pointer"],
            Field(
                description='"pointer": cite conversation messages by AAAK pointer (§ '
                "W-001/R-01/D-003 ...; read one with resolve_pointer). Needs style "
                '"memory_context".'
            ),
        ] = "id",
        run_id: RunIdArg = None,
    ) -> str:
        """Call before starting a task: returns what earlier sessions found, decided or were
        told about related topics, as a block to read before planning. Returns "" when
        memory holds nothing related, which means the task is new ground. When related
        memories exist but none fits (budget_tokens too small, wing or room excluding
        them), it returns one line saying why instead. With run_id, the memories
        returned are logged as injected into that run."""
        if cite == "pointer" and style != "memory_context":
            # prior_work lines cite nothing, so a pointer would be silently dropped.
            raise ToolError(
                'cite="pointer" needs style="memory_context": the prior_work block cites no memory'
            )

        def run(ns: str) -> str:
            result = memory.recall(
                task,
                namespace=ns,
                limit=limit,
                budget_tokens=budget_tokens,
                context_style=style,
                wing=wing,
                room=room,
                cite=cite,
            )
            if run_id is not None:  # seed 000's log_memory_hits
                memory.runs.log_memory_hits(run_id, result.hits, task=task, namespace=ns)
            note = context_note(result)
            return "\n\n".join(part for part in (result.context, note) if part)

        return await call(run)

    async def search_memory(
        query: Annotated[
            str, Field(min_length=1, max_length=10_000, description="What to look for.")
        ],
        limit: Annotated[int, Field(ge=1, le=50, description="How many hits.")] = 10,
        type: TypeFilter = None,
        tags: TagsFilter = None,
        metadata: MetadataFilter = None,
        wing: WingArg = None,
        room: RoomArg = None,
    ) -> SearchResult:
        """Call mid-task to look something up in memory: ranked hits with ids, scores and
        the start of their content (hybrid keyword + semantic search, weighted by
        quality and recency). Follow up with recall_memory for the full text of a hit."""
        filters = _filters(type, tags, metadata)

        def run(ns: str) -> SearchResult:
            result = memory.recall(
                query,
                namespace=ns,
                limit=limit,
                filters=filters or None,
                wing=wing,
                room=room,
            )
            return SearchResult(
                mode=result.mode.value,
                hits=[hit_view(h) for h in result.hits],
                warnings=list(result.warnings),
                abstained=result.abstained,
                abstain_reason=result.abstain_reason,
                empty_reason=result.empty_reason,
                empty_message=None if result.empty is None else result.empty.message(WORDING),
                low_confidence=result.low_confidence,
            )

        return await call(run)

    async def recall_memory(
        ids: Annotated[
            list[MemoryId],
            Field(min_length=1, max_length=50, description="Ids from search_memory hits."),
        ],
    ) -> RecallResult:
        """Call to read whole memories by id, e.g. the search_memory hits whose shortened
        content you need in full. Unknown ids are listed in not_found; it is an error
        only when none of the ids is found."""

        def run(ns: str) -> RecallResult:
            found: list[MemoryView] = []
            missing: list[str] = []
            for memory_id in dict.fromkeys(ids):
                try:
                    found.append(whole_view(memory.get(memory_id, namespace=ns)))
                except NotFoundError:
                    missing.append(memory_id)
            if not found:
                raise NotFoundError(f"no memory with id {', '.join(map(repr, missing))} here")
            return RecallResult(memories=found, not_found=missing)

        return await call(run)

    async def remember(
        content: Annotated[
            str,
            Field(
                min_length=1,
                max_length=max_chars,
                description="One self-contained statement, stored verbatim.",
            ),
        ],
        title: Annotated[str | None, Field(max_length=200, description="A one-line title.")] = None,
        type: Annotated[
            MemoryTypeName | None, Field(description="What kind of memory (default fact).")
        ] = None,
        category: Annotated[CategoryName | None, Field(description="Seed 002 category.")] = None,
        tags: Annotated[Tags | None, Field(description="Short labels to filter by.")] = None,
        importance: Annotated[float | None, Field(ge=0.0, le=1.0)] = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(max_length=64, description="Extra JSON fields, e.g. a source."),
        ] = None,
    ) -> Remembered:
        """Call when you learn something worth knowing in a later session: a decision and
        why, a user's preference, a fact about the project that the code does not show.
        Storing the same content again is harmless: it returns the existing id."""
        item: dict[str, Any] = {
            "content": content,
            "title": title,
            "type": type,
            "category": category,
            "tags": list(tags) if tags else None,
            "importance": importance,
            "metadata": metadata,
            **stamped,
        }
        if (agent := bound()) is not None:
            item["agent_id"] = agent

        def run(ns: str) -> Remembered:
            [result] = memory.add_many([item], namespace=ns, on_blocked="raise").items
            assert result.record is not None  # refusals raise
            return Remembered(
                id=result.record.id,
                created=result.created,
                jobs=list(result.jobs),
                duplicate_of=result.duplicate_of,
                merged=None if result.merged is None else result.merged.summary(),
            )

        return await call(run)

    async def feedback(
        id: MemoryId,
        rating: Annotated[Rating, Field(description='"up" (or 1) if it helped, "down" (or -1).')],
        comment: Annotated[
            str | None, Field(max_length=2000, description="Why; kept in the feedback log.")
        ] = None,
    ) -> Rated:
        """Call after a recalled memory helped ("up") or misled you ("down"): its quality
        moves by one within -3..+3 and ranks it higher or lower from then on."""

        def run(ns: str) -> Rated:
            record = memory.feedback(id, rating, comment, namespace=ns)
            return Rated(id=record.id, quality=record.quality)

        return await call(run)

    async def forget(id: MemoryId) -> Forgotten:
        """Call when a memory is wrong or obsolete: it leaves search and recall at once
        (its history is kept). To correct a memory, forget it and remember the fix."""

        def run(ns: str) -> Forgotten:
            return Forgotten(id=memory.delete(id, namespace=ns).id)

        return await call(run)

    async def list_memories(
        limit: Annotated[int, Field(ge=1, le=100, description="Page size.")] = 20,
        offset: Annotated[int, Field(ge=0, le=1_000_000)] = 0,
        type: TypeFilter = None,
        tags: TagsFilter = None,
        metadata: MetadataFilter = None,
    ) -> MemoryPage:
        """Call to browse what memory holds, newest first, a page at a time (for finding
        something by topic, search_memory is better)."""
        filters = _filters(type, tags, metadata)

        def run(ns: str) -> MemoryPage:
            page = memory.get_all(namespace=ns, filters=filters, limit=limit, offset=offset)
            total = page.total
            return MemoryPage(
                items=[summary_of(r) for r in page],
                total=total,
                limit=limit,
                offset=offset,
                next_offset=offset + limit if offset + limit < total else None,
            )

        return await call(run)

    tools: Tools = {
        "get_context": (get_context, READ_ONLY),
        "search_memory": (search_memory, READ_ONLY),
        "recall_memory": (recall_memory, READ_ONLY),
        "remember": (
            remember,
            IDEMPOTENT_WRITE,
        ),
        "feedback": (feedback, ToolAnnotations(read_only_hint=False, open_world_hint=False)),
        "forget": (
            forget,
            DESTRUCTIVE,
        ),
        "list_memories": (list_memories, READ_ONLY),
        **documents_tools(memory, call),
        **graph_tools(memory, call),
        **palace_tools(memory, call),
        **runs_tools(memory, call),
        **sessions_tools(memory, call, bound),
        **lifecycle_tools(memory, call),
        **blocks_tools(memory, call),
        **org_tools(memory, call, author_of),
        **shared_tools(memory, call, bound),
    }
    return _Server(
        "engram",
        instructions=INSTRUCTIONS,
        version=_version(),
        tools=[
            _strict(
                Tool.from_function(
                    fn,
                    name=name,
                    description=" ".join((fn.__doc__ or "").split()),
                    annotations=notes,
                )
            )
            for name, (fn, notes) in ((n, tools[n]) for n in TOOL_NAMES)
        ],
        log_level="WARNING",
    )


class _Server(MCPServer[Any]):
    """The SDK's server, saying what was wrong with a call's arguments in one line per
    argument, as the HTTP API does, instead of pydantic's report (its model's class
    name, the rejected input echoed back, a link to pydantic's site) in the words the
    HTTP API's 422s use (``engram.validation_words``); on stdio, answering
    a line that is not a JSON-RPC message (``engram.mcp.stdio``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # ``arguments`` that is not a JSON object: -32602 in engram's words, on stdio
        # and over HTTP alike (the middleware runs before the SDK reads the request).
        super().__init__(*args, middleware=[ArgumentsObject(self._model_of)], **kwargs)

    def _model_of(self, name: str) -> Any:
        tool = self._tool_manager.get_tool(name)
        return None if tool is None else tool.fn_metadata.arg_model

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        model = self._model_of(name)
        if model is None:
            raise ToolError(unknown_tool(name, [t.name for t in self._tool_manager.list_tools()]))
        strict = strict_errors(arguments, model)
        if strict:
            raise ToolError(argument_errors(name, strict, model))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            # Chained to the ValidationError: the SDK logs its field names.
            raise ToolError(argument_errors(name, cause.errors(), model)) from cause

    async def run_stdio_async(self) -> None:
        # A line that is not a JSON-RPC message gets JSON-RPC's error, not silence.
        await serve_stdio(self._lowlevel_server)


def _version() -> str:
    return __version__


def tool_manifest(server: MCPServer[Any]) -> list[dict[str, Any]]:
    """The tools as MCP lists them: name, description, annotations, input and output schema."""

    async def listed() -> Sequence[Any]:
        return await server.list_tools()

    return [
        tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in anyio.run(listed)
    ]

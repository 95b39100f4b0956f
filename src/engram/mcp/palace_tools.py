"""The palace MCP tools (FEATURES G6, G7, G8; seed 003): ``palace_tree``,
``mine_conversation`` and ``resolve_pointer``, a thin translation of ``mem.palace``.

``engram.mcp.server`` registers them next to the memory tools and runs each through
the same ``call``: the namespace is resolved when the tool runs, the library call goes
to a worker thread, and an ``EngramError`` becomes a tool error with its message.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engram.mcp.annotations import IDEMPOTENT_WRITE, READ_ONLY, Tools
from engram.memory import Memory

T = TypeVar("T")

#: The palace tools, in the order they are listed.
PALACE_TOOL_NAMES = ("palace_tree", "mine_conversation", "resolve_pointer")
#: At most this many messages per mine_conversation call (a tool call is not an import).
MAX_MESSAGES = 2000

#: ``get_context`` and ``search_memory``'s place arguments (``mem.recall(wing=, room=)``).
WingArg = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=200,
        description="Only memories filed in this palace wing: its name or code (W-001), "
        "as palace_tree lists them.",
    ),
]
RoomArg = Annotated[
    Annotated[str, Field(min_length=1, max_length=200)]
    | Annotated[int, Field(ge=1, le=2**31 - 1)]
    | None,
    Field(
        description="Only memories filed in this room (session) of the wing: its name "
        "or number (R-01 is 1). Needs wing."
    ),
]


class Call(Protocol):
    """``create_mcp_server``'s runner: resolve the namespace, run ``fn`` on a thread,
    turn an ``EngramError`` into a tool error."""

    async def __call__(self, fn: Callable[[str], T]) -> T: ...


class PalaceRoom(BaseModel):
    """A room (a session) of a wing."""

    code: str = Field(description="W-001/R-01: the start of its drawers' pointers.")
    name: str
    drawers: int
    closets: list[str] = Field(description="The topics discussed in it.")


class PalaceWing(BaseModel):
    """A subject of the palace: a person, project, topic or agent."""

    code: str = Field(description="W-001.")
    name: str
    kind: str
    drawers: int
    rooms: list[PalaceRoom]


class PalaceTree(BaseModel):
    """The palace: wings, their rooms and the rooms' topics."""

    wings: list[PalaceWing]


class ChatMessage(BaseModel):
    """One message of the conversation, stored verbatim."""

    model_config = ConfigDict(extra="forbid")

    role: str | None = Field(default=None, max_length=200, description="user, assistant, a name")
    content: str


class MinedConversation(BaseModel):
    """What mining filed."""

    room: str | None = Field(description="The room's code (W-001/R-01); null: empty input.")
    added: list[str] = Field(description="The new drawers' AAAK pointers.")
    kept: int = Field(description="Messages the room already held (mining is idempotent).")
    blocked: int = Field(description="Messages the injection scan refused.")
    invalid: int = Field(
        description="Messages not filed because no store can hold their text (empty or "
        "blank, a NUL character, a lone surrogate): correct them and send them again."
    )
    closets: list[str] = Field(description="The topics the drawers were filed under.")


class ResolvedPointer(BaseModel):
    """The drawer an AAAK pointer names and its verbatim message."""

    pointer: str
    memory_id: str
    role: str | None
    content: str
    created_at: str


def _tree(nodes: Any) -> PalaceTree:
    return PalaceTree(
        wings=[
            PalaceWing(
                code=n.wing.code,
                name=n.wing.name,
                kind=n.wing.kind,
                drawers=n.drawers,
                rooms=[
                    PalaceRoom(
                        code=r.room.code,
                        name=r.room.name,
                        drawers=r.drawers,
                        closets=[c.name for c in r.closets],
                    )
                    for r in n.rooms
                ],
            )
            for n in nodes
        ]
    )


def palace_tools(memory: Memory, call: Call) -> Tools:
    """The palace tools over ``memory``, each with its MCP annotations."""

    async def palace_tree(
        wing: Annotated[
            str | None,
            Field(min_length=1, max_length=200, description="Only this wing (name or W-001)."),
        ] = None,
    ) -> PalaceTree:
        """Call to see how memory is organised: wings (people, projects, topics,
        agents), their rooms (sessions) with drawer counts, and the topics discussed in
        each room."""

        def run(ns: str) -> PalaceTree:
            return _tree(memory.palace.tree(wing, namespace=ns))

        return await call(run)

    async def mine_conversation(
        messages: Annotated[
            list[ChatMessage],
            Field(max_length=MAX_MESSAGES, description="The conversation, oldest first."),
        ],
        wing: Annotated[
            str,
            Field(min_length=1, max_length=200, description="Who or what it is about."),
        ],
        session: Annotated[
            str | None,
            Field(min_length=1, max_length=200, description="The session's name (its room)."),
        ] = None,
        kind: Annotated[
            Literal["person", "project", "topic", "agent"],
            Field(description="The wing's kind if it is new."),
        ] = "topic",
    ) -> MinedConversation:
        """Call when a conversation ends to remember it: each message is stored
        verbatim as one drawer in the wing's room for this session, with its topics and
        AAAK pointer. Sending the same conversation again stores nothing twice."""

        def run(ns: str) -> MinedConversation:
            result = memory.palace.mine_conversation(
                [m.model_dump(exclude_none=True) for m in messages],
                wing=wing,
                session=session,
                kind=kind,
                namespace=ns,
            )
            return MinedConversation(
                room=None if result.room is None else result.room.code,
                added=[d.pointer for d in result.added],
                kept=result.kept,
                blocked=result.blocked,
                invalid=result.invalid,
                closets=[c.name for c in result.closets],
            )

        return await call(run)

    async def resolve_pointer(
        pointer: Annotated[
            str,
            Field(
                min_length=1,
                max_length=1000,
                description='An AAAK pointer such as "§ W-001/R-01/D-003" (tags optional).',
            ),
        ],
    ) -> ResolvedPointer:
        """Call to read the message an AAAK pointer (§ W-…/R-…/D-…) cites, for example
        one from a memory context block: returns the verbatim message."""

        def run(ns: str) -> ResolvedPointer:
            found = memory.palace.resolve(pointer, namespace=ns)
            return ResolvedPointer(
                pointer=found.pointer,
                memory_id=found.memory.id,
                role=found.drawer.role,
                content=found.memory.content,
                created_at=found.memory.to_dict()["created_at"],
            )

        return await call(run)

    return {
        "palace_tree": (palace_tree, READ_ONLY),
        "mine_conversation": (
            mine_conversation,
            IDEMPOTENT_WRITE,
        ),
        "resolve_pointer": (resolve_pointer, READ_ONLY),
    }

"""The lifecycle MCP tools (FEATURES S8; seed 002's deterministic restore):
``archived_memories`` and ``restore_memory``, a thin translation of ``mem.lifecycle``,
and ``decay_aspects`` (FEATURES G5, seed 004's aspect decay of the caller's namespace,
``mem.graph.decay_aspects``).

Consolidation folds an agent's oldest memories into summaries (tagged ``consolidated``);
an agent that finds a summary too thin lists what it replaced and restores the originals
by id, "bypassing semantic search" as seed 002 puts it. Both work in the caller's own
namespace. Consolidating and sweeping retention change every namespace and are an
admin's, so they are not tools (``engram lifecycle``, the admin HTTP routes).

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from collections.abc import Callable
from typing import Annotated, Protocol, TypeVar

from pydantic import BaseModel, Field

from engram.errors import InvalidInputError
from engram.mcp.annotations import IDEMPOTENT_WRITE, READ_ONLY, Tools
from engram.memory import Memory
from engram.records import iso

T = TypeVar("T")

LIFECYCLE_TOOL_NAMES = ("archived_memories", "restore_memory", "decay_aspects")

#: Restore resolves a prefix, as the CLI does (docs/http.md#ids).
ARCHIVED_ID = (
    "An archived memory's or a summary's id, or a unique prefix of it (8 or more characters)."
)
MemoryIdArg = Annotated[str, Field(min_length=1, max_length=200, description=ARCHIVED_ID)]


class Call(Protocol):
    """``create_mcp_server``'s runner (see ``palace_tools.Call``)."""

    async def __call__(self, fn: Callable[[str], T]) -> T: ...


class ArchivedMemory(BaseModel):
    """One entry of the archival index: an original and the summary that replaced it."""

    original_id: str
    summary_id: str
    mode: str = Field(description="abstractive (LLM summary) or extractive (verbatim).")
    original_created_at: str


class ArchivedList(BaseModel):
    """The archival index, newest first."""

    items: list[ArchivedMemory]


class RestoredMemory(BaseModel):
    """A memory back in recall, exactly as it was archived."""

    id: str
    content: str
    created_at: str


class Restored(BaseModel):
    """The memories restored."""

    restored: list[RestoredMemory]


class Decayed(BaseModel):
    """What one aspect decay run did."""

    decayed: int = Field(description="Aspects that lost weight (stale past aspect_stale_days).")


def lifecycle_tools(memory: Memory, call: Call) -> Tools:
    """The lifecycle tools over ``memory``, each with its MCP annotations."""

    async def archived_memories(
        summary_id: Annotated[
            str | None,
            Field(max_length=200, description="Only the originals of this summary."),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
    ) -> ArchivedList:
        """Call when a summary memory (tagged consolidated) is too thin: lists the
        memories consolidation archived in its place (kept whole), newest first."""

        def run(ns: str) -> ArchivedList:
            entries = memory.lifecycle.archived(summary_id=summary_id, limit=limit, namespace=ns)
            if summary_id is not None and not entries:
                # Never a silent empty list for an id the agent got wrong (round eight).
                memory.get(summary_id, namespace=ns)  # NotFoundError for an unknown id
                raise InvalidInputError(
                    f"memory {summary_id!r} has no archived originals: it is not a "
                    "consolidation summary (those are tagged consolidated), or its "
                    "originals were restored or compacted; call archived_memories "
                    "without summary_id to list the whole archive"
                )
            return ArchivedList(
                items=[
                    ArchivedMemory(
                        original_id=e.original_id,
                        summary_id=e.summary_id,
                        mode=e.mode,
                        original_created_at=iso(e.original_created_at),
                    )
                    for e in entries
                ]
            )

        return await call(run)

    async def restore_memory(memory_id: MemoryIdArg) -> Restored:
        """Call to bring an archived memory back into recall exactly as it was, or,
        given a summary's id (tagged consolidated), every original it replaced."""

        def run(ns: str) -> Restored:
            records = memory.lifecycle.restore(memory_id, namespace=ns)
            return Restored(
                restored=[
                    RestoredMemory(id=r.id, content=r.content, created_at=iso(r.created_at))
                    for r in records
                ]
            )

        return await call(run)

    async def decay_aspects() -> Decayed:
        """Call at a natural break (the end of a long task) to let entity aspects nobody
        confirmed lately lose weight; each decays at most once per stale period."""

        def run(ns: str) -> Decayed:
            return Decayed(decayed=memory.graph.decay_aspects(namespace=ns))

        return await call(run)

    return {
        "decay_aspects": (
            decay_aspects,
            IDEMPOTENT_WRITE,
        ),
        "archived_memories": (
            archived_memories,
            READ_ONLY,
        ),
        "restore_memory": (
            restore_memory,
            IDEMPOTENT_WRITE,
        ),
    }

"""engram as a LlamaIndex memory block (``pip install engramdb[llamaindex]``).

LlamaIndex's ``Memory`` keeps a short-term queue of chat messages. When the queue passes
its token limit, the oldest messages are flushed into the memory blocks (``aput``), and
every ``memory.get()`` asks each block for text to inject (``aget``).
``EngramMemoryBlock`` stores each flushed turn (a user message and the replies that
follow it) verbatim as one engram memory, roles kept and the LlamaIndex session id on the
record, and answers ``aget`` with engram's recall context for the latest messages::

    from llama_index.core.memory import Memory as ChatMemory
    from engram import Memory
    from engram.adapters.llamaindex import EngramMemoryBlock

    block = EngramMemoryBlock(memory=Memory(), user_id="alice")
    chat = ChatMemory.from_defaults(session_id="s1", memory_blocks=[block])

``priority`` and ``accept_short_term_memory`` keep LlamaIndex's meaning and defaults
(``BaseMemoryBlock``): priority 0 is never truncated; a block that does not accept
short-term memory ignores flushed messages.

Importing this module imports llama-index; ``import engram`` never does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, TextBlock
from llama_index.core.bridge.pydantic import Field
from llama_index.core.memory import BaseMemoryBlock

from engram.memory import Memory
from engram.records import BatchResult

__all__ = ["EngramMemoryBlock"]

#: The tag on every memory this block stores, so they can be listed or filtered.
TAG = "llamaindex"


class EngramMemoryBlock(BaseMemoryBlock[str]):
    """A LlamaIndex memory block backed by an engram ``Memory``.

    Flushed messages are stored as engram memories in the namespace chosen by
    ``namespace``/``user_id``/``agent_id`` (engram's namespace rule); ``aget`` recalls
    from that namespace, across sessions, or only from the current LlamaIndex session
    with ``session_only=True`` (what LlamaIndex's ``VectorMemoryBlock`` does: like it,
    the filter applies when ``aget`` is given a ``session_id``, as ``Memory`` always does).
    """

    name: str = Field(default="EngramMemory", description="The name of the memory block.")
    # Left out of model_dump: a store connection is no configuration to serialise.
    memory: Memory = Field(exclude=True, description="The engram Memory that stores and recalls.")
    namespace: str | None = Field(default=None, description="The engram namespace.")
    user_id: str | None = Field(default=None, description="Whose memories (user:<id>).")
    agent_id: str | None = Field(default=None, description="The agent the memories are of.")
    limit: int | None = Field(
        default=None, ge=1, description="Memories recalled per get (None: engram's default, 4)."
    )
    budget_tokens: int | None = Field(
        default=None, ge=1, description="Pack recalled memories into this many tokens."
    )
    retrieval_context_window: int = Field(
        default=1, ge=1, description="How many of the latest messages make the recall query."
    )
    session_only: bool = Field(
        default=False, description="Recall only memories of the current LlamaIndex session."
    )

    def model_post_init(self, context: Any, /) -> None:
        """Check the scope now, so a bad namespace fails at construction, not mid-chat
        (pydantic reports engram's ``InvalidInputError`` as a ``ValidationError``)."""
        self.memory.scope(self.namespace, user_id=self.user_id, agent_id=self.agent_id)

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """engram's recall context for the latest messages ("" when nothing matches)."""
        query = _text_of(messages[-self.retrieval_context_window :] if messages else [])
        if not query.strip():
            return ""
        session_id = block_kwargs.get("session_id")
        filters = {"session_id": session_id} if self.session_only and session_id else None
        return await asyncio.to_thread(self._context, query, filters)

    def _context(self, query: str, filters: dict[str, Any] | None) -> str:
        """Recall's context for ``query``, as ``mem.recall`` gives it; where recall would
        abstain, the nearest memories instead. LlamaIndex's contract has no "nothing
        related" answer (``VectorMemoryBlock`` gives its top-k), but asking recall with
        ``abstain=False`` every time also lost its relative floor (issue 24), so weak
        padding could push a memory recall shows out of the block (round twenty-five)."""
        ask: dict[str, Any] = {
            "namespace": self.namespace,
            "user_id": self.user_id,
            "agent_id": self.agent_id,
            "limit": self.limit,
            "budget_tokens": self.budget_tokens,
            "filters": filters,
        }
        recall = self.memory.recall(query, **ask)
        if not recall.hits:  # abstained (or nothing stored): the nearest, as top-k does
            recall = self.memory.recall(query, abstain=False, **ask)
        return recall.context

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Store the flushed messages, one engram memory per turn, roles kept.

        ``BaseMemoryBlock.aput`` puts the LlamaIndex session id in each message's
        ``additional_kwargs``; it becomes the memory's ``session_id``."""
        items = [
            {
                "content": turn,
                "user_id": self.user_id,
                "agent_id": self.agent_id,
                "session_id": session_id,
                "tags": [TAG],
            }
            for turn, session_id in _turns(messages)
        ]
        if items:
            await asyncio.to_thread(self._store, items)

    def _store(self, items: list[dict[str, Any]]) -> BatchResult:
        # Flushed turns record what was said: a turn the injection scan objects to is
        # stored flagged and kept out of recall's context, not refused (engram issue 27).
        return self.memory.add_many(items, namespace=self.namespace, on_blocked="flag")


def _text_of(messages: Sequence[ChatMessage]) -> str:
    """The text blocks of ``messages``, one message per line."""
    return "\n".join(t for t in (_message_text(m) for m in messages) if t)


def _message_text(message: ChatMessage) -> str:
    return "".join(b.text for b in message.blocks if isinstance(b, TextBlock))


def _turns(messages: Sequence[ChatMessage]) -> list[tuple[list[dict[str, str]], str | None]]:
    """Split flushed messages into turns, each starting at a user message, as engram's
    ``[{role, content}]`` messages with the turn's session id. Messages without text
    (a bare tool call, an image) have nothing to recall by and are left out."""
    turns: list[tuple[list[dict[str, str]], str | None]] = []
    for message in messages:
        text = _message_text(message)
        if not text.strip():
            continue
        role = str(message.role.value)
        given = message.additional_kwargs.get("session_id")
        session_id = given if isinstance(given, str) else None
        entry = {"role": role, "content": text}
        if turns and role != "user" and turns[-1][1] == session_id:
            turns[-1][0].append(entry)
        else:
            turns.append(([entry], session_id))
    return turns

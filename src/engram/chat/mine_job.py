"""The ``chat_mine`` job: a completed chat turn mined into the palace (seed 003's
automatic mining: "kicks off mineConversation(conversationId) in the background — the
user sees their assistant reply immediately and never waits").

``mem.chat.after`` queues it; a worker runs it. The exchange is filed in the wing of the
agent (or ``chat`` without one), in the room named by the conversation: one drawer per
turn through the everyday write path, so what it files is scanned for injection, and
each new drawer gets a ``memory_mined`` history event. Mining the same conversation
again files only the turns it had not filed yet, so a retried job adds nothing, and a
job older than one already mined for the conversation (its id, the order it was
queued in) only fills gaps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engram.errors import InvalidInputError
from engram.palace import Palace
from engram.pipeline.handlers import register

if TYPE_CHECKING:
    from engram.core import Core
    from engram.store.protocols import Job

#: The job kind.
KIND = "chat_mine"
#: The wing of a conversation no agent was named for.
CHAT_WING = "chat"


def mine_turn(core: Core, job: Job) -> Mapping[str, Any]:
    """File the job's exchange (``payload``: ``messages``, ``conversation_id``,
    ``user_id``, ``agent_id``) and report what landed."""
    payload = job.payload
    messages = payload.get("messages")
    conversation = payload.get("conversation_id")
    if not isinstance(messages, list) or not isinstance(conversation, str):
        raise InvalidInputError("a chat_mine job needs 'messages' and 'conversation_id'")
    agent = payload.get("agent_id")
    result = Palace(core).mine_conversation(
        messages,
        wing=agent or CHAT_WING,
        kind="agent" if agent else "topic",
        session=conversation,
        namespace=job.namespace,
        user_id=payload.get("user_id"),
        agent_id=agent,
        # Jobs are numbered as queued: an older exchange's job, run late or retried,
        # only fills gaps and never re-files the reply a newer one replaced.
        sequence=job.id,
    )
    return {
        "conversation_id": conversation,
        "turns": result.turns,
        "added": [d.memory_id for d in result.added],
        "pointers": [d.pointer for d in result.added],
        "kept": result.kept,
        "replaced": result.replaced,
        "blocked": result.blocked,
        "invalid": result.invalid,
    }


register(KIND, mine_turn)

"""What one chat turn's messages hold, and how memory goes into them (seed 003).

- the query recall runs on is the latest user message's text;
- the ``<memory_context>`` block recall rendered (spotlighted: escaped, under a data
  marker) is prepended to the system prompt, or becomes one when there is none;
- a conversation without an id gets a stable one from its opening messages, so each
  turn of it lands in the same palace room and the same session;
- what mining files is the user and assistant turns as text, never the system prompt
  (which carries the injected memories, and would file them again).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from engram.inject import text_of
from engram.validate import name_value

#: Roles whose text is the system prompt the context block joins.
SYSTEM_ROLES = ("system", "developer")
#: Roles mining files: the exchange itself.
MINED_ROLES = ("user", "assistant")
#: Characters of a conversation id (it is a session key, which holds 200).
MAX_CONVERSATION = 200
#: The opening messages a derived conversation id hashes: the first user message (the
#: only one a conversation's first turn has, and every later turn keeps).
OPENING = 1


def latest_user_text(messages: Sequence[Mapping[str, Any]]) -> str | None:
    """The latest user message with text, or None (nothing to recall for)."""
    for message in reversed(messages):
        if message.get("role") == "user":
            text = text_of(message.get("content")).strip()
            if text:
                return text
    return None


def with_context(messages: Sequence[Mapping[str, Any]], block: str) -> list[dict[str, Any]]:
    """``messages`` with ``block`` prepended to the leading system prompt (seed 003:
    "prepended to the system prompt"), or as a system message of its own before the
    rest when there is none; unchanged when ``block`` is empty (seed 003: no
    "no memories found" filler)."""
    out = [dict(m) for m in messages]
    if not block:
        return out
    if out and out[0].get("role") in SYSTEM_ROLES:
        content = out[0].get("content")
        if isinstance(content, list):  # content parts: the block is a text part first
            out[0]["content"] = [{"type": "text", "text": block}, *content]
        else:
            rest = text_of(content)
            out[0]["content"] = f"{block}\n\n{rest}" if rest else block
        return out
    return [{"role": "system", "content": block}, *out]


def conversation_id(given: str | None, messages: Sequence[Mapping[str, Any]]) -> str:
    """The caller's conversation id, checked; else one derived from the system prompt
    and the first user message (the same for every later turn of the conversation,
    since it keeps its opening), ``chat-<12 hex>``. Two conversations that open alike
    share a derived id: a caller that holds several should name them."""
    if given is not None:
        return name_value("conversation_id", given, limit=MAX_CONVERSATION)
    system = [text_of(m.get("content")) for m in messages if m.get("role") in SYSTEM_ROLES][:1]
    opening = (
        system + [text_of(m.get("content")) for m in messages if m.get("role") == "user"][:OPENING]
    )
    digest = hashlib.sha256("\x01".join(opening).encode("utf-8")).hexdigest()
    return f"chat-{digest[:12]}"


def exchange(messages: Sequence[Mapping[str, Any]], reply: str) -> list[dict[str, str]]:
    """What mining files: the user and assistant turns with text, then ``reply``."""
    turns = [
        {"role": str(m["role"]), "content": text}
        for m in messages
        if m.get("role") in MINED_ROLES and (text := text_of(m.get("content"))).strip()
    ]
    if reply.strip():
        turns.append({"role": "assistant", "content": reply})
    return turns


def agent_list(value: str) -> frozenset[str]:
    """``[chat] recall_off_agents``: comma-separated agent ids."""
    return frozenset(part.strip() for part in value.split(",") if part.strip())

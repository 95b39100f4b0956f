"""seed 003's automatic memory for LangGraph agents, built on ``mem.chat`` (issue 31).

``chat_hooks(mem, user_id=...)`` returns ``(pre_model_hook, post_model_hook)``: pass
them to ``langgraph.prebuilt.create_react_agent`` or call them from nodes of your own
graph. Before each model call the pre hook recalls on the latest user message and hands
the model the messages with the ``<memory_context>`` block in the system prompt (as
``llm_input_messages``: the graph's state keeps the messages as they were). After a
model call that ends the turn (an answer, not tool calls) the post hook queues the
exchange for mining; it never mines inline.

Who the turn is for comes from the hook's arguments, else the run's ``configurable``
(``user_id``, ``agent_id``, and ``thread_id`` as the conversation).

Importing this module imports LangChain's messages; ``import engram`` never does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Optional

from langchain_core.messages import AIMessage, convert_to_messages, convert_to_openai_messages
from langchain_core.runnables import RunnableConfig

from engram.memory import Memory

__all__ = ["chat_hooks"]

Hook = Callable[..., dict[str, Any]]


def chat_hooks(
    memory: Memory,
    *,
    user_id: str | None = None,
    agent_id: str | None = None,
    conversation_id: str | None = None,
    namespace: str | None = None,
) -> tuple[Hook, Hook]:
    """``(pre_model_hook, post_model_hook)`` running ``mem.chat.before`` and
    ``mem.chat.after`` around each model call."""

    def names(config: Mapping[str, Any] | None) -> dict[str, Any]:
        given = dict((config or {}).get("configurable") or {})
        return {
            "user_id": user_id or given.get("user_id"),
            "agent_id": agent_id or given.get("agent_id"),
            "conversation_id": conversation_id or given.get("thread_id"),
            "namespace": namespace,
        }

    # LangGraph passes the run's config (its thread_id: the conversation) only to a
    # ``config`` annotated with one of the exact strings it knows, "RunnableConfig" or
    # "Optional[RunnableConfig]" (annotations are strings here); on any other it warns
    # at graph build and calls the hook without it.
    def pre_model_hook(
        state: Mapping[str, Any],
        config: Optional[RunnableConfig] = None,  # noqa: UP045
    ) -> dict[str, Any]:
        messages = convert_to_openai_messages(list(state["messages"]))
        turn = memory.chat.before(messages, **names(config))
        return {"llm_input_messages": convert_to_messages(turn.messages)}

    def post_model_hook(
        state: Mapping[str, Any],
        config: Optional[RunnableConfig] = None,  # noqa: UP045
    ) -> dict[str, Any]:
        *said, last = list(state["messages"])
        if isinstance(last, AIMessage) and not last.tool_calls:
            reply = last.text if isinstance(last.text, str) else str(last.content)
            memory.chat.after(convert_to_openai_messages(said), reply, **names(config))
        return {}

    return pre_model_hook, post_model_hook

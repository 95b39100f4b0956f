"""seed 003's automatic memory for the OpenAI Agents SDK, built on ``mem.chat`` (issue 31).

``EngramChatHooks(mem, user_id=...)`` is a ``RunHooks``; its ``run_config`` sets the
SDK's ``call_model_input_filter`` to it as well::

    hooks = EngramChatHooks(mem, user_id="ann", conversation_id="c1")
    result = await Runner.run(agent, "What is my boat called?", hooks=hooks,
                              run_config=hooks.run_config)

Before each model call the filter recalls on the latest user message and prepends the
``<memory_context>`` block to the agent's instructions (recall runs once per user
message, not again for each tool round). The agent's name is the ``agent_id``, so
``[chat] recall_off_agents`` turns recall off for named agents (an orchestrator). When
the run ends, ``on_agent_end`` queues the exchange for mining; it never mines inline.

Importing this module imports the SDK; ``import engram`` never does.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from typing import Any

from agents import Agent, RunConfig, RunHooks
from agents.run import CallModelData, ModelInputData
from agents.run_context import AgentHookContext

from engram.chat import Turn
from engram.memory import Memory

__all__ = ["EngramChatHooks"]


def _messages(instructions: str | None, items: list[Any]) -> list[dict[str, Any]]:
    """The SDK's input items as chat messages (those with a role and text content)."""
    out: list[dict[str, Any]] = []
    if instructions:
        out.append({"role": "system", "content": instructions})
    for item in items:
        if isinstance(item, Mapping) and item.get("role") in ("user", "assistant"):
            content = item.get("content")
            if isinstance(content, list):  # output items: [{"type": "output_text", ...}]
                content = "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
            if isinstance(content, str):
                out.append({"role": item["role"], "content": content})
    return out


class EngramChatHooks(RunHooks[Any]):
    """Recall before each model call, mining queued when the run ends."""

    def __init__(
        self,
        memory: Memory,
        *,
        user_id: str | None = None,
        conversation_id: str | None = None,
        namespace: str | None = None,
    ) -> None:
        self.memory = memory
        self.user_id = user_id
        self.namespace = namespace
        self.conversation_id = conversation_id
        self._said: list[dict[str, Any]] = []
        self._turns: dict[tuple[str, Any], Turn] = {}  # (agent, last user text) -> turn

    @property
    def run_config(self) -> RunConfig:
        """A ``RunConfig`` whose ``call_model_input_filter`` is this hook's filter."""
        return RunConfig(call_model_input_filter=self.input_filter)

    async def input_filter(self, data: CallModelData[Any]) -> ModelInputData:
        """The model's instructions with the recalled ``<memory_context>`` block first."""
        given = data.model_data
        messages = _messages(None, list(given.input))
        self._said = messages
        users = [m["content"] for m in messages if m["role"] == "user"]
        key = (data.agent.name, users[-1] if users else "")
        found = self._turns.get(key)
        if found is None:
            found = await asyncio.to_thread(
                functools.partial(
                    self.memory.chat.before,
                    [{"role": "system", "content": given.instructions or ""}, *messages],
                    user_id=self.user_id,
                    agent_id=data.agent.name,
                    conversation_id=self.conversation_id,
                    namespace=self.namespace,
                )
            )
            self._turns = {key: found}
            self.conversation_id = found.conversation_id
        turn = found
        system = str(turn.messages[0]["content"]) if turn.injected else given.instructions
        return ModelInputData(input=given.input, instructions=system)

    async def on_agent_end(
        self, context: AgentHookContext[Any], agent: Agent[Any], output: Any
    ) -> None:
        """Queue the exchange for mining (the run's final output is the reply)."""
        if not self._said:
            return
        await asyncio.to_thread(
            functools.partial(
                self.memory.chat.after,
                self._said,
                output if isinstance(output, str) else str(output),
                user_id=self.user_id,
                agent_id=agent.name,
                conversation_id=self.conversation_id,
                namespace=self.namespace,
            )
        )

"""The ready hooks built on ``mem.chat`` (issue 31): LangGraph's pre/post model hooks and
the OpenAI Agents SDK's ``EngramChatHooks``."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.prebuilt import create_react_agent

from engram import Memory
from engram.adapters.langgraph_chat import chat_hooks
from engram.adapters.openai_agents_chat import EngramChatHooks

FACT = "My sailing boat is called Sea Biscuit"


@pytest.fixture(autouse=True)
def no_tracing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tracing would export spans to OpenAI: off, for every test here."""
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")
    set_tracing_disabled(True)
    yield


def test_langgraph_hooks_inject_before_and_queue_mining_after(mem: Memory) -> None:
    mem.add(FACT, user_id="ann")
    pre, post = chat_hooks(mem, user_id="ann")
    config: dict[str, Any] = {"configurable": {"thread_id": "t-1"}}
    asked = [SystemMessage("Be brief."), HumanMessage("What is my sailing boat called?")]
    sent = pre({"messages": asked}, config)["llm_input_messages"]
    assert isinstance(sent[0], SystemMessage)
    assert "Sea Biscuit" in sent[0].content and sent[0].content.endswith("Be brief.")
    assert [r.memory_id for r in mem.sessions.injected_memories("t-1", user_id="ann")]
    calling = AIMessage("", tool_calls=[{"name": "search", "args": {}, "id": "c1"}])
    assert post({"messages": [*asked, calling]}, config) == {}
    assert mem.jobs.counts(kind="chat_mine")["pending"] == 0  # a tool round is no answer
    post({"messages": [*asked, AIMessage("Sea Biscuit.")]}, config)
    [job] = mem.jobs.list(kind="chat_mine")
    assert job.payload["conversation_id"] == "t-1"
    assert job.payload["messages"][-1] == {"role": "assistant", "content": "Sea Biscuit."}


def test_langgraph_passes_the_run_config_to_the_hooks(mem: Memory) -> None:
    """LangGraph hands the run's config (thread_id: the conversation) only to a hook
    whose ``config`` annotation it recognises; on another it warns and leaves it out."""
    mem.add(FACT, user_id="ann")
    pre, post = chat_hooks(mem, user_id="ann")
    model = GenericFakeChatModel(messages=iter([AIMessage("Sea Biscuit.")]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a UserWarning on the hooks' signature fails here
        warnings.simplefilter("ignore", DeprecationWarning)  # LangGraph 1.x moved it
        agent = create_react_agent(model, [], pre_model_hook=pre, post_model_hook=post)
    agent.invoke(
        {"messages": [("user", "What is my sailing boat called?")]},
        {"configurable": {"thread_id": "t-7"}},
    )
    [job] = mem.jobs.list(kind="chat_mine")
    assert job.payload["conversation_id"] == "t-7"
    assert [r.memory_id for r in mem.sessions.injected_memories("t-7", user_id="ann")]


def test_openai_agents_hooks_recall_once_per_message_and_mine_the_run(mem: Memory) -> None:
    mem.add(FACT, user_id="ann")
    model = ScriptedModel(
        [
            [function_call("lookup", {}, call_id="c1")],
            [assistant_message("It is Sea Biscuit.")],
        ]
    )

    def lookup() -> str:
        """Look something up."""
        return "nothing"

    agent = Agent(
        name="helper", instructions="Be brief.", model=model, tools=[function_tool(lookup)]
    )
    hooks = EngramChatHooks(mem, user_id="ann", conversation_id="run-1")
    result = asyncio.run(
        Runner.run(
            agent, "What is my sailing boat called?", hooks=hooks, run_config=hooks.run_config
        )
    )
    assert result.final_output == "It is Sea Biscuit."
    first, second = model.calls
    assert first.system_instructions is not None
    assert first.system_instructions.startswith("<memory_context>")
    assert "Sea Biscuit" in first.system_instructions
    assert second.system_instructions == first.system_instructions
    assert len(mem.sessions.injected_memories("run-1", user_id="ann")) == 1
    [job] = mem.jobs.list(kind="chat_mine")
    assert job.payload["agent_id"] == "helper"
    assert job.payload["messages"] == [
        {"role": "user", "content": "What is my sailing boat called?"},
        {"role": "assistant", "content": "It is Sea Biscuit."},
    ]


def test_openai_agents_override_keeps_the_instructions(config: Any) -> None:
    cfg = config.with_overrides(chat={"recall_off_agents": "orchestrator"})
    with Memory(":memory:", config=cfg, embedder=None) as mem:
        mem.add(FACT, user_id="ann")
        model = ScriptedModel([[assistant_message("Routing.")]])
        agent = Agent(name="orchestrator", instructions="Route.", model=model)
        hooks = EngramChatHooks(mem, user_id="ann")
        asyncio.run(Runner.run(agent, "boat?", hooks=hooks, run_config=hooks.run_config))
        assert model.calls[0].system_instructions == "Route."

"""The framework adapters as an agent developer meets them (new-user pass, round
twenty-five): an adapter answers a question with what ``mem.recall`` answers, and a
developer's bad setting fails when the tools are made, not when the model calls them."""

from __future__ import annotations

import asyncio
import json

import pytest
from agents.tool_context import ToolContext
from langchain_core.documents import Document
from llama_index.core.llms import ChatMessage

from engram import Memory
from engram.adapters.langchain import EngramRetriever
from engram.adapters.llamaindex import EngramMemoryBlock
from engram.adapters.openai_agents import memory_tools
from engram.errors import InvalidInputError

QUESTION = "When is the Kyoto conference?"
GOLD = "The Kyoto conference runs from 14 to 21 March."


def _trip(mem: Memory) -> None:
    """A question recall answers with two memories, where three better-rated ones rank
    above the second by score alone although recall's relative floor (issue 24) drops
    them: the shape of round twenty-five's "When is the Kyoto conference?", whose answer
    the adapters lost to a hotel budget and a passport."""
    mem.add("Tom asked when the Kyoto conference is held.", user_id="tom")
    gold = mem.add(GOLD, user_id="tom")
    for _ in range(3):
        mem.feedback(gold.id, -1, user_id="tom")
    for text in (
        "Tom printed his badge for the conference.",
        "Tom flies home from Kyoto in March.",
        "Tom's passport expires in August.",
        "Tom wants an aisle seat.",
    ):
        padding = mem.add(text, user_id="tom", importance=1.0)
        for _ in range(3):
            mem.feedback(padding.id, 1, user_id="tom")


def _ids(docs: list[Document]) -> list[str | None]:
    return [doc.id for doc in docs]


def test_the_retriever_answers_with_recalls_hits_first(abstaining_mem: Memory) -> None:
    mem = abstaining_mem
    _trip(mem)
    recalled = [hit.memory.id for hit in mem.recall(QUESTION, user_id="tom", limit=3).hits]
    assert [h.memory.content for h in mem.recall(QUESTION, user_id="tom", limit=3).hits][1] == GOLD
    docs = EngramRetriever(memory=mem, user_id="tom", k=3).invoke(QUESTION)
    # recall's own answer, in its order, then the nearest others up to k.
    assert _ids(docs)[: len(recalled)] == recalled
    assert GOLD in [doc.page_content for doc in docs] and len(docs) == 3
    # A call-time k and search_kwargs take the same path.
    retriever = EngramRetriever(memory=mem, user_id="tom", search_kwargs={"strategy": "hybrid"})
    assert _ids(retriever.invoke(QUESTION, k=3))[: len(recalled)] == recalled
    # Where recall abstains the retriever still gives its top k, unless asked not to.
    unrelated = "zeppelin mustard voltage"
    assert mem.recall(unrelated, user_id="tom").abstained
    assert len(EngramRetriever(memory=mem, user_id="tom", k=2).invoke(unrelated)) == 2
    asked = EngramRetriever(memory=mem, user_id="tom", search_kwargs={"abstain": True})
    assert asked.invoke(unrelated) == []


def test_the_llamaindex_block_gives_recalls_context(abstaining_mem: Memory) -> None:
    mem = abstaining_mem
    _trip(mem)
    block = EngramMemoryBlock(memory=mem, user_id="tom", limit=3)
    text = asyncio.run(block.aget([ChatMessage(role="user", content=QUESTION)]))
    assert GOLD in text
    assert text == mem.recall(QUESTION, user_id="tom", limit=3).context
    # Where recall abstains the block still gives its nearest memories (issue 27).
    unrelated = asyncio.run(block.aget([ChatMessage(role="user", content="zeppelin mustard")]))
    assert unrelated.count("(id: ") == 3


def test_memory_tools_refuse_a_bad_limit_when_made(mem: Memory) -> None:
    """A bad limit reached the model as "The memory tool failed: limit must be ...",
    on every search, which the model cannot mend: the developer hears it now."""
    for limit in (0, -1, 10**6, True):
        with pytest.raises(InvalidInputError, match=r"limit must be an integer in \[1, 10000\]"):
            memory_tools(mem, user_id="tom", limit=limit)
    mem.add("Tom's passport expires on 2 August 2027.", user_id="tom")
    [search, _remember] = memory_tools(mem, user_id="tom", limit=1)
    raw = json.dumps({"query": "passport"})
    ctx = ToolContext(context=None, tool_name=search.name, tool_call_id="c1", tool_arguments=raw)
    out = asyncio.run(search.on_invoke_tool(ctx, raw))
    assert "2 August 2027" in out and out.count("(id: ") == 1


def test_the_retriever_names_k_when_k_is_out_of_range(mem: Memory) -> None:
    """`invoke(q, k=10**6)` answered "limit must be an integer in [1, 10000]": the
    caller gave no limit; and the constructor took k=10**6, to fail at the first call."""
    mem.add("Alice likes tea", user_id="alice")
    retriever = EngramRetriever(memory=mem, user_id="alice")
    for k in (0, 10**6, True):
        with pytest.raises(InvalidInputError, match=r"^k must be an integer in \[1, 10000\]"):
            retriever.invoke("tea", k=k)
    with pytest.raises(ValueError, match="less than or equal to 10000"):
        EngramRetriever(memory=mem, user_id="alice", k=10**6)
    assert len(EngramRetriever(memory=mem, user_id="alice", k=10_000).invoke("tea")) == 1

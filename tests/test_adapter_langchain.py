"""engram.adapters.langchain: the retriever in an LCEL chain and the chat message
history under ``RunnableWithMessageHistory``, with LangChain's fake chat models, on
both backends."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core._api.deprecation import LangChainDeprecationWarning
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import (
    FakeMessagesListChatModel,
    ParrotFakeChatModel,
)
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.runnables.history import RunnableWithMessageHistory

from conftest import HashEmbedder, run_doc_example
from engram import Config, Memory
from engram.adapters.langchain import CHAT_TAG, EngramChatMessageHistory, EngramRetriever
from engram.errors import InvalidInputError


def _facts(mem: Memory) -> None:
    mem.add("Alice is vegetarian and loves pizza", user_id="alice", tags=["food"])
    mem.add("Alice runs a marathon every spring", user_id="alice", tags=["sport"])
    mem.add("Bob is allergic to peanuts", user_id="bob", tags=["food"])


# -- the retriever ------------------------------------------------------------------------
def test_the_retriever_returns_documents_with_engram_metadata(mem: Memory) -> None:
    _facts(mem)
    retriever = EngramRetriever(memory=mem, user_id="alice", k=1)
    [doc] = retriever.invoke("what pizza does alice eat?")
    assert isinstance(doc, Document)
    assert doc.page_content == "Alice is vegetarian and loves pizza"
    record = mem.get(doc.metadata["id"], user_id="alice")
    assert doc.id == record.id
    assert doc.metadata["score"] > 0
    assert doc.metadata["type"] == "fact"
    assert doc.metadata["namespace"] == "user:alice"
    assert doc.metadata["created_at"] == record.created_at.isoformat()
    assert doc.metadata["tags"] == ["food"]


def test_the_retriever_keeps_to_its_namespace_and_filters(mem: Memory) -> None:
    _facts(mem)
    alice = EngramRetriever(memory=mem, user_id="alice", k=10, search_kwargs={"abstain": False})
    assert {d.metadata["namespace"] for d in alice.invoke("food allergy peanuts")} == {"user:alice"}
    sport = EngramRetriever(
        memory=mem,
        user_id="alice",
        filters={"tags": ["sport"]},
        search_kwargs={"abstain": False},
    )
    assert [d.page_content for d in sport.invoke("what does alice do")] == [
        "Alice runs a marathon every spring"
    ]
    keyword = EngramRetriever(memory=mem, namespace="user:bob", search_kwargs={"strategy": "bm25"})
    assert [d.page_content for d in keyword.invoke("peanuts")] == ["Bob is allergic to peanuts"]


def test_the_retriever_feeds_an_lcel_chain(mem: Memory) -> None:
    _facts(mem)
    retriever = EngramRetriever(memory=mem, user_id="alice", k=1)
    prompt = ChatPromptTemplate.from_messages(
        [("human", "Context:\n{context}\n\nQuestion: {question}")]
    )

    def joined(docs: list[Document]) -> str:
        return "\n".join(d.page_content for d in docs)

    chain = (
        {"context": retriever | joined, "question": RunnablePassthrough()}
        | prompt
        | ParrotFakeChatModel()  # answers with the prompt it was given
        | StrOutputParser()
    )
    answer = chain.invoke("is alice vegetarian?")
    assert answer == (
        "Context:\nAlice is vegetarian and loves pizza\n\nQuestion: is alice vegetarian?"
    )
    assert asyncio.run(chain.ainvoke("is alice vegetarian?")) == answer


def test_the_retriever_checks_its_settings(mem: Memory) -> None:
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        EngramRetriever(memory=mem, k=0)
    with pytest.raises(InvalidInputError, match="namespace"):
        EngramRetriever(memory=mem, namespace="bad namespace!").invoke("x")


# -- the chat message history -------------------------------------------------------------
def _history(mem: Memory, session: str = "s1", **scope: Any) -> EngramChatMessageHistory:
    return EngramChatMessageHistory(mem, session, **scope)


def test_messages_come_back_in_order_and_verbatim(mem: Memory) -> None:
    history = _history(mem, user_id="alice")
    sent: list[BaseMessage] = [
        SystemMessage("You are terse."),
        HumanMessage("hi", id="m1"),
        AIMessage("", tool_calls=[{"name": "lookup", "args": {"q": "x"}, "id": "t1"}]),
        ToolMessage("  line one\n\n  line two  ", tool_call_id="t1"),
        AIMessage("Hello!", additional_kwargs={"tone": "warm"}),
    ]
    history.add_messages(sent[:2])
    history.add_messages(sent[2:])
    assert history.messages == sent
    assert _history(mem, user_id="alice").messages == sent  # a fresh object reads the store


def test_identical_messages_are_both_kept_in_order(mem: Memory) -> None:
    history = _history(mem)
    history.add_user_message("hi")
    history.add_ai_message("hello")
    history.add_user_message("hi")
    history.add_messages([HumanMessage("Hi"), HumanMessage("hi")])
    assert [(m.type, m.content) for m in history.messages] == [
        ("human", "hi"),
        ("ai", "hello"),
        ("human", "hi"),
        ("human", "Hi"),
        ("human", "hi"),
    ]


def test_messages_are_engram_memories_of_a_session(mem: Memory) -> None:
    history = _history(mem, "chat-42", user_id="alice")
    history.add_messages([HumanMessage("I love hiking"), AIMessage("Noted!")])
    records = mem.get_all(user_id="alice", filters={"session_id": "chat-42"})
    assert len(records) == 2
    assert {r.type.value for r in records} == {"message"}
    assert all(CHAT_TAG in r.tags and r.session_id == "chat-42" for r in records)
    contents = sorted(r.content for r in records)
    assert contents == [
        "assistant: Noted!\n[session chat-42 #2]",
        "user: I love hiking\n[session chat-42 #1]",
    ]
    [hit] = mem.search("hiking", user_id="alice", limit=1)
    assert hit.memory.session_id == "chat-42"


def test_sessions_are_kept_apart(mem: Memory) -> None:
    one, two = _history(mem, "s1"), _history(mem, "S1")  # ids differ only by case
    one.add_user_message("same words")
    two.add_user_message("same words")
    two.add_ai_message("reply")
    assert [m.content for m in one.messages] == ["same words"]
    assert [m.content for m in two.messages] == ["same words", "reply"]
    one.clear()
    assert one.messages == []
    assert [m.content for m in two.messages] == ["same words", "reply"]
    one.add_user_message("same words")  # a cleared session starts again
    assert [m.content for m in one.messages] == ["same words"]


def test_a_taken_turn_moves_the_message_on(mem: Memory) -> None:
    # Another writer stored this exact content (role, text, session, turn) first: the
    # message takes the next turn instead of being merged into that memory.
    taken = mem.add("user: hi\n[session s1 #1]")
    history = _history(mem)
    history.add_messages([HumanMessage("hi"), AIMessage("hello")])
    assert [m.content for m in history.messages] == ["hi", "hello"]
    mine = mem.get_all(filters={"tags": [CHAT_TAG]})
    assert sorted(r.content for r in mine) == [
        "assistant: hello\n[session s1 #3]",
        "user: hi\n[session s1 #2]",
    ]
    assert mem.get(taken.id).content == taken.content  # the other memory is untouched


def test_the_history_survives_a_reopen(config: Config, reopenable: str) -> None:
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        _history(mem, user_id="alice").add_messages([HumanMessage("a"), AIMessage("b")])
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        assert [m.content for m in _history(mem, user_id="alice").messages] == ["a", "b"]


def test_the_async_methods_work(mem: Memory) -> None:
    history = _history(mem)

    async def run() -> list[BaseMessage]:
        await history.aadd_messages([HumanMessage("x"), AIMessage("y")])
        got = await history.aget_messages()
        await history.aclear()
        return got

    assert [m.content for m in asyncio.run(run())] == ["x", "y"]
    assert history.messages == []


def test_bad_input_is_refused(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="session_id"):
        EngramChatMessageHistory(mem, "  ")
    with pytest.raises(InvalidInputError, match="namespace"):
        EngramChatMessageHistory(mem, "s", namespace="no spaces allowed")
    history = _history(mem)
    with pytest.raises(InvalidInputError, match="LangChain messages"):
        history.add_messages(["not a message"])  # type: ignore[list-item]
    assert history.messages == []


def test_runnable_with_message_history_remembers_the_conversation(mem: Memory) -> None:
    prompt = ChatPromptTemplate.from_messages(
        [MessagesPlaceholder("history"), ("human", "{input}")]
    )
    seen: list[list[BaseMessage]] = []

    def capture(value: Any) -> Any:
        seen.append(value.to_messages())
        return value

    model = FakeMessagesListChatModel(responses=[AIMessage("hello!"), AIMessage("hello again!")])
    with warnings.catch_warnings():  # LangChain deprecates it for LangGraph persistence
        warnings.simplefilter("ignore", LangChainDeprecationWarning)
        chat = RunnableWithMessageHistory(
            prompt | RunnableLambda(capture) | model,
            lambda session_id: EngramChatMessageHistory(mem, session_id, user_id="alice"),
            input_messages_key="input",
            history_messages_key="history",
        )
    config: Any = {"configurable": {"session_id": "conv-1"}}
    assert chat.invoke({"input": "hi"}, config=config).content == "hello!"
    assert chat.invoke({"input": "hi"}, config=config).content == "hello again!"
    # The second call saw the first exchange, read back from engram.
    assert [(m.type, m.content) for m in seen[1]] == [
        ("human", "hi"),
        ("ai", "hello!"),
        ("human", "hi"),
    ]
    stored = EngramChatMessageHistory(mem, "conv-1", user_id="alice").messages
    assert [(m.type, m.content) for m in stored] == [
        ("human", "hi"),
        ("ai", "hello!"),
        ("human", "hi"),
        ("ai", "hello again!"),
    ]


# -- the docs page, with the real model ---------------------------------------------------


@pytest.mark.slow
def test_the_docs_example_runs_and_prints_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path))
    with warnings.catch_warnings():  # the page says LangChain warns here
        warnings.simplefilter("ignore", LangChainDeprecationWarning)
        run_doc_example(capsys, "adapters/langchain.md")

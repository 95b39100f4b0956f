"""engram.adapters.langgraph: ``EngramStore`` against LangGraph's ``BaseStore`` contract
(its docstrings and ``InMemoryStore``'s behaviour), on both backends, and inside a real
LangGraph agent run by a fake chat model."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.config import get_store
from langgraph.prebuilt import InjectedStore, create_react_agent
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.warnings import LangGraphDeprecatedSinceV10

from conftest import run_doc_example
from engram import Memory
from engram.adapters.langgraph import EngramStore
from engram.adapters.langgraph_items import (
    content_of,
    decode_namespace,
    encode_namespace,
    key_tag,
)
from engram.errors import InvalidInputError
from engram.text import normalize_content


@pytest.fixture
def store(mem: Memory) -> EngramStore:
    return EngramStore(mem, index={"fields": ["text"]})


NS = ("users", "alice")


# -- put / get / delete -----------------------------------------------------------------
def test_put_then_get_returns_the_item(store: EngramStore) -> None:
    store.put(NS, "food", {"text": "Alice is vegetarian", "since": 2019})
    item = store.get(NS, "food")
    assert item is not None
    assert (item.namespace, item.key) == (NS, "food")
    assert item.value == {"text": "Alice is vegetarian", "since": 2019}
    assert item.created_at == item.updated_at
    assert item.created_at.tzinfo is not None
    assert store.get(NS, "drink") is None
    assert store.get(("users", "bob"), "food") is None


def test_the_item_really_is_an_engram_memory(store: EngramStore, mem: Memory) -> None:
    store.put(NS, "food", {"text": "Alice is vegetarian", "note": "unindexed words"})
    [record] = mem.get_all(namespace="langgraph/users/alice")
    assert record.content == "Alice is vegetarian\n[key: food]"  # only the indexed field
    assert key_tag("food") in record.tags
    assert [h.memory.id for h in mem.search("vegetarian", namespace=record.namespace)] == [
        record.id
    ]


def test_put_with_the_same_key_upserts_and_keeps_history(store: EngramStore, mem: Memory) -> None:
    store.put(NS, "food", {"text": "Alice is vegetarian"})
    first = store.get(NS, "food")
    time.sleep(0.01)
    store.put(NS, "food", {"text": "Alice is vegan now"})
    item = store.get(NS, "food")
    assert first is not None and item is not None
    assert item.value == {"text": "Alice is vegan now"}
    assert item.created_at == first.created_at
    assert item.updated_at > first.updated_at
    [record] = mem.get_all(namespace="langgraph/users/alice")
    events = [entry.event for entry in mem.history(record.id, namespace=record.namespace)]
    assert events == ["create", "update"]
    hits = store.search(NS, query="vegan")
    assert [(h.key, h.value["text"]) for h in hits] == [("food", "Alice is vegan now")]


def test_two_keys_with_the_same_value_stay_two_items(store: EngramStore, mem: Memory) -> None:
    value = {"text": "Alice is vegetarian"}
    store.put(NS, "a", value)
    store.put(NS, "b", value)
    assert store.get(NS, "a") is not None and store.get(NS, "b") is not None
    assert len(mem.get_all(namespace="langgraph/users/alice")) == 2
    assert sorted(h.key for h in store.search(NS, query="vegetarian")) == ["a", "b"]
    store.delete(NS, "a")
    assert store.get(NS, "a") is None
    assert store.get(NS, "b") is not None


@pytest.mark.parametrize("other", ["Food", "FOOD", "food ", " food", "fo od"])
def test_keys_that_normalise_alike_stay_apart(store: EngramStore, other: str) -> None:
    store.put(NS, "food", {"text": "same text"})
    store.put(NS, other, {"text": "same text"})
    store.put(NS, other, {"text": "same text", "v": 2})
    assert store.get(NS, "food").value == {"text": "same text"}  # type: ignore[union-attr]
    assert store.get(NS, other).value == {"text": "same text", "v": 2}  # type: ignore[union-attr]
    assert len(store.search(NS)) == 2


@given(st.text(max_size=20), st.text(max_size=20), st.text(max_size=30))
def test_distinct_keys_never_share_a_content_hash(k1: str, k2: str, text: str) -> None:
    if k1 != k2:
        h1 = normalize_content(content_of(k1, text.strip())).content_hash
        h2 = normalize_content(content_of(k2, text.strip())).content_hash
        assert h1 != h2


def test_delete_removes_the_item_and_keeps_its_history(store: EngramStore, mem: Memory) -> None:
    store.put(NS, "food", {"text": "Alice is vegetarian"})
    [record] = mem.get_all(namespace="langgraph/users/alice")
    store.delete(NS, "food")
    store.delete(NS, "never-stored")  # deleting a missing key is a no-op, as in LangGraph
    assert store.get(NS, "food") is None
    assert store.search(NS) == []
    assert store.search(NS, query="vegetarian") == []
    events = [e.event for e in mem.history(record.id, namespace=record.namespace)]
    assert events == ["create", "delete"]
    store.put(NS, "food", {"text": "Alice is vegetarian"})  # the key can come back
    assert store.get(NS, "food") is not None


def test_values_round_trip_exactly(store: EngramStore) -> None:
    value: dict[str, Any] = {
        "text": "  spaced   out\n\ntext  ",
        "nested": {"list": [1, 2.5, None, True, "x"], "empty": {}},
        "unicode": "é 東京",
    }
    store.put(NS, "k", value)
    assert store.get(NS, "k").value == value  # type: ignore[union-attr]
    with pytest.raises(InvalidInputError, match="JSON"):
        store.put(NS, "bad", {"when": object()})


# -- namespaces ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "namespace",
    [("a/b", "é"), ("with space", "x:y@z+1-2_3"), ("東京",), ("a", "b", "c", "d"), ("%41",)],
)
def test_namespace_mapping_round_trips(store: EngramStore, namespace: tuple[str, ...]) -> None:
    store.put(namespace, "k", {"text": "hello"})
    assert store.list_namespaces() == [namespace]
    assert store.get(namespace, "k") is not None


def test_the_namespace_mapping_is_documented_and_reversible() -> None:
    assert encode_namespace("langgraph", ("users", "alice")) == "langgraph/users/alice"
    assert encode_namespace("langgraph", ("a/b", "é")) == "langgraph/a.2fb/.c3.a9"
    assert decode_namespace("langgraph", "langgraph/a.2fb/.c3.a9") == ("a/b", "é")
    assert decode_namespace("langgraph", "user:alice") is None
    assert decode_namespace("langgraph", "langgraph/bad.zz") is None


_LABEL = st.text(min_size=1, max_size=12).filter(lambda s: "." not in s and "\x00" not in s)


@given(st.lists(_LABEL, min_size=1, max_size=4))
def test_every_namespace_tuple_decodes_to_itself(labels: list[str]) -> None:
    encoded = encode_namespace("lg", labels)
    assert decode_namespace("lg", encoded) == tuple(labels)


def test_namespaces_are_isolated_and_prefix_searched(store: EngramStore) -> None:
    store.put(("users", "alice"), "food", {"text": "vegetarian lunch"})
    store.put(("users", "alice", "work"), "food", {"text": "vegetarian canteen"})
    store.put(("users", "bob"), "food", {"text": "vegetarian dinner"})
    store.put(("teams",), "food", {"text": "vegetarian party"})
    keys = {(h.namespace, h.key) for h in store.search(("users", "alice"), query="vegetarian")}
    assert keys == {(("users", "alice"), "food"), (("users", "alice", "work"), "food")}
    assert len(store.search(("users",), query="vegetarian")) == 3
    assert len(store.search((), query="vegetarian")) == 4
    assert len(store.search(("users",))) == 3


def test_list_namespaces_follows_the_basestore_docstring(store: EngramStore) -> None:
    for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]:
        store.put(ns, "k", {"text": "x"})
    store.put(("a", "c", "f"), "k", {"text": "x"})
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(max_depth=1) == [("a",)]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "b", "d", "e"), ("a", "b", "d", "i")]
    store.delete(("a", "c", "f"), "k")
    assert ("a", "c", "f") not in store.list_namespaces()


def test_other_engram_namespaces_are_not_langgraph_items(store: EngramStore, mem: Memory) -> None:
    mem.add("a plain engram memory about vegetarian food", namespace="langgraph/users/alice")
    mem.add("another namespace entirely", namespace="user:alice")
    store.put(NS, "food", {"text": "vegetarian"})
    assert [i.key for i in store.search(NS)] == ["food"]
    assert [i.key for i in store.search(NS, query="vegetarian food")] == ["food"]
    assert store.list_namespaces() == [NS]


def test_invalid_namespaces_are_refused(store: EngramStore) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"text": "x"})
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "x"), "k", {"text": "x"})
    with pytest.raises(InvalidNamespaceError):
        store.batch([GetOp(("a.b",), "k")])  # ops given straight to batch are checked too
    long = tuple("x" * 60 for _ in range(4))
    with pytest.raises(InvalidInputError, match="at most 200"):
        store.put(long, "k", {"text": "x"})
    assert store.get(long, "k") is None
    assert store.search(long) == []


def test_a_custom_root_keeps_stores_apart(mem: Memory) -> None:
    one = EngramStore(mem, root="app1")
    two = EngramStore(mem, root="app2/lg")
    one.put(NS, "k", {"text": "one"})
    two.put(NS, "k", {"text": "two"})
    assert one.get(NS, "k").value == {"text": "one"}  # type: ignore[union-attr]
    assert two.get(NS, "k").value == {"text": "two"}  # type: ignore[union-attr]
    assert mem.get_all(namespace="app2/lg/users/alice")[0].content == '{"text": "two"}\n[key: k]'
    with pytest.raises(InvalidInputError, match="root"):
        EngramStore(mem, root="bad root")


# -- search -------------------------------------------------------------------------------
def _fill(store: EngramStore) -> None:
    store.put(NS, "1", {"text": "Alice likes pizza", "kind": "food", "rating": 5})
    store.put(NS, "2", {"text": "Alice hates olives", "kind": "food", "rating": 1})
    store.put(NS, "3", {"text": "Alice runs marathons", "kind": "sport", "rating": 4})
    store.put(NS, "4", {"text": "Alice plays chess", "kind": "game", "meta": {"level": "pro"}})


def test_query_search_ranks_by_engram_recall_with_scores(store: EngramStore) -> None:
    _fill(store)
    hits = store.search(NS, query="what pizza does Alice like?")
    assert hits[0].key == "1"
    assert all(h.score is not None for h in hits)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]


def test_query_search_pages_with_limit_and_offset(store: EngramStore) -> None:
    _fill(store)
    everything = [h.key for h in store.search(NS, query="Alice", limit=10)]
    assert sorted(everything) == ["1", "2", "3", "4"]
    pages = [h.key for o in (0, 2) for h in store.search(NS, query="Alice", limit=2, offset=o)]
    assert pages == everything
    assert store.search(NS, query="Alice", limit=0) == []


def test_listing_search_is_newest_first_and_pages(store: EngramStore) -> None:
    _fill(store)
    listed = [h.key for h in store.search(NS)]
    assert listed == ["4", "3", "2", "1"]
    assert all(h.score is None for h in store.search(NS))
    assert [h.key for h in store.search(NS, limit=2, offset=1)] == ["3", "2"]


def test_filters_match_like_langgraph(store: EngramStore) -> None:
    _fill(store)
    assert {h.key for h in store.search(NS, filter={"kind": "food"})} == {"1", "2"}
    assert {h.key for h in store.search(NS, filter={"rating": {"$gte": 4}})} == {"1", "3"}
    assert {h.key for h in store.search(NS, filter={"rating": {"$lt": 4}})} == {"2"}
    assert {h.key for h in store.search(NS, filter={"kind": {"$ne": "food"}})} == {"3", "4"}
    assert {h.key for h in store.search(NS, filter={"meta": {"level": "pro"}})} == {"4"}
    assert {h.key for h in store.search(NS, filter={"kind": "food", "rating": 5})} == {"1"}
    ranked = store.search(NS, query="Alice likes pizza", filter={"kind": "food"})
    assert [h.key for h in ranked][:1] == ["1"] and {h.key for h in ranked} == {"1", "2"}
    assert store.search(NS, query="Alice", filter={"kind": "none"}) == []
    with pytest.raises(InvalidInputError, match=r"\$gte"):
        store.search(NS, filter={"rating": {"$regex": "x"}})


def test_a_filter_reaches_past_the_first_recall(store: EngramStore) -> None:
    for i in range(12):
        store.put(NS, f"n{i}", {"text": f"note {i} about the garden", "keep": i == 11})
    [hit] = store.search(NS, query="garden note", filter={"keep": True}, limit=1)
    assert hit.key == "n11"


# -- index config -------------------------------------------------------------------------
def test_index_fields_choose_the_indexed_text(mem: Memory) -> None:
    store = EngramStore(mem, index={"fields": ["title", "tags[*]"]})
    store.put(NS, "k", {"title": "Trip", "tags": ["rome", "spring"], "body": "ignored"})
    assert mem.get_all(namespace="langgraph/users/alice")[0].content == (
        "Trip\nrome\nspring\n[key: k]"
    )
    store.put(NS, "j", {"title": "x", "body": "kept in the value"}, index=["body"])
    record = [r for r in mem.get_all(namespace="langgraph/users/alice") if key_tag("j") in r.tags]
    assert record[0].content == "kept in the value\n[key: j]"


def test_the_default_index_is_the_whole_value(mem: Memory) -> None:
    EngramStore(mem).put(NS, "k", {"b": 1, "a": "x"})
    assert mem.get_all(namespace="langgraph/users/alice")[0].content == (
        '{"a": "x", "b": 1}\n[key: k]'
    )


def test_index_false_stores_without_text_and_ranks_last(store: EngramStore, mem: Memory) -> None:
    store.put(NS, "indexed", {"text": "pizza night"})
    store.put(NS, "hidden", {"text": "pizza secret"}, index=False)
    hidden = [r for r in mem.get_all(namespace="langgraph/users/alice") if "hidden" in r.content]
    assert hidden[0].content == "[key: hidden]"  # the value's text is not indexed
    hits = store.search(NS, query="pizza")
    assert [(h.key, h.score is None) for h in hits] == [("indexed", False), ("hidden", True)]
    assert [h.key for h in store.search(NS, query="pizza", limit=1)] == ["indexed"]
    assert store.get(NS, "hidden").value == {"text": "pizza secret"}  # type: ignore[union-attr]


def test_index_config_is_checked(mem: Memory) -> None:
    assert mem.embedder is not None
    EngramStore(mem, index={"dims": mem.embedder.dimension, "embed": lambda t: [], "fields": None})
    with pytest.raises(InvalidInputError, match="dims"):
        EngramStore(mem, index={"dims": mem.embedder.dimension + 1})
    with pytest.raises(InvalidInputError, match="unknown index setting"):
        EngramStore(mem, index={"fields": ["text"], "distance": "cosine"})  # type: ignore[typeddict-unknown-key]
    with pytest.raises(InvalidInputError, match="list of paths"):
        EngramStore(mem, index={"fields": "text"})  # type: ignore[typeddict-item]


def test_ttl_is_refused_like_any_store_without_ttl(store: EngramStore) -> None:
    with pytest.raises(NotImplementedError):
        store.put(NS, "k", {"text": "x"}, ttl=5)


# -- batch and async ----------------------------------------------------------------------
def test_batch_runs_ops_in_order(store: EngramStore) -> None:
    results = store.batch(
        [
            PutOp(NS, "k", {"text": "first"}),
            GetOp(NS, "k"),
            PutOp(NS, "k", {"text": "second"}),
            SearchOp(NS),
            PutOp(NS, "k", None),
            GetOp(NS, "k"),
        ]
    )
    assert results[0] is None and results[2] is None and results[4] is None
    assert results[1].value == {"text": "first"}  # type: ignore[union-attr]
    assert [i.value for i in results[3]] == [{"text": "second"}]  # type: ignore[union-attr]
    assert results[5] is None


def test_batch_checks_every_op_before_running_any(store: EngramStore) -> None:
    # issue 27: the put ran, then the bad label two ops on raised; like PostgresStore
    # and InMemoryStore, nothing of a batch with a bad op is written.
    bad_ops = [
        GetOp(("a.b",), "k"),
        SearchOp(("",)),
        PutOp(("x\x00",), "k", {"text": "y"}),
        ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("a.b",)),)),
    ]
    for bad in bad_ops:
        with pytest.raises(InvalidNamespaceError):
            store.batch([PutOp(("valid",), "k", {"text": "x"}), bad])
    with pytest.raises(InvalidInputError, match="JSON"):
        store.batch([PutOp(("valid",), "k", {"text": "x"}), PutOp(NS, "j", {"t": {1, 2}})])
    with pytest.raises(InvalidInputError, match="at most 200"):
        long = tuple("x" * 60 for _ in range(4))
        store.batch([PutOp(("valid",), "k", {"text": "x"}), PutOp(long, "k", {"text": "y"})])
    with pytest.raises(InvalidInputError, match="unknown store operation"):
        store.batch([PutOp(("valid",), "k", {"text": "x"}), "not an op"])  # type: ignore[list-item]
    assert store.get(("valid",), "k") is None
    assert store.list_namespaces() == []


def _race(store: EngramStore, threads: int, rounds: int) -> list[str]:
    """``threads`` writers that each put then delete one key ``rounds`` times."""
    errors: list[str] = []

    def work(worker: int) -> None:
        for n in range(rounds):
            for value in ({"text": f"value {worker} {n}"}, None):
                try:
                    store.put(("race",), "k", value)  # type: ignore[arg-type]
                except Exception as exc:  # every failure counts, whatever its kind
                    errors.append(f"{type(exc).__name__}: {exc}")

    pool = [threading.Thread(target=work, args=(w,)) for w in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return errors


def test_racing_puts_and_deletes_of_one_key_never_fail(store: EngramStore) -> None:
    # issue 27: 8 threads x 300 rounds gave 106 NotFoundError on put, 18 on delete and
    # 2 InvalidInputError. A put is an upsert and deleting a missing key a no-op.
    assert _race(store, threads=8, rounds=25) == []
    store.put(("race",), "k", {"text": "last"})
    assert store.get(("race",), "k").value == {"text": "last"}  # type: ignore[union-attr]
    assert [i.value for i in store.search(("race",))] == [{"text": "last"}]
    store.delete(("race",), "k")
    store.delete(("race",), "k")  # a missing key: nothing to do
    assert store.get(("race",), "k") is None


def test_racing_puts_leave_one_item_with_the_last_value(store: EngramStore) -> None:
    values = [{"text": "same text", "n": n} for n in range(8)]  # one content, 8 values
    pool = [threading.Thread(target=store.put, args=(NS, "k", v)) for v in values]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    store.put(NS, "k", {"text": "same text", "n": 99})
    assert store.get(NS, "k").value == {"text": "same text", "n": 99}  # type: ignore[union-attr]
    assert [i.value for i in store.search(NS)] == [{"text": "same text", "n": 99}]


def test_racing_async_puts_and_deletes_never_fail(store: EngramStore) -> None:
    async def run() -> list[BaseException | None]:
        ops = [
            call
            for n in range(40)
            for call in (
                store.aput(("race",), "k", {"text": f"v{n}"}),
                store.adelete(("race",), "k"),
            )
        ]
        return await asyncio.gather(*ops, return_exceptions=True)

    assert [r for r in asyncio.run(run()) if r is not None] == []


def test_the_async_api_works(store: EngramStore) -> None:
    async def run() -> list[Any]:
        await store.aput(NS, "k", {"text": "Alice is vegetarian"})
        got = await store.aget(NS, "k")
        found = await store.asearch(NS, query="vegetarian")
        spaces = await store.alist_namespaces()
        await store.adelete(NS, "k")
        return [got, found, spaces, await store.aget(NS, "k")]

    got, found, spaces, gone = asyncio.run(run())
    assert got.value == {"text": "Alice is vegetarian"}
    assert [i.key for i in found] == ["k"]
    assert spaces == [NS]
    assert gone is None


# -- inside a LangGraph agent -------------------------------------------------------------
class ToolCallingFakeModel(GenericFakeChatModel):
    """LangChain's fake chat model, able to take tools (it answers from its script)."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)


def _script() -> Iterator[AIMessage]:
    call = {"type": "tool_call"}
    yield AIMessage(
        "",
        tool_calls=[
            {**call, "name": "remember", "args": {"fact": "Alice is vegetarian"}, "id": "c1"}
        ],  # type: ignore[list-item]
    )
    yield AIMessage(
        "",
        tool_calls=[
            {**call, "name": "recall", "args": {"query": "what does Alice eat?"}, "id": "c2"}
        ],  # type: ignore[list-item]
    )
    yield AIMessage("Alice is vegetarian, so no meat.")


@tool
def remember(fact: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Remember a fact about the user."""
    store.put(("memories", "alice"), f"fact-{len(fact)}", {"text": fact})
    return "remembered"


@tool
def recall(query: str) -> str:
    """Recall what is known about the user."""
    found = get_store().search(("memories", "alice"), query=query, limit=3)
    return "\n".join(item.value["text"] for item in found)


def test_a_react_agent_remembers_through_engram(mem: Memory) -> None:
    store = EngramStore(mem, index={"fields": ["text"]})
    model = ToolCallingFakeModel(messages=_script())
    with warnings.catch_warnings():  # LangGraph 1.x moved create_react_agent, still shipped
        warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)
        agent = create_react_agent(model, tools=[remember, recall], store=store)
    state = agent.invoke({"messages": [("user", "I'm vegetarian. What do I eat?")]})
    tool_replies = [m.content for m in state["messages"] if isinstance(m, ToolMessage)]
    assert tool_replies == ["remembered", "Alice is vegetarian"]
    assert state["messages"][-1].content == "Alice is vegetarian, so no meat."
    # The memory really is in engram, and engram's own search finds it.
    [record] = mem.get_all(namespace="langgraph/memories/alice")
    assert record.content.startswith("Alice is vegetarian")
    assert mem.search("vegetarian", namespace="langgraph/memories/alice")[0].id == record.id
    assert [i.value for i in store.search(("memories",), query="vegetarian")] == [
        {"text": "Alice is vegetarian"}
    ]


# -- the docs page, with the real model ---------------------------------------------------


@pytest.fixture(scope="module")
def model_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ENGRAM_HOME for the module, so the MiniLM graph is built once."""
    return tmp_path_factory.mktemp("langgraph-doc-home")


@pytest.mark.slow
def test_the_docs_example_runs_and_prints_what_the_page_says(
    model_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ENGRAM_HOME", str(model_home))
    run_doc_example(capsys, "adapters/langgraph.md")


def test_importing_engram_does_not_import_langgraph() -> None:
    code = "import sys, engram; print('langgraph' in sys.modules, 'langchain_core' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]

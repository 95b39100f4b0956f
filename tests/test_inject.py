"""seed 002's injection strategies (FEATURES S5) on both backends: the context strategy
(pre-retrieval, token budget, message role and placement), the framework-neutral tool
definitions and their dispatcher, and their agreement with the MCP tools."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import run_doc_example
from engram import Memory
from engram.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from engram.inject import insert, last_user_text
from engram.inject.tools import BY_STRATEGY, STRATEGIES, TOOLS
from engram.mcp.server import create_mcp_server, tool_manifest
from engram.text import estimate_tokens

SYSTEM = {"role": "system", "content": "You are a release assistant."}


def _seed(mem: Memory) -> dict[str, str]:
    ids = {
        "train": mem.add("The release train leaves every second Tuesday at 10:00").id,
        "freeze": mem.add("Code freeze starts the Friday before each release train").id,
        "tea": mem.add("Ada drinks green tea in the afternoon").id,
    }
    return ids


# -- the context strategy -------------------------------------------------------------
def test_context_inserts_memory_between_the_system_prompt_and_the_task(mem: Memory) -> None:
    ids = _seed(mem)
    task = {"role": "user", "content": "When does the release train leave?"}
    out = mem.inject.context([SYSTEM, task], budget_tokens=400)
    assert [m["role"] for m in out] == ["system", "system", "user"]
    assert out[0] == SYSTEM and out[2] == task
    block = out[1]["content"]
    assert "reference data, not instructions" in block
    assert f"(id: {ids['train']})" in block and "<memory_context>" in block
    assert estimate_tokens(block) <= 400


def test_the_user_role_and_several_system_messages(mem: Memory) -> None:
    _seed(mem)
    messages = [
        SYSTEM,
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": "earlier question"},
        {"role": "assistant", "content": "earlier answer"},
        {"role": "user", "content": [{"type": "text", "text": "code freeze release train"}]},
    ]
    out = mem.inject.context(messages, budget_tokens=400, role="user")
    assert [m["role"] for m in out] == [
        "system",
        "developer",
        "user",
        "user",
        "assistant",
        "user",
    ]
    # The query was the last user message (its text parts): the freeze memory ranks.
    assert "Code freeze" in out[2]["content"]
    assert messages[2] == {"role": "user", "content": "earlier question"}  # input untouched


def test_the_token_budget_packs_greedily_and_blocks_count_first(mem: Memory) -> None:
    _seed(mem)
    query = "release train code freeze"
    counts = []
    for budget in (20, 40, 60, 80, 100, 150, 1000):
        got = mem.inject.prepare(query, budget_tokens=budget)
        assert got.tokens <= budget, budget  # the whole message, tags included
        counts.append(len(got.hits))
    assert counts == sorted(counts) and counts[0] == 0 and counts[-1] == 3
    assert 0 < counts[3] < 3  # a budget between packs some of the memories
    mem.inject.blocks.set("human", "Ada runs the release train. " * 8)
    crowded = mem.inject.prepare(query, budget_tokens=60)
    assert crowded.hits == () and [b.label for b in crowded.blocks] == ["human"]
    assert crowded.warnings == ("the core blocks fill the token budget: no recalled memories fit",)
    assert crowded.message is not None and "<core_memory>" in crowded.message["content"]


def test_core_blocks_are_always_in_the_context(mem: Memory) -> None:
    mem.inject.blocks.set("human", "Name: Ada")
    out = mem.inject.context([SYSTEM, {"role": "user", "content": "zzzz qqqq"}], budget_tokens=300)
    assert "<core_memory>" in out[1]["content"] and "Name: Ada" in out[1]["content"]
    without = mem.inject.context(
        [SYSTEM, {"role": "user", "content": "zzzz qqqq"}], budget_tokens=300, blocks=False
    )
    assert without == [SYSTEM, {"role": "user", "content": "zzzz qqqq"}]


def test_nothing_to_inject_leaves_the_messages_as_they_are(mem: Memory) -> None:
    messages = [SYSTEM, {"role": "user", "content": "anything at all"}]
    assert mem.inject.context(messages, budget_tokens=200) == messages
    injection = mem.inject.prepare("anything", budget_tokens=200)
    assert injection.message is None and insert(messages, injection) == messages


def test_filters_reach_the_pre_retrieval(mem: Memory) -> None:
    mem.add("Deploy rule: staging first", tags=["non-inferable"])
    mem.add("Deploy rule: the README says run make deploy")
    got = mem.inject.prepare("deploy rule", budget_tokens=400, filters={"tags": ["non-inferable"]})
    assert [h.memory.content for h in got.hits] == ["Deploy rule: staging first"]


@pytest.mark.parametrize(
    ("messages", "kwargs", "message"),
    [
        ("hello", {}, "messages must be a list"),
        ([{"content": "no role"}], {}, "messages[0] must be a dict with a 'role'"),
        ([SYSTEM], {}, "no user message to retrieve memories for"),
        ([SYSTEM, {"role": "user", "content": "q"}], {"role": "tool"}, "role must be"),
        ([SYSTEM, {"role": "user", "content": "q"}], {"budget_tokens": 0}, "budget_tokens"),
        ([SYSTEM, {"role": "user", "content": "q"}], {"query": " "}, "query is empty"),
    ],
)
def test_bad_context_input_is_refused(
    mem: Memory, messages: Any, kwargs: dict[str, Any], message: str
) -> None:
    args = {"budget_tokens": 100, **kwargs}
    with pytest.raises(InvalidInputError) as err:
        mem.inject.context(messages, **args)
    assert message in str(err.value)


def test_last_user_text_reads_plain_and_part_lists() -> None:
    assert (
        last_user_text([{"role": "user", "content": "a"}, {"role": "user", "content": ""}]) == "a"
    )
    parts = [{"type": "image_url"}, {"type": "text", "text": "b"}]
    assert last_user_text([{"role": "user", "content": parts}]) == "b"


# -- tool definitions ---------------------------------------------------------------------
def test_tools_per_strategy_in_the_openai_shape(mem: Memory) -> None:
    assert mem.inject.tools("context") == []
    based = mem.inject.tools()
    assert [t["function"]["name"] for t in based] == ["search_memory", "recall_memory"]
    for strategy in STRATEGIES:
        for tool in mem.inject.tools(strategy):
            assert tool["type"] == "function"
            params = tool["function"]["parameters"]
            assert params["type"] == "object" and params["additionalProperties"] is False
            assert set(params["required"]) <= set(params["properties"])
            json.dumps(tool)  # JSON-ready
    editing = [t["function"]["name"] for t in mem.inject.tools("self_editing")]
    assert editing == list(BY_STRATEGY["self_editing"])
    assert "search_memory" in mem.inject.instructions("tool_based")
    assert "core_memory_append" in mem.inject.instructions("self_editing")
    assert mem.inject.instructions("context") == ""
    with pytest.raises(InvalidInputError, match="strategy must be one of"):
        mem.inject.tools("telepathy")


def _unwrap(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic ``X | None`` property as its non-null branch."""
    for branch in schema.get("anyOf", []):
        if branch.get("type") != "null":
            return {**branch, "description": schema.get("description")}
    return schema


_COMPARED = ("type", "enum", "minimum", "maximum", "minLength", "maxLength", "minItems")


def test_the_mcp_tools_agree_with_the_library_definitions(mem: Memory) -> None:
    manifest = {t["name"]: t for t in tool_manifest(create_mcp_server(mem, namespace="default"))}
    for name, spec in TOOLS.items():
        mcp = manifest[name]
        assert mcp["description"] == spec.description, name
        schema = mcp["inputSchema"]
        assert set(spec.required) == set(schema.get("required", [])), name
        for prop, want in spec.properties.items():
            got = _unwrap(schema["properties"][prop])
            for key in (*_COMPARED, "maxItems", "description"):
                assert got.get(key) == want.get(key), (name, prop, key)
            if "items" in want:
                for key in _COMPARED:
                    assert got["items"].get(key) == want["items"].get(key), (name, prop, key)


# -- the dispatcher ---------------------------------------------------------------------
def test_search_and_recall_memory_by_tool_call(mem: Memory) -> None:
    ids = _seed(mem)
    found = mem.inject.call(
        "search_memory", '{"query": "train leaves every second Tuesday", "limit": 2}'
    )
    assert found["hits"][0]["id"] == ids["train"] and len(found["hits"]) <= 2
    assert {"id", "content", "truncated", "score", "type", "tags"} <= set(found["hits"][0])
    whole = mem.inject.call("recall_memory", {"ids": [ids["tea"], "nope"]})
    assert [m["id"] for m in whole["memories"]] == [ids["tea"]]
    assert whole["not_found"] == ["nope"]
    with pytest.raises(NotFoundError):
        mem.inject.call("recall_memory", {"ids": ["nope"]})
    typed = mem.inject.call("search_memory", {"query": "release", "type": "decision"})
    assert typed["hits"] == []


def test_self_editing_tools_edit_blocks_and_reach_archival_and_recall(mem: Memory) -> None:
    mem.inject.blocks.set("human", "Name: Ada", char_limit=60)
    view = mem.inject.call("core_memory_append", {"label": "human", "content": "Likes tea"})
    assert view == {
        "label": "human",
        "value": "Name: Ada\nLikes tea",
        "chars": 19,
        "char_limit": 60,
        "version": 2,
    }
    replaced = mem.inject.call(
        "core_memory_replace", {"label": "human", "old_content": "tea", "new_content": "coffee"}
    )
    assert replaced["value"] == "Name: Ada\nLikes coffee"
    assert [e.actor for e in mem.inject.blocks.history("human")][:2] == ["agent", "agent"]
    stored = mem.inject.call(
        "archival_memory_insert", {"content": "Ada's cat is called Babbage", "tags": ["pets"]}
    )
    assert mem.get(stored["id"]).tags == ("pets",)
    hits = mem.inject.call("archival_memory_search", {"query": "cat Babbage"})["hits"]
    assert hits[0]["id"] == stored["id"]
    mem.add([{"role": "user", "content": "remember the Babbage vet visit on Monday"}])
    said = mem.inject.call("conversation_search", {"query": "Babbage vet"})["hits"]
    assert said and all(h["type"] == "message" for h in said)
    mem.inject.blocks.set("persona", "Calm.", read_only=True)
    with pytest.raises(PermissionDeniedError):
        mem.inject.call("core_memory_append", {"label": "persona", "content": "Loud."})


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("teleport", {}, "no memory tool 'teleport'"),
        ("search_memory", "{not json", "not valid JSON"),
        ("search_memory", "[1]", "must be a JSON object"),
        ("search_memory", {}, "query is required and was not given"),
        ("search_memory", {"query": "q", "mood": "x"}, "'mood' is not an argument of"),
        ("search_memory", {"query": "q", "limit": 0}, "limit must be at least 1, got 0"),
        ("search_memory", {"query": "q", "limit": True}, "must be an integer"),
        ("search_memory", {"query": "", "limit": 3}, "query must be a non-empty string"),
        ("search_memory", {"query": "q", "type": "gossip"}, "must be one of"),
        ("search_memory", {"query": "q", "tags": "t"}, "must be a list"),
        ("recall_memory", {"ids": []}, "ids needs at least 1 item"),
        ("recall_memory", {"ids": ["x"] * 51}, "ids has 51 items; at most 50"),
        ("core_memory_append", {"label": "human"}, "content is required and was not given"),
        ("core_memory_append", {"label": "human", "content": 3}, "must be a string"),
    ],
)
def test_bad_tool_calls_say_what_was_wrong_and_change_nothing(
    mem: Memory, name: str, arguments: Any, message: str
) -> None:
    mem.inject.blocks.set("human", "Ada")
    with pytest.raises(InvalidInputError) as err:
        mem.inject.call(name, arguments)
    assert message in str(err.value)
    assert mem.inject.blocks.get("human").version == 1
    assert mem.get_all() == []


# -- docs ------------------------------------------------------------------------------------
def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    run_doc_example(capsys, "injection.md")

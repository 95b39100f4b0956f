"""Native filters (issue 14): record fields, tags and ``metadata.<key>`` on search,
recall and get_all alike, on both backends and every surface; an unknown key or an
operator the native API cannot apply is ``InvalidInputError`` naming what is
supported, never a silently dropped condition."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from mcp import Client

from engram import Memory
from engram.cli.main import cli
from engram.errors import InvalidInputError
from engram.filters import OPERATORS, RECORD_FIELDS
from engram.mcp.server import create_mcp_server


@pytest.fixture
def tea(mem: Memory) -> Memory:
    """Four tea memories in ``default`` with fields and metadata to filter on."""
    mem.add(
        "tea fact about oolong",
        tags=["tea", "china"],
        category="semantic",
        metadata={"source": "book", "category": "drinks"},
    )
    mem.add("tea decision: buy sencha", type="decision", tags=["tea"], metadata={"source": "chat"})
    mem.add("tea preference: green", type="preference", metadata={"source": "chat", "n": 2})
    mem.add(
        "tea from a run",
        namespace="default",
        agent_id="planner",
        session_id="s1",
        metadata={"n": 3},
    )
    return mem


def everywhere(mem: Memory, filters: dict[str, Any]) -> set[str]:
    """The contents ``filters`` keep, the same through search, recall and get_all."""
    searched = {h.memory.content for h in mem.search("tea", limit=10, filters=filters)}
    recalled = {h.memory.content for h in mem.recall("tea", limit=10, filters=filters).hits}
    listed = {r.content for r in mem.get_all(filters=filters)}
    assert searched == recalled == listed, (searched, recalled, listed)
    return listed


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"type": "decision"}, {"tea decision: buy sencha"}),
        ({"category": "semantic"}, {"tea fact about oolong"}),  # the record's own field
        ({"metadata.category": "drinks"}, {"tea fact about oolong"}),  # metadata's key
        ({"metadata": {"category": "drinks"}}, {"tea fact about oolong"}),
        ({"metadata.source": "chat"}, {"tea decision: buy sencha", "tea preference: green"}),
        ({"metadata.source": {"$eq": "chat"}, "metadata.n": 2}, {"tea preference: green"}),
        ({"agent_id": "planner"}, {"tea from a run"}),
        ({"session_id": "s1", "metadata.n": 3}, {"tea from a run"}),
        ({"tags": ["tea", "china"]}, {"tea fact about oolong"}),
        ({"tags": "tea", "type": "decision"}, {"tea decision: buy sencha"}),
        ({"metadata.source": "nowhere"}, set()),
        # None: a JSON null or no such key.
        ({"metadata.n": None}, {"tea fact about oolong", "tea decision: buy sencha"}),
    ],
)
def test_search_recall_and_get_all_agree(
    tea: Memory, filters: dict[str, Any], expected: set[str]
) -> None:
    assert everywhere(tea, filters) == expected


def test_category_is_the_field_and_metadata_category_is_metadata(tea: Memory) -> None:
    """The issue's bug: {"category": "food"} quietly matched the record's field. Now the
    field takes its own names, and anything else is refused with the metadata form."""
    assert everywhere(tea, {"metadata.category": "semantic"}) == set()
    for call in (
        lambda: tea.search("tea", filters={"category": "drinks"}),
        lambda: tea.get_all(filters={"category": "drinks"}),
        lambda: tea.get_all(filters={"type": "drinks"}),
    ):
        with pytest.raises(InvalidInputError, match="metadata.(category|type)") as info:
            call()
        assert "use one of" in str(info.value)


@pytest.mark.parametrize("key", ["source", "importance", "content", "namespace", "foo.bar"])
def test_an_unknown_key_is_refused_naming_the_supported_ones(tea: Memory, key: str) -> None:
    calls = [
        lambda: tea.search("tea", filters={key: "x"}),
        lambda: tea.recall("tea", filters={key: "x"}),
        lambda: tea.get_all(filters={key: "x"}),
    ]
    for call in calls:
        with pytest.raises(InvalidInputError) as info:
            call()
        message = str(info.value)
        assert f"unknown filter key {key!r}" in message
        assert all(field in message for field in RECORD_FIELDS)
        assert f"'metadata.{key}'" in message  # the suggestion


@pytest.mark.parametrize("operator", ["$gte", "$ne", "$nin", "gte", "$contains", "$and"])
def test_an_operator_it_cannot_apply_is_refused_naming_the_supported_ones(
    tea: Memory, operator: str
) -> None:
    for filters in ({"metadata.n": {operator: 2}}, {"type": {operator: "fact"}}):
        for call in (tea.search, tea.recall):
            with pytest.raises(InvalidInputError, match="apply \\$eq, \\$in") as info:
                call("tea", filters=filters)
            assert repr(operator) in str(info.value)
        with pytest.raises(InvalidInputError, match="apply \\$eq, \\$in"):
            tea.get_all(filters=filters)
    assert OPERATORS == ("$eq", "$in")


def test_two_operators_in_one_condition_are_refused_not_half_applied(tea: Memory) -> None:
    with pytest.raises(InvalidInputError, match="'\\$in', '\\$gte'"):
        tea.search("tea", filters={"metadata.n": {"$in": [2, 3], "$gte": 3}})


def test_in_means_any_of_in_search_and_is_refused_by_get_all(tea: Memory) -> None:
    both = {"tea preference: green", "tea from a run"}
    for filters in ({"metadata.n": {"$in": [2, 3]}}, {"metadata.n": [2, 3]}):
        assert {h.memory.content for h in tea.search("tea", filters=filters)} == both
        assert {h.memory.content for h in tea.recall("tea", limit=10, filters=filters).hits} == (
            both
        )
        with pytest.raises(InvalidInputError, match="one value per key in SQL"):
            tea.get_all(filters=filters)
    kinds = {"type": {"$in": ["decision", "preference"]}}
    assert {h.memory.content for h in tea.search("tea", filters=kinds)} == {
        "tea decision: buy sencha",
        "tea preference: green",
    }


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"metadata.n": {"$in": 2}}, "\\$in takes a list"),
        ({"metadata.n": {"$eq": [2]}}, "\\$eq takes one value"),
        ({"metadata.n": []}, "empty list"),
        ({"metadata.n": {"a": 1}}, "operator"),
        ({"metadata.n": [[1]]}, "compares strings, numbers"),
        ({"type": 5}, "takes a string"),
        ({"user_id": None}, "takes a string"),
        ({"metadata": "source"}, "dict of metadata keys"),
        ({"tags": {"$in": ["tea"]}}, "tags"),
    ],
)
def test_values_no_backend_can_compare_are_refused(
    tea: Memory, filters: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        tea.search("tea", filters=filters)
    with pytest.raises(InvalidInputError, match=message):
        tea.get_all(filters=filters)


def test_a_metadata_key_keeps_its_dots(mem: Memory) -> None:
    dotted = mem.add("dotted key", metadata={"a.b": 1})
    mem.add("nested key", metadata={"a": {"b": 1}})
    assert [r.id for r in mem.get_all(filters={"metadata.a.b": 1})] == [dotted.id]
    assert [h.memory.id for h in mem.search("key", filters={"metadata.a.b": 1})] == [dotted.id]


def test_narrower_scope_ids_still_filter_with_native_filters(mem: Memory) -> None:
    mine = mem.add("planner note", user_id="alice", agent_id="planner", metadata={"k": 1})
    mem.add("writer note", user_id="alice", agent_id="writer", metadata={"k": 1})
    found = mem.get_all(user_id="alice", agent_id="planner", filters={"metadata.k": 1})
    assert [r.id for r in found] == [mine.id]
    hits = mem.search("note", user_id="alice", agent_id="planner", filters={"metadata.k": 1})
    assert [h.memory.id for h in hits] == [mine.id]


# -- surfaces --------------------------------------------------------------------------
def test_http_search_recall_and_list_take_native_filters(api: tuple[TestClient, Memory]) -> None:
    client, memory = api
    chat = memory.add("tea from chat", metadata={"source": "chat"})
    memory.add("tea from a book", metadata={"source": "book"})
    for route in ("/v1/search", "/v1/recall"):
        body = {"query": "tea", "filters": {"metadata.source": "chat"}}
        response = client.post(route, json=body)
        assert response.status_code == 200, response.text
        assert [h["memory"]["id"] for h in response.json()["hits"]] == [chat.id]
        refused = client.post(route, json={"query": "tea", "filters": {"source": "chat"}})
        assert refused.status_code == 422
        assert "metadata.source" in refused.json()["detail"]
        op = client.post(route, json={"query": "tea", "filters": {"metadata.n": {"$gt": 1}}})
        assert op.status_code == 422 and "$eq, $in" in op.json()["detail"]
    # The list route's metadata object is metadata, whatever its keys are called.
    listed = client.get("/v1/memories", params={"metadata": json.dumps({"source": "chat"})})
    assert [m["id"] for m in listed.json()["items"]] == [chat.id]
    typed = client.get("/v1/memories", params={"metadata": json.dumps({"type": "fact"})})
    assert typed.status_code == 200 and typed.json()["items"] == []


def test_cli_list_and_search_take_filter_flags(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(cli, ["--home", str(home), *args], env=env)
        return result

    assert run("add", "tea from chat", "--meta", "source=chat", "--meta", "n=2").exit_code == 0
    assert run("add", "tea from a book", "--meta", "source=book").exit_code == 0
    listed = run("list", "--filter", "metadata.source=chat", "--json")
    assert listed.exit_code == 0, listed.output
    assert [m["content"] for m in json.loads(listed.output)["items"]] == ["tea from chat"]
    searched = run("search", "tea", "--filter", "metadata.source=book", "--json")
    assert searched.exit_code == 0, searched.output
    assert [h["memory"]["content"] for h in json.loads(searched.output)["hits"]] == [
        "tea from a book"
    ]
    refused = run("list", "--filter", "source=chat")
    assert refused.exit_code != 0 and "metadata.source" in refused.output
    malformed = run("list", "--filter", "source")
    assert malformed.exit_code != 0 and "KEY=VALUE" in malformed.output


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_mcp_search_and_list_take_metadata(mem: Memory, anyio_backend: str) -> None:
    chat = mem.add("tea from chat", namespace="user:alice", metadata={"source": "chat"})
    mem.add("tea from a book", namespace="user:alice", metadata={"source": "book"})
    async with Client(create_mcp_server(mem, namespace="user:alice")) as client:
        found = await client.call_tool(
            "search_memory", {"query": "tea", "metadata": {"source": "chat"}}
        )
        assert not found.is_error and found.structured_content is not None
        assert [h["id"] for h in found.structured_content["hits"]] == [chat.id]
        page = await client.call_tool("list_memories", {"metadata": {"source": "chat"}})
        assert not page.is_error and page.structured_content is not None
        assert [m["id"] for m in page.structured_content["items"]] == [chat.id]


def run_doc_block(page: str, heading: str) -> dict[str, Any]:
    """Run the first python block under ``heading`` in ``docs/<page>``; its globals."""
    text = (Path(__file__).resolve().parents[1] / "docs" / page).read_text(encoding="utf-8")
    section = text.split(f"\n{heading}\n", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(block, f"docs/{page}", "exec"), namespace)
    return namespace


def test_the_filters_example_in_the_recall_guide_runs(capsys: pytest.CaptureFixture[str]) -> None:
    ran = run_doc_block("recall.md", "## Filters")
    ran["mem"].close()
    printed = capsys.readouterr().out
    assert "to match metadata write {'metadata.source': ...}" in printed
    assert "apply $eq, $in" in printed

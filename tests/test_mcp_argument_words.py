"""MCP tool-argument errors say what was wrong in the HTTP API's words, not pydantic's
(task err24, issue 26).

``remember`` with empty content answered ``invalid arguments for remember: content:
String should have at least 1 character``. Every tool's arguments now pass through the
translation HTTP's 422s use (``engram.validation_words``), with the argument named as
the tool spells it and an unknown one answered with the tool's argument list.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

from conftest import import_script
from engram import Config, Memory
from engram.mcp.server import create_mcp_server, tool_manifest
from hashembed import HashEmbedder

fuzz = import_script("err24_mcp_fuzz")
words = import_script("err23_fuzz").pydantic_words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    config = Config.load(env={}, home=str(tmp_path_factory.mktemp("home")))
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        yield create_mcp_server(memory, namespace="words")


def refused(server: Any, tool: str, **arguments: Any) -> str:
    async def call() -> None:
        await server.call_tool(tool, arguments)

    with pytest.raises(ToolError) as caught:
        anyio.run(call)
    text = str(caught.value)
    assert text.startswith(f"invalid arguments for {tool}: "), text
    assert not words(text), text
    return text.removeprefix(f"invalid arguments for {tool}: ")


def test_every_broken_argument_of_every_tool_is_said_in_words(server: Any) -> None:
    rows = fuzz.walk(server, tool_manifest(server))
    assert len({r["tool"] for r in rows}) >= 30
    raised = [r for r in rows if r["outcome"] in {"crash", "raised"}]
    assert raised == []
    errors = [r for r in rows if r["outcome"] == "tool error"]
    assert len(errors) > 300
    assert [r for r in errors if words(r["text"])] == []


@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("remember", {"content": ""}, "content must be a non-empty string, got ''"),
        ("remember", {}, "content is required and was not given"),
        ("remember", {"content": "c", "importance": 2}, "importance must be at most 1.0, got 2"),
        ("remember", {"content": 7}, "content must be a string, got 7"),
        # An argument named like an HTTP source (query) is named, not taken for one.
        ("search_memory", {"query": ""}, "query must be a non-empty string, got ''"),
        ("search_memory", {"query": "q", "limit": "ten"}, "limit must be an integer, got 'ten'"),
        ("feedback", {"id": "m", "rating": "meh"}, "rating must be one of 'up', 'down', 1, -1"),
        ("recall_memory", {"ids": []}, "ids needs at least 1 item, got 0"),
        ("mine_conversation", {"messages": [7]}, "messages[0] must be a JSON object, got 7"),
        (
            "get_context",
            {"task": "t", "run_id": "a b"},
            "invalid run_id 'a b': use 1-200 characters from letters, digits and _ . : @ / + -",
        ),
    ],
)
def test_a_broken_argument_is_named_with_what_it_takes(
    server: Any, tool: str, arguments: dict[str, Any], says: str
) -> None:
    assert refused(server, tool, **arguments).startswith(says)


def test_an_unknown_argument_is_answered_with_the_tools_arguments(server: Any) -> None:
    said = refused(server, "forget", id="m", force=True)
    assert said.startswith("'force' is not an argument of forget; it takes id (")
    said = refused(server, "remember", content="c", namespace="bob")
    assert said.startswith(
        "'namespace' is not an argument of remember; it takes category, content, "
        "importance, metadata, tags, title, type ("
    )
    # A tool without arguments says so.
    said = refused(server, "core_memory", agent="me")
    assert said.startswith("'agent' is not an argument of core_memory; it takes none (")


def test_several_broken_arguments_are_one_line(server: Any) -> None:
    said = refused(server, "remember", content="", importance=5, bogus=1)
    parts = said.split(" (the tool's input schema")[0].split("; ")
    assert parts[0] == "content must be a non-empty string, got ''"
    assert parts[1] == "importance must be at most 1.0, got 5"
    assert parts[2].startswith("'bogus' is not an argument of remember")


def accepted(server: Any, tool: str, **arguments: Any) -> Any:
    async def call() -> Any:
        return await server.call_tool(tool, arguments)

    return anyio.run(call)


@pytest.mark.parametrize("given", ["4_0", " 4 ", "+4", "04", "4.0", "1e1", "0x4"])
def test_a_number_in_a_string_no_json_writer_makes_is_refused(server: Any, given: str) -> None:
    # Task err26: the lax model read "4_0" as 40 and " +4 " as 4 (round fifteen kept
    # "4" for clients that send numbers as strings); only JSON's spelling is read now.
    said = refused(server, "search_memory", query="q", limit=given)
    assert said.startswith(f"limit must be an integer, got {given!r}"), said
    said = refused(server, "remember", content="c", importance=" 0.5")
    assert said.startswith("importance must be a number, got ' 0.5'"), said


def test_a_number_sent_as_json_spells_it_is_read_as_that_number(server: Any) -> None:
    # Claude Desktop, Cursor and Cline send numbers as strings (docs/mcp.md): "4" is 4.
    accepted(server, "remember", content="Tea is served at four", importance="0.5")
    accepted(server, "remember", content="Coffee is served at nine", importance="1")
    hits = accepted(server, "search_memory", query="served", limit="1")
    assert len(hits.structured_content["hits"]) == 1
    both = accepted(server, "search_memory", query="served", limit="2")
    assert len(both.structured_content["hits"]) == 2

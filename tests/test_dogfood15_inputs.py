"""New-user pass, round fifteen: round fourteen's surface leftovers.

``POST /v1/inject/tools/{name}`` (and ``mem.inject.call``) worded its own refusals
("search_memory: query must have at least 1 characters") where every other route's 422
speaks through one translation (``engram.validation_words``); and ``engram mcp`` took
``true`` for a number (``limit: true`` was one hit, ``importance: true`` 1.0) where the
HTTP API answers "limit must be an integer, got true"."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from mcp import Client

from conftest import HashEmbedder, HttpServed
from engram import Config, Memory
from engram.errors import InvalidInputError
from engram.mcp.server import create_mcp_server


# -- the memory tools' refusals, in the one translation's words -------------------------
@pytest.mark.parametrize(
    ("name", "arguments", "said"),
    [
        ("search_memory", {"query": ""}, "query must be a non-empty string, got ''"),
        ("search_memory", {"query": "q", "limit": 0}, "limit must be at least 1, got 0"),
        ("search_memory", {"query": "q", "limit": True}, "limit must be an integer, got true"),
        ("search_memory", {"query": "q", "tags": [""]}, "tags[0] must be a non-empty string"),
        ("search_memory", {"query": "q", "mood": 1}, "'mood' is not an argument of"),
        ("search_memory", {}, "query is required and was not given"),
        ("recall_memory", {"ids": []}, "ids needs at least 1 item, got 0"),
        ("recall_memory", {"ids": ["x"] * 51}, "ids has 51 items; at most 50"),
        ("core_memory_append", {"label": "h" * 65, "content": "x"}, "at most 64"),
    ],
)
def test_a_tools_refusal_speaks_as_the_other_routes_do(
    mem: Memory, name: str, arguments: dict[str, Any], said: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        mem.inject.call(name, arguments, user_id="ann")
    text = str(caught.value)
    assert text.startswith(f"invalid arguments for {name}: ") and said in text, text
    assert "at least 1 characters" not in text
    assert "between" not in text  # the range is said as a 422 says it
    assert mem.get_all(user_id="ann") == []


def test_http_tool_route_refusals_match_the_search_routes(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    auth = {"Authorization": f"Bearer {keys['alice']}"}
    empty = httpx.post(
        f"{url}/v1/inject/tools/search_memory", json={"arguments": {"query": ""}}, headers=auth
    )
    assert empty.status_code == 422
    assert empty.json()["detail"] == (
        "invalid arguments for search_memory: query must be a non-empty string, got ''"
    )
    flag = {"arguments": {"query": "boiler", "limit": True}}
    tool = httpx.post(f"{url}/v1/inject/tools/search_memory", json=flag, headers=auth)
    search = httpx.post(f"{url}/v1/search", json={"query": "boiler", "limit": True}, headers=auth)
    assert tool.status_code == search.status_code == 422
    assert tool.json()["detail"].endswith(search.json()["detail"])  # the same words


# -- MCP: a boolean where a number is asked ---------------------------------------------
@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        ("search_memory", {"query": "boiler", "limit": True}, "limit must be an integer, got true"),
        ("get_context", {"task": "boiler", "limit": True}, "limit must be an integer, got true"),
        ("list_memories", {"offset": False}, "offset must be an integer, got false"),
        ("remember", {"content": "Boiler serviced.", "importance": True}, "importance must be "),
        ("search_memory", {"query": "boiler", "room": True}, "room must be a string or an integer"),
    ],
)
async def test_mcp_refuses_a_boolean_for_a_number(
    config: Config, tool: str, arguments: dict[str, Any], said: str
) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        async with Client(create_mcp_server(memory, namespace="user:ann")) as client:
            result = await client.call_tool(tool, arguments)
            text = result.content[0].text  # type: ignore[union-attr]
            assert result.is_error and said in text, text
            # A boolean inside metadata (which takes booleans) still goes through.
            kept = await client.call_tool(
                "remember",
                {"content": "The boiler was serviced in March.", "metadata": {"ok": True}},
            )
            assert not kept.is_error
        assert [m.content for m in memory.get_all(user_id="ann")] == [
            "The boiler was serviced in March."
        ]

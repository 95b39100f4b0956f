"""A ``tools/call`` whose ``arguments`` is not a JSON object (task err26, round fifteen's
leftover): the SDK answered a bare -32602 "Invalid request parameters". It stays a
-32602 (MCP: a request that fails ``CallToolRequest``'s schema is a protocol error),
now saying what was wrong and naming the tool's arguments, on stdio and over HTTP.
Lines written by hand: an SDK client would not send such a call.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import HashEmbedder, keyed_server
from engram import Config, Memory
from test_mcp_stdio_bad_lines import Stdio, error_of, initialize, stdio  # noqa: F401

REMEMBER_TAKES = "remember takes category, content, importance, metadata, tags, title, type"

#: The arguments sent, and how the answer says what they were.
NOT_OBJECTS = [
    (["Ann likes tea"], "got a list"),
    ("Ann likes tea", "got 'Ann likes tea'"),
    (4, "got 4"),
    (True, "got true"),
]


def said_for(tool: str, got: str) -> str:
    return f"invalid arguments for {tool}: the arguments of {tool} must be a JSON object, {got}"


@pytest.mark.parametrize(("arguments", "got"), NOT_OBJECTS)
def test_stdio_says_the_arguments_must_be_an_object_and_names_them(
    stdio: Stdio,  # noqa: F811
    arguments: object,
    got: str,
) -> None:
    initialize(stdio)
    reply = stdio.request(2, "tools/call", {"name": "remember", "arguments": arguments})
    _, code, message = error_of(reply)
    assert code == -32602
    assert message.startswith(said_for("remember", got)), message
    assert 'name each argument, as in {"name": value}' in message
    assert REMEMBER_TAKES in message
    # Nothing was stored, and the session goes on.
    reply = stdio.request(3, "tools/call", {"name": "list_memories", "arguments": {}})
    assert reply["result"]["structuredContent"]["total"] == 0, reply


def test_stdio_an_unknown_tool_with_a_list_points_to_tools_list(stdio: Stdio) -> None:  # noqa: F811
    initialize(stdio)
    _, code, message = error_of(
        stdio.request(2, "tools/call", {"name": "rememberr", "arguments": [1]})
    )
    assert code == -32602
    assert message.startswith(said_for("rememberr", "got a list")), message
    assert "tools/list names the tools and each one's arguments" in message
    # An object, or no arguments at all, is read as before (the tool's own error).
    reply = stdio.request(3, "tools/call", {"name": "get_context"})
    assert reply["result"]["isError"] is True
    assert "invalid arguments for get_context: task" in reply["result"]["content"][0]["text"]


@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, dict[str, str], Memory]]:
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as memory,
        keyed_server(memory) as (url, keys),
    ):
        yield url, keys, memory


def _post(url: str, key: str, message: dict[str, Any]) -> dict[str, Any]:
    """One JSON-RPC message to ``/mcp`` (stateless streamable HTTP), its answer."""
    answer = httpx.post(
        f"{url}/mcp",
        json=message,
        headers={
            "Authorization": f"Bearer {key}",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
        },
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    data = [line[5:] for line in answer.text.splitlines() if line.startswith("data:")]
    reply: dict[str, Any] = json.loads(data[0] if data else answer.text)
    return reply


@pytest.mark.parametrize(("arguments", "got"), NOT_OBJECTS)
def test_http_says_the_same(
    served: tuple[str, dict[str, str], Memory], arguments: object, got: str
) -> None:
    url, keys, memory = served
    call = {"name": "search_memory", "arguments": arguments}
    reply = _post(
        url, keys["alice"], {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
    )
    assert reply["id"] == 2 and reply["error"]["code"] == -32602, reply
    message = reply["error"]["message"]
    assert message.startswith(said_for("search_memory", got)), message
    assert "search_memory takes limit, metadata, query, room, tags, type, wing" in message
    assert memory.get_all(namespace="user:alice") == []


#: A ``tools/call`` whose ``name`` is not a string (task dogfood16, round fifteen's
#: leftover): the SDK answered a bare -32602 "Invalid request parameters". The ``name``
#: sent, and how the answer says what it was.
BAD_NAMES = [
    ({"name": 5}, "name must be a string, got 5"),
    ({"name": None}, "name must be a string, got null"),
    ({"name": ["remember"]}, "name must be a string, got a list"),
    ({"name": {"tool": "remember"}}, "name must be a string, got a JSON object"),
    ({}, "name is required and was not given"),
]

TOOLS_LIST = "tools/list names the tools and each one's arguments"


def said_for_call(words: str) -> str:
    return f"invalid tools/call: {words}; give the tool's name as a string"


@pytest.mark.parametrize(("name", "words"), BAD_NAMES)
def test_stdio_says_the_name_must_be_a_string(
    stdio: Stdio,  # noqa: F811
    name: dict[str, object],
    words: str,
) -> None:
    initialize(stdio)
    reply = stdio.request(2, "tools/call", {**name, "arguments": {"content": "Ann likes tea"}})
    _, code, message = error_of(reply)
    assert code == -32602
    assert message.startswith(said_for_call(words)), message
    assert TOOLS_LIST in message
    # Nothing was stored, and the session goes on.
    reply = stdio.request(3, "tools/call", {"name": "list_memories", "arguments": {}})
    assert reply["result"]["structuredContent"]["total"] == 0, reply


@pytest.mark.parametrize(("name", "words"), BAD_NAMES)
def test_http_says_the_name_must_be_a_string(
    served: tuple[str, dict[str, str], Memory], name: dict[str, object], words: str
) -> None:
    url, keys, memory = served
    call = {**name, "arguments": {"content": "Ann likes tea"}}
    reply = _post(
        url, keys["alice"], {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
    )
    assert reply["id"] == 2 and reply["error"]["code"] == -32602, reply
    message = reply["error"]["message"]
    assert message.startswith(said_for_call(words)), message
    assert TOOLS_LIST in message
    assert memory.get_all(namespace="user:alice") == []

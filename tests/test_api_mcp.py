"""The MCP endpoint mounted at /mcp by ``engram serve``: same keys, same namespace rule."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from conftest import HashEmbedder, keyed_server
from engram import Config, Memory


@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, Memory, dict[str, str]]]:
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as memory,
        keyed_server(memory) as (url, keys),
    ):
        yield url, memory, keys


async def _tools(
    url: str, key: str, calls: list[tuple[str, dict[str, Any]]], namespace: str | None = None
) -> list[Any]:
    headers = {"Authorization": f"Bearer {key}"}
    if namespace:
        headers["X-Engram-Namespace"] = namespace
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
    ):
        return [await client.call_tool(name, args) for name, args in calls]


def test_mcp_over_http_is_isolated_per_key(served: tuple[str, Memory, dict[str, str]]) -> None:
    url, memory, keys = served
    [stored] = asyncio.run(
        _tools(
            url, keys["alice"], [("remember", {"content": "Alice's deploy key lives in the vault"})]
        )
    )
    alice_id = stored.structured_content["id"]
    assert memory.get(alice_id, namespace="user:alice").content.startswith("Alice's deploy")

    listed, searched, recalled = asyncio.run(
        _tools(
            url,
            keys["bob"],
            [
                ("list_memories", {}),
                ("search_memory", {"query": "deploy key vault"}),
                ("recall_memory", {"ids": [alice_id]}),
            ],
        )
    )
    assert listed.structured_content["items"] == []
    assert searched.structured_content["hits"] == []
    assert recalled.is_error and "Alice" not in str(recalled.content)

    [admin_view] = asyncio.run(
        _tools(url, keys["admin"], [("list_memories", {})], namespace="user:alice")
    )
    assert [m["id"] for m in admin_view.structured_content["items"]] == [alice_id]


def test_mcp_needs_a_key_and_a_reachable_namespace(
    served: tuple[str, Memory, dict[str, str]],
) -> None:
    url, memory, keys = served
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert httpx.post(f"{url}/mcp", json=ping).status_code == 401
    bad = httpx.post(f"{url}/mcp", json=ping, headers={"Authorization": "Bearer engram_nope"})
    assert bad.status_code == 401 and bad.json()["error"] == "unauthorized"
    other = httpx.post(
        f"{url}/mcp",
        json=ping,
        headers={"Authorization": f"Bearer {keys['alice']}", "X-Engram-Namespace": "user:bob"},
    )
    assert other.status_code == 403 and other.json()["error"] == "forbidden"
    assert memory.get_all(namespace="user:bob") == []

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


def test_a_401_points_mcp_clients_to_the_bearer_key_metadata(
    served: tuple[str, Memory, dict[str, str]],
) -> None:
    # RFC 9728: the challenge names the metadata, which names no authorization server,
    # so a client reports the 401's message instead of starting OAuth.
    url, _, keys = served
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    metadata_url = f"{url}/.well-known/oauth-protected-resource"
    for headers in ({}, {"Authorization": "Bearer engram_nope"}):
        denied = httpx.post(f"{url}/mcp", json=ping, headers=headers)
        assert denied.status_code == 401
        assert denied.headers["www-authenticate"] == f'Bearer resource_metadata="{metadata_url}"'
    assert "unknown or revoked key" in denied.json()["detail"]
    assert "engram keys create" in denied.json()["detail"]
    for where in (metadata_url, f"{metadata_url}/mcp"):  # root, and with the path appended
        described = httpx.get(where)
        assert described.status_code == 200
        assert described.json() == {
            "resource": f"{url}/mcp",
            "resource_name": "engram MCP server",
            "bearer_methods_supported": ["header"],
        }
    # A proxy's Host header is what the client reached: the URLs follow it.
    proxied = httpx.post(f"{url}/mcp", json=ping, headers={"Host": "memory.example:443"})
    assert "http://memory.example:443/.well-known/" in proxied.headers["www-authenticate"]
    # A good key is not challenged; a forbidden namespace is a 403, not a challenge.
    alice = {"Authorization": f"Bearer {keys['alice']}", "X-Engram-Namespace": "user:bob"}
    forbidden = httpx.post(f"{url}/mcp", json=ping, headers=alice)
    assert forbidden.status_code == 403 and "www-authenticate" not in forbidden.headers


def test_no_discovery_metadata_without_mcp(config: Config) -> None:
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as memory,
        keyed_server(memory, mcp=False) as (url, _),
    ):
        assert httpx.get(f"{url}/.well-known/oauth-protected-resource").status_code == 404

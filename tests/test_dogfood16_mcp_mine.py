"""MCP ``mine_conversation`` says how many messages it could not file (task dogfood16,
round sixteen). A message holding a NUL, or blank, is skipped by mining (the rest of
the conversation is filed); ``POST /v1/palace/mine`` and ``engram mine`` count it as
``invalid``, but the tool's answer had no such field: an agent sending
``[{"role": "user", "content": "a\\u0000b"}]`` got ``added: [], kept: 0, blocked: 0``,
as if its message had been filed before, and never learnt it was lost."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from mcp import Client

from engram import Memory
from engram.mcp.server import create_mcp_server

pytestmark = pytest.mark.anyio


@pytest.fixture
async def alice(mem: Memory) -> AsyncIterator[Client]:
    async with Client(create_mcp_server(mem, namespace="user:alice")) as client:
        yield client


async def test_mine_conversation_counts_the_messages_it_could_not_file(
    alice: Client, mem: Memory
) -> None:
    messages = [
        {"role": "user", "content": "My locker code is 4\u000012."},
        {"role": "assistant", "content": "Noted, your locker code is saved."},
        {"role": "user", "content": "   "},
    ]
    result = await alice.call_tool("mine_conversation", {"messages": messages, "wing": "gym"})
    assert not result.is_error
    data = result.structured_content
    assert data is not None
    assert len(data["added"]) == 1 and data["kept"] == 0 and data["blocked"] == 0
    assert data["invalid"] == 2, data
    assert [r.content for r in mem.get_all(namespace="user:alice")] == [
        "Noted, your locker code is saved."
    ]
    # The schema says what the count means.
    tools = {t.name: t for t in (await alice.list_tools()).tools}
    schema = tools["mine_conversation"].output_schema or {}
    assert "NUL" in schema["properties"]["invalid"]["description"]

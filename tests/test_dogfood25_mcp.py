"""An MCP host calling a tool the server does not have (new-user pass, round
twenty-five): the answer names the nearest tool and every tool, so a model that guessed
a name can correct it without another tools/list."""

from __future__ import annotations

import pytest
from mcp import Client


@pytest.mark.anyio
async def test_an_unknown_tool_names_the_nearest_and_every_tool(alice: Client) -> None:
    listed = sorted(tool.name for tool in (await alice.list_tools()).tools)
    answer = await alice.call_tool("search_memories", {"query": "tea"})
    text = " ".join(getattr(part, "text", "") for part in answer.content)
    assert answer.is_error
    assert text.startswith("unknown tool 'search_memories'; did you mean 'search_memory'?")
    assert f"This server's {len(listed)} tools" in text and ", ".join(listed) in text
    # No near name: no guess, the list still given; the session goes on.
    answer = await alice.call_tool("zzz", {})
    text = " ".join(getattr(part, "text", "") for part in answer.content)
    assert answer.is_error and "did you mean" not in text and ", ".join(listed) in text
    assert not (await alice.call_tool("search_memory", {"query": "tea"})).is_error

"""The MCP tools as a real client meets them (new-user pass, round five): an error an
agent gets says what to do with the tools and commands it has."""

from __future__ import annotations

import pytest
from mcp import Client


@pytest.mark.anyio
async def test_editing_a_missing_core_block_says_how_a_person_creates_it(alice: Client) -> None:
    for tool, args in (
        ("core_memory_append", {"label": "human", "content": "Likes tea"}),
        ("core_memory_replace", {"label": "human", "old_content": "tea", "new_content": "x"}),
    ):
        missing = await alice.call_tool(tool, args)
        text = " ".join(getattr(part, "text", "") for part in missing.content)
        assert missing.is_error and "no core block 'human'" in text
        # No MCP tool creates a block: the error names the command and the route.
        assert "`engram blocks set human TEXT`" in text and "PUT /v1/blocks/human" in text


@pytest.mark.anyio
async def test_a_nul_in_an_id_or_a_lookup_is_not_told_to_store_text(alice: Client) -> None:
    """The NUL refusal reaches reads too (forget, kg_query): it said "store the text
    again" to a caller who was storing nothing."""
    for tool, args in (("forget", {"id": "a\x00b"}), ("kg_query", {"entity": "a\x00b"})):
        refused = await alice.call_tool(tool, args)
        text = " ".join(getattr(part, "text", "") for part in refused.content)
        assert refused.is_error and "NUL character (U+0000)" in text
        assert "remove it and send it again" in text and "store the text" not in text

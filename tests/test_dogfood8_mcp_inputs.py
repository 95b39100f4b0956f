"""The MCP tools round seven did not walk, with wrong input (new-user pass, round eight):
every error says what was wrong and what to do with the tools an agent has, and an id
the agent got wrong is never answered with a silent empty list."""

from __future__ import annotations

import pytest
from mcp import Client

from engram import Memory

pytestmark = pytest.mark.anyio


async def error_of(client: Client, tool: str, args: dict[str, object]) -> str:
    result = await client.call_tool(tool, args)
    assert result.is_error, result.structured_content
    return " ".join(getattr(part, "text", "") for part in result.content)


async def test_ingest_document_names_only_the_arguments_the_tool_has(alice: Client) -> None:
    # The library's message named `path`, which the MCP tool does not take.
    for args, got in (({}, "neither"), ({"text": "a", "url": "https://example.com"}, "both")):
        text = await error_of(alice, "ingest_document", args)
        assert f"pass exactly one of text and url (got {got})" in text
        assert "path" not in text


async def test_archived_memories_of_an_unknown_or_plain_memory_says_why(
    alice: Client, mem: Memory
) -> None:
    assert "no memory" in await error_of(alice, "archived_memories", {"summary_id": "nope"})
    plain = mem.add("Ann sold her red Volvo in May", user_id="alice").id
    text = await error_of(alice, "archived_memories", {"summary_id": plain})
    assert "has no archived originals" in text and "without summary_id" in text
    # Without an id, an empty archive is a plain empty list.
    listed = await alice.call_tool("archived_memories", {})
    assert not listed.is_error and listed.structured_content == {"items": []}


async def test_restore_memory_of_an_unknown_id_names_the_mcp_tool(alice: Client) -> None:
    # It named only a CLI command; an agent over MCP has no shell (round seven's rule).
    text = await error_of(alice, "restore_memory", {"memory_id": "nope"})
    assert "the MCP tool archived_memories" in text


async def test_a_checkpoint_context_without_pre_compaction_is_refused(
    alice: Client, mem: Memory
) -> None:
    # Seed 004 keeps the context only in a pre-compaction digest; with "agent" (the
    # default trigger) it was accepted and dropped without a word.
    args = {"session_key": "s1", "context": "Booking Miso's vet visit"}
    text = await error_of(alice, "session_checkpoint", args)
    assert "only with trigger 'pre_compaction'" in text
    kept = await alice.call_tool("session_checkpoint", {**args, "trigger": "pre_compaction"})
    assert not kept.is_error
    digest = await alice.call_tool("recover_session", {"session_key": "s1"})
    assert "Booking Miso's vet visit" in str(digest.structured_content)

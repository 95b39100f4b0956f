"""A plain statement told through each surface comes back as the user's fact once the
worker has run (task extract20): ``engram add`` then ``engram worker --once``, HTTP
``POST /v1/memories``, and the MCP ``remember`` tool. The library, both backends, is in
``test_plain_statements.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from conftest import HttpServed, bearer_client, run_cli
from engram import Config, Memory
from engram.records import PIPELINE_WHO

ALLERGY = "I'm allergic to peanuts."
FACT = "User is allergic to peanuts."


def test_cli_add_then_the_worker_writes_the_users_fact(tmp_path: Path) -> None:
    home = tmp_path / "home"
    added = run_cli(home, "add", ALLERGY, "--user", "ana")
    assert added.exit_code == 0, added.output
    ran = run_cli(home, "worker", "--once")
    assert ran.exit_code == 0, ran.output
    config = Config.load(env={}, home=str(home), embedder={"name": "none"})
    with Memory(config=config) as mem:
        facts = [r for r in mem.get_all(user_id="ana") if r.who == PIPELINE_WHO]
        assert [(f.content, f.user_id) for f in facts] == [(FACT, "ana")]


def test_http_post_memories_then_the_worker_writes_the_users_fact(
    http_server: HttpServed,
) -> None:
    url, keys, memory = http_server
    with bearer_client(url, keys["alice"]) as alice:
        made = alice.post("/v1/memories", json={"content": ALLERGY})
        assert made.status_code == 201, made.text
        memory.jobs.process_pending()
        listed = alice.get("/v1/memories").json()["items"]
    facts = [m for m in listed if m["who"] == PIPELINE_WHO]
    assert [(f["content"], f["source_memory_id"]) for f in facts] == [(FACT, made.json()["id"])]


@pytest.mark.anyio
async def test_mcp_remember_then_the_worker_writes_the_users_fact(
    alice: Client, mem: Memory
) -> None:
    told = await alice.call_tool("remember", {"content": ALLERGY})
    assert not told.is_error
    mem.jobs.process_pending()
    found = await alice.call_tool("search_memory", {"query": "what is the user allergic to"})
    assert found.structured_content is not None
    contents = [hit["content"] for hit in found.structured_content["hits"]]
    # The fact is written and found; its source, the same allergy said in the first
    # person, is not shown beside it (derived27: one line per family, the better ranked).
    assert FACT in contents and ALLERGY not in contents
    facts = [m for m in mem.get_all(user_id="alice") if m.who == PIPELINE_WHO]
    assert [m.content for m in facts] == [FACT]

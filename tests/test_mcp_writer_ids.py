"""``engram mcp --user alice --agent planner`` records the agent on what it stores
(new-user pass, round twenty-five): the tools stored memories with no ``agent_id``,
though the library's ``mem.add(..., user_id=, agent_id=)`` records both, so two agents
writing into one user's namespace could not be told apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from engram import Memory
from engram.mcp.server import create_mcp_server
from test_mcp import call, engram_over_stdio, reopen

pytestmark = pytest.mark.anyio


async def test_the_stdio_server_stamps_its_user_and_agent(tmp_path: Path) -> None:
    home = tmp_path / "home"
    args = ("--user", "alice", "--agent", "planner", "--no-worker", "--no-schedules")
    async with Client(engram_over_stdio(home, *args)) as client:
        kept = await call(client, "remember", content="The sprint review moved to Fridays.")
    with reopen(home) as mem:
        record = mem.get(kept["id"], user_id="alice")
        assert (record.namespace, record.user_id, record.agent_id) == (
            "user:alice",
            "alice",
            "planner",
        )
        # Filtering by agent finds it, as for a memory the library wrote.
        assert [r.id for r in mem.get_all(user_id="alice", agent_id="planner")] == [kept["id"]]


async def test_a_server_without_ids_stamps_none(mem: Memory) -> None:
    async with Client(create_mcp_server(mem, namespace="team-x")) as client:
        kept = await call(client, "remember", content="Builds cache to the shared bucket.")
    record = mem.get(kept["id"], namespace="team-x")
    assert (record.user_id, record.agent_id) == (None, None)

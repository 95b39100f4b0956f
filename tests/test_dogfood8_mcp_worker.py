"""``engram mcp`` runs the job worker (new-user pass, round eight): an agent that talks
only MCP gets the facts its writes queue, with no other engram process beside it."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client

from test_mcp import call, engram_over_stdio, reopen

pytestmark = pytest.mark.anyio


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


#: The worker polls every 100 ms here (seed 004's 2 s default would slow the test).
FAST_POLL = {"ENGRAM_WORKER_POLL_MS": "100"}
NOTE = "Alice adopted a cat named Miso in March. Miso lives with Alice in Berlin."


async def test_the_stdio_server_runs_the_jobs_its_writes_queue(home: Path) -> None:
    async with Client(engram_over_stdio(home, "--user", "ann", env=FAST_POLL)) as client:
        added = await call(client, "remember", content=NOTE)
        assert added["jobs"] == ["extract"]
        with anyio.fail_after(30):
            while len((await call(client, "list_memories"))["items"]) < 2:
                await anyio.sleep(0.2)
    with reopen(home) as mem:
        assert mem.jobs.counts()["pending"] == 0
        facts = [r.content for r in mem.get_all(user_id="ann") if r.id != added["id"]]
        assert facts and all("Miso" in fact for fact in facts)


async def test_no_worker_leaves_the_jobs_queued_for_another_process(
    home: Path,
) -> None:
    server = engram_over_stdio(home, "--user", "ann", "--no-worker", env=FAST_POLL)
    async with Client(server) as client:
        await call(client, "remember", content=NOTE)
        await anyio.sleep(1.0)  # ten polls of a worker, had one run
    with reopen(home) as mem:
        assert mem.jobs.counts()["pending"] == 1
        assert len(mem.get_all(user_id="ann")) == 1

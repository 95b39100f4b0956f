"""The lifecycle through its surfaces (FEATURES S8, S9): the HTTP routes over a real
socket with a user's and an admin's keys, and ``engram lifecycle`` on a file store
reopened by each command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result
from mcp import Client

from conftest import Clock, HashEmbedder, keyed_server
from conftest import bearer_clients as clients
from conftest import tool_call as call
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.mcp.server import create_mcp_server

ALICE = "user:alice"
SMALL = {"lifecycle": {"max_memories_per_agent": 5, "group_size": 3}}
#: The schedule off, so the routes (not the server's upkeep thread) consolidate.
BY_HAND = {"lifecycle": {**SMALL["lifecycle"], "consolidation_interval": "never"}}
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _notes(n: int) -> list[dict[str, object]]:
    return [
        {"content": f"Alice planted tomato row {i} by the fence", "created_at": T0 + timedelta(i)}
        for i in range(n)
    ]


# -- HTTP ------------------------------------------------------------------------------------
@pytest.fixture
def server(config: Config) -> Iterator[tuple[str, dict[str, str], Memory]]:
    with Memory(
        ":memory:", config=config.with_overrides(**BY_HAND), embedder=HashEmbedder()
    ) as mem:
        mem.add_many(_notes(8), namespace=ALICE)
        with keyed_server(mem, worker=False, mcp=False) as (url, keys):
            yield url, keys, mem


def test_http_consolidate_needs_admin_and_restore_works_for_the_owner(
    server: tuple[str, dict[str, str], Memory],
) -> None:
    url, keys, mem = server
    with clients(url, keys, "alice", "admin", "bob") as (alice, admin, bob):
        assert alice.post("/v1/lifecycle/consolidate").status_code == 403
        assert alice.post("/v1/lifecycle/retention").status_code == 403
        assert alice.put("/v1/lifecycle/rules", json={"days": 3}).status_code == 403
        done = admin.post("/v1/lifecycle/consolidate", json={"namespace": ALICE})
        assert done.status_code == 200, done.text
        result = done.json()
        assert result["archived"] >= 3 and result["summaries"], result
        status = alice.get("/v1/lifecycle/status").json()
        assert status["live"] <= 5 and status["archived"] == result["archived"]
        assert status["sizes"] == {}  # store-wide counts are an admin's view
        assert admin.get("/v1/lifecycle/status", params={"namespace": ALICE}).json()["sizes"]
        index = alice.get("/v1/lifecycle/archive").json()["items"]
        assert {e["original_id"] for e in index} == {
            e["original_id"] for e in result["archival_index"]
        }
        # Bob cannot see or restore alice's archive; by id he gets a 404.
        assert bob.get("/v1/lifecycle/archive").json()["items"] == []
        original = index[0]["original_id"]
        assert bob.post(f"/v1/lifecycle/restore/{original}").status_code == 404
        back = alice.post(f"/v1/lifecycle/restore/{original}")
        assert back.status_code == 200, back.text
        assert back.json()["restored"][0]["id"] == original
        assert alice.get(f"/v1/memories/{original}").status_code == 200
        assert alice.post("/v1/lifecycle/restore/nope").status_code == 404
        rules = admin.put(
            "/v1/lifecycle/rules",
            params={"namespace": ALICE},
            json={"days": 30, "category": "working"},
        )
        assert rules.json()["rules"]["working"] == 30
        assert alice.get("/v1/lifecycle/rules").json()["rules"]["working"] == 30
        bad = admin.put("/v1/lifecycle/rules", json={"days": 0})
        assert bad.status_code == 422
        sweep = admin.post("/v1/lifecycle/retention").json()
        assert list(sweep["steps"]) == [
            "expired", "archive_expired", "archive_compacted", "graph_links", "embeddings",
            "tombstones",
            "history", "completed_jobs", "dead_jobs",
        ]  # fmt: skip


def test_the_server_starts_the_schedule_and_never_consolidates_at_start(config: Config) -> None:
    """``engram serve``'s lifespan runs ``upkeep``: its first round starts the schedule
    (a large store is not archived at start-up); the rounds after it consolidate once the
    interval has passed."""
    clock = Clock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with Memory(":memory:", config=config.with_overrides(**SMALL), embedder=None) as mem:
        asked: list[datetime] = []
        mem.lifecycle.clock = lambda: asked.append(clock()) or clock()
        mem.add_many(_notes(8), namespace=ALICE)
        with serve_in_thread(create_app(mem, worker=False)) as url:
            assert httpx.get(f"{url}/health", timeout=10).status_code == 200
        # The server stopped, so its schedule thread ran its first round and ended.
        assert asked, "engram serve's lifespan did not run the lifecycle's upkeep"
        assert mem.store.memories.count(ALICE) == 8
        assert mem.lifecycle.status(namespace=ALICE)["due"] == {
            "consolidation": False,
            "retention": False,
        }
        clock.advance(days=1)  # the schedule the server started: daily consolidation
        done, swept = mem.lifecycle.upkeep()
        assert done is not None and swept is not None
        assert mem.store.memories.count(ALICE) <= 5
        assert mem.store.lifecycle.counts(ALICE)[ALICE] >= 3


# -- the CLI ---------------------------------------------------------------------------------
def run(home: Path, *args: str) -> Result:
    env = {
        "ENGRAM_EMBEDDER_NAME": "none",
        "ENGRAM_CONFIG": "",
        "ENGRAM_PIPELINE_ENABLED": "false",
        "ENGRAM_LIFECYCLE_MAX_MEMORIES_PER_AGENT": "5",
        "ENGRAM_LIFECYCLE_GROUP_SIZE": "3",
    }
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=env)


def test_cli_consolidate_status_restore_and_retention(tmp_path: Path) -> None:
    home = tmp_path / "home"
    config = Config.load(env={"ENGRAM_PIPELINE_ENABLED": "false"}, home=str(home))
    with Memory(config=config, embedder=None) as mem:
        originals = {r.id: r for r in mem.add_many(_notes(8), namespace="a").records}
    made = run(home, "lifecycle", "consolidate", "-n", "a", "--json")
    assert made.exit_code == 0, made.output
    result = json.loads(made.stdout)
    assert result["archived"] >= 3
    status = json.loads(run(home, "lifecycle", "status", "-n", "a", "--json").stdout)
    assert status["live"] <= 5 and status["sizes"]["memory_archive"] == result["archived"]
    assert len(status["archival_index"]) == result["archived"]
    summary = result["summaries"][0]
    restored = run(home, "lifecycle", "restore", summary, "-n", "a", "--json")
    assert restored.exit_code == 0, restored.output
    for record in json.loads(restored.stdout)["restored"]:
        assert record["content"] == originals[record["id"]].content
    rules = run(home, "lifecycle", "set-retention", "7", "--category", "episodic", "-n", "a")
    assert rules.exit_code == 0 and "7 days" in rules.stdout
    swept = run(home, "lifecycle", "retention", "--until-done", "--json")
    assert swept.exit_code == 0, swept.output
    assert json.loads(swept.stdout)["sweeps"][-1]["total"] == 0
    missing = run(home, "lifecycle", "restore", "nope", "-n", "a")
    assert missing.exit_code != 0 and "neither an archived memory" in missing.output
    usage = run(home, "lifecycle", "set-retention", "-n", "a")
    assert usage.exit_code != 0 and "--clear" in usage.output
    # Reopened, the store remembers it all.
    with Memory(config=config, embedder=None) as mem:
        assert mem.lifecycle.rules(namespace="a")["episodic"] == 7


# -- MCP -------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_mcp_lists_and_restores_in_its_own_namespace(config: Config) -> None:
    with Memory(":memory:", config=config.with_overrides(**BY_HAND), embedder=None) as mem:
        mem.add_many(_notes(8), namespace=ALICE)
        result = mem.lifecycle.consolidate(namespace=ALICE)
        summary = result.summaries[0]
        async with Client(create_mcp_server(mem, namespace="user:bob")) as bob:
            assert (await call(bob, "archived_memories"))["items"] == []
            missing = await bob.call_tool("restore_memory", {"memory_id": summary})
            assert missing.is_error
        async with Client(create_mcp_server(mem, namespace=ALICE)) as alice:
            listed = await call(alice, "archived_memories", summary_id=summary)
            items = listed["items"]
            assert isinstance(items, list) and items
            back = await call(alice, "restore_memory", memory_id=summary)
            restored = back["restored"]
            assert isinstance(restored, list)
            assert {r["id"] for r in restored} == {i["original_id"] for i in items}
        assert mem.lifecycle.archived(namespace=ALICE, summary_id=summary) == []

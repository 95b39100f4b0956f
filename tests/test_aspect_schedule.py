"""FEATURES G5: seed 004's aspect decay runs on its own (every N session ends, and after
each retention sweep of the lifecycle schedule) and from every surface (``engram graph
decay-aspects``, ``POST /v1/graph/aspects/decay``, the MCP ``decay_aspects`` tool);
session-end feedback confirms the memories that got FTS (keyword) hits in the session.
On both backends."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from mcp import Client

from conftest import KEYWORD_ONLY
from conftest import tool_call as call
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.client import EngramClient
from engram.mcp.server import create_mcp_server
from engram.sessions import feedback_counts
from test_aspects import JAN, filed, weights

STALE = JAN + timedelta(days=60)  # both of ``filed``'s aspects are stale by then


@pytest.fixture
def config(tmp_path: Any) -> Config:
    """Without the write-time linker (each test files its own attributes); decay every
    second session end."""
    loaded = Config.load(env={"ENGRAM_PIPELINE_LINKER": "false"}, home=str(tmp_path / "home"))
    return replace(loaded, graph=replace(loaded.graph, aspect_decay_sessions=2))


def test_aspects_decay_every_nth_session_end(mem: Memory) -> None:
    filed(mem)
    mem.sessions.clock = lambda: STALE
    mem.sessions.end("s1")
    assert weights(mem) == {"battery": 0.5, "career": 0.5}  # one session: not yet
    mem.sessions.end("s2")
    assert weights(mem) == {"battery": 0.45, "career": 0.45}  # the second: decay ran
    mem.sessions.end("s3", namespace="elsewhere")  # another namespace counts apart
    assert weights(mem) == {"battery": 0.45, "career": 0.45}


def test_no_decay_by_sessions_when_switched_off(mem: Memory) -> None:
    filed(mem)
    mem._core.config = replace(
        mem._core.config, graph=replace(mem._core.config.graph, aspect_decay_sessions=0)
    )
    mem.sessions.clock = lambda: STALE
    for key in ("a", "b", "c"):
        mem.sessions.end(key)
    assert weights(mem) == {"battery": 0.5, "career": 0.5}


def test_fts_hits_of_a_session_confirm_their_aspects_at_its_end(mem: Memory) -> None:
    battery, job = filed(mem)
    for _ in range(2):  # the battery memory matched the query's words twice
        hits = mem.recall("efoil battery charges", limit=5, abstain=False).hits
        assert any(h.memory.id == battery.id and h.breakdown.bm25 for h in hits)
        mem.sessions.injected("s1", [h for h in hits if h.memory.id == battery.id])
    mem.sessions.injected("s1", [job.id])  # an id alone says nothing about keywords
    mem.sessions.end("s1")
    # seed 004: weight += delta (0.05) x the session's FTS hits (2)
    assert weights(mem) == {"battery": 0.6, "career": 0.5}
    assert mem.graph.feedback_telemetry()["confirmations"] == 2


def test_feedback_counts_take_fts_hits_and_useful_memories() -> None:
    assert feedback_counts(["a", "b"], {"a": 3, "c": 1, "d": 0}) == {"a": 3, "b": 1, "c": 1}
    assert feedback_counts([], {}) == {}


def test_the_lifecycle_schedule_decays_after_each_sweep(mem: Memory) -> None:
    filed(mem)
    now = [STALE]
    mem.lifecycle.clock = lambda: now[0]
    assert mem.lifecycle.upkeep() == (None, None)  # starts the schedule
    assert weights(mem) == {"battery": 0.5, "career": 0.5}
    now[0] += timedelta(seconds=mem._core.config.lifecycle.retention_interval_s)
    _, swept = mem.lifecycle.upkeep()
    assert swept is not None
    assert weights(mem) == {"battery": 0.45, "career": 0.45}
    assert mem.lifecycle.aspects_decayed == 2


def test_cli_decays_aspects(config: Config, reopenable: str, tmp_path: Path) -> None:
    with Memory(reopenable, config=config, embedder=None) as mem:
        filed(mem)
    home = tmp_path / "cli-home"
    args = ["--home", str(home), "--db", reopenable, "graph", "decay-aspects"]
    result = CliRunner().invoke(
        cli, [*args, "--now", STALE.isoformat(), "--json"], env=KEYWORD_ONLY
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"decayed": 2}
    again = CliRunner().invoke(cli, [*args, "--now", STALE.isoformat()], env=KEYWORD_ONLY)
    assert again.exit_code == 0 and "0 aspects decayed" in again.output
    bad = CliRunner().invoke(cli, [*args, "--now", "soon"], env=KEYWORD_ONLY)
    assert bad.exit_code == 2 and "now" in bad.output
    with Memory(reopenable, config=config, embedder=None) as mem:
        assert weights(mem) == {"battery": 0.45, "career": 0.45}


def test_http_decays_the_callers_aspects_only(mem: Memory) -> None:
    filed(mem, user_id="alice")
    filed(mem, user_id="bob")
    alice = mem.keys.create("alice")[1]
    with serve_in_thread(create_app(mem, worker=False)) as url:
        headers = {"Authorization": f"Bearer {alice}"}
        with httpx.Client(base_url=url, timeout=10, headers=headers) as http:
            done = http.post("/v1/graph/aspects/decay", json={"now": STALE.isoformat()})
            bad = http.post("/v1/graph/aspects/decay", json={"now": "soon"})
        with EngramClient(url, alice, timeout=10) as client:  # the HTTP client's verb
            again = client.graph.decay_aspects(now=STALE)
    assert done.status_code == 200 and done.json() == {"decayed": 2}
    assert again.decayed == 0  # just stamped: not stale again yet
    assert bad.status_code in (400, 422) and "now" in bad.text
    assert weights(mem, user_id="alice") == {"battery": 0.45, "career": 0.45}
    assert weights(mem, user_id="bob") == {"battery": 0.5, "career": 0.5}


@pytest.mark.anyio
async def test_mcp_tool_decays_the_servers_namespace(mem: Memory) -> None:
    filed(mem, namespace="user:alice")
    async with Client(create_mcp_server(mem, namespace="user:alice")) as client:
        first = await call(client, "decay_aspects")
    # decay_aspects runs at the real now, years after JAN: both aspects are stale
    assert first == {"decayed": 2}
    assert weights(mem, namespace="user:alice") == {"battery": 0.45, "career": 0.45}

"""Maintenance through its surfaces: the HTTP routes over a real socket (admin-only
repairs, per-namespace dedup), ``engram maintenance`` run by a CLI runner and read back
from the store, and the schedule ``engram serve`` wires into its lifespan (FEATURES S10)."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from conftest import bearer_client as client
from conftest import bearer_clients as clients
from conftest import keyed_server
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.embed.base import BaseEmbedder, Vectors


class PairEmbedder(BaseEmbedder):
    """ "twin" texts get vectors at cosine 0.95 to "anchor" ones; the rest are apart."""

    name = "test-pair"
    dimension = 4

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        rows = []
        for text in texts:
            if "anchor" in text:
                rows.append([1.0, 0.0, 0.0, 0.0])
            elif "twin" in text:
                rows.append([0.95, math.sqrt(1 - 0.95**2), 0.0, 0.0])
            else:
                rows.append([0.0, 0.0, 1.0, 0.0])
        return np.asarray(rows, dtype=np.float32)


# -- HTTP ------------------------------------------------------------------------------------
@pytest.fixture
def server(config: Config) -> Iterator[tuple[str, dict[str, str], Memory]]:
    with (
        Memory(":memory:", config=config, embedder=PairEmbedder()) as memory,
        keyed_server(memory, worker=False, mcp=False) as (url, keys),
    ):
        yield url, keys, memory


def test_http_diagnostics_and_repairs_need_an_admin_key(
    server: tuple[str, dict[str, str], Memory],
) -> None:
    url, keys, memory = server
    memory.add("anchor: the ferry leaves at ten", user_id="alice")
    with client(url, keys["alice"]) as alice, client(url, keys["admin"]) as admin:
        for method, path, body in (
            ("GET", "/v1/maintenance/diagnostics", None),
            ("POST", "/v1/maintenance/run", {"execute": True}),
            ("GET", "/v1/maintenance/runs", None),
            ("GET", "/v1/maintenance/status", None),
            ("POST", "/v1/maintenance/resume", {}),
            ("POST", "/v1/maintenance/track", None),
        ):
            r = alice.request(method, path, json=body)
            assert r.status_code == 403 and r.json()["error"] == "forbidden", (path, r.text)
        report = admin.get("/v1/maintenance/diagnostics").json()
        assert report["score"] == 1.0 and report["recommendations"] == []
        run = admin.post("/v1/maintenance/run", json={"execute": True}).json()
        assert run["mode"] == "execute" and run["kind"] == "cycle"
        observed = admin.post("/v1/maintenance/run", json={}).json()
        assert observed["mode"] == "observe"
        runs = admin.get("/v1/maintenance/runs", params={"kind": "cycle"}).json()["items"]
        assert [r["id"] for r in runs] == [observed["id"], run["id"]]
        assert admin.get("/v1/maintenance/status").json()["last_run"]["id"] == observed["id"]
        assert admin.post("/v1/maintenance/track").json()["embedded"] == {}
        assert admin.post("/v1/maintenance/resume", json={}).json() == {"reset": 0}
        bad = admin.post("/v1/maintenance/resume", json={"action": "defragment"})
        assert bad.status_code == 422
        assert admin.post("/v1/maintenance/run", json={"execute": "yes"}).status_code == 422


def test_http_dedup_observes_ones_own_namespace_and_merging_needs_admin(
    server: tuple[str, dict[str, str], Memory],
) -> None:
    url, keys, memory = server
    kept = memory.add("anchor: the ferry leaves at ten", user_id="alice")
    twin = memory.add("twin: ferry departs 10am", user_id="alice")
    memory.add("anchor: bob's own note", user_id="bob")
    with clients(url, keys, "alice", "bob", "admin") as (alice, bob, admin):
        seen = alice.post("/v1/maintenance/dedup", json={}).json()
        assert seen["namespace"] == "user:alice" and seen["threshold"] == 0.92
        assert seen["groups"] == [{"kept": kept.id, "duplicates": {twin.id: pytest.approx(0.95)}}]
        assert bob.post("/v1/maintenance/dedup", json={}).json()["groups"] == []
        assert alice.post("/v1/maintenance/dedup", json={"execute": True}).status_code == 403
        assert (
            bob.post("/v1/maintenance/dedup", params={"user_id": "alice"}, json={}).status_code
            == 403
        )
        assert memory.get(twin.id, user_id="alice").superseded_by is None
        merged = admin.post(
            "/v1/maintenance/dedup", params={"user_id": "alice"}, json={"execute": True}
        ).json()
        assert merged["merged"] == 1
        assert memory.get(twin.id, user_id="alice").superseded_by == kept.id
        assert alice.post("/v1/maintenance/dedup", json={"threshold": 2}).status_code == 422


# -- CLI -------------------------------------------------------------------------------------
def run(home: Path, *args: str) -> Result:
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": "", "ENGRAM_PIPELINE_ENABLED": "0"}
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=env)


def _home_with_store(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert run(home, "add", "a note about tides").exit_code == 0
    return home


def test_cli_diagnose_run_status_runs_and_resume(tmp_path: Path) -> None:
    home = _home_with_store(tmp_path)
    diagnosed = run(home, "maintenance", "diagnose", "--json")
    assert diagnosed.exit_code == 0, diagnosed.output
    assert json.loads(diagnosed.output)["score"] == 1.0
    assert "health score 1.000 (healthy)" in run(home, "maintenance", "diagnose").output
    observed = json.loads(run(home, "maintenance", "run", "--json").output)
    assert observed["mode"] == "observe"
    executed = json.loads(run(home, "maintenance", "run", "--execute", "--json").output)
    assert executed["mode"] == "execute"
    # each command is a fresh process's worth of state: the runs were stored
    listed = json.loads(run(home, "maintenance", "runs", "--json").output)["items"]
    assert [r["id"] for r in listed] == [executed["id"], observed["id"]]
    assert "execute" in run(home, "maintenance", "runs").output
    status = json.loads(run(home, "maintenance", "status", "--json").output)
    assert status["mode"] == "execute" and status["last_run"]["id"] == executed["id"]
    assert "maintenance: enabled" in run(home, "maintenance", "status").output
    assert json.loads(run(home, "maintenance", "resume", "--json").output) == {"reset": 0}
    assert run(home, "maintenance", "resume", "defragment").exit_code == 2
    config = Config.load(env={"ENGRAM_CONFIG": ""}, home=str(home))
    with Memory(config=config, embedder=None) as mem:
        assert len(mem.maintenance.runs()) == 2


def test_cli_dedup_and_track_need_an_embedder(tmp_path: Path) -> None:
    home = _home_with_store(tmp_path)
    result = run(home, "maintenance", "dedup", "--json")
    assert result.exit_code != 0
    assert "embedder" in result.output
    tracked = json.loads(run(home, "maintenance", "track", "--json").output)
    assert tracked["skipped"] == "no embedder"


# -- the schedule in engram serve ---------------------------------------------------------
def test_serve_runs_the_maintenance_schedule_in_its_lifespan(config: Config) -> None:
    """The lifespan runs the maintenance schedule (``engram.serving``) in a thread while
    it serves and stops it at shutdown (the rounds themselves are tested with a clock)."""
    with Memory(":memory:", config=config, embedder=None) as memory:
        with serve_in_thread(create_app(memory, worker=False)):
            running = [t for t in threading.enumerate() if t.name == "engram-maintenance"]
            assert len(running) == 1 and running[0].is_alive()
        running[0].join(timeout=30)
        assert not running[0].is_alive()

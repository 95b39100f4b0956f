"""The job queue through its surfaces: ``engram jobs``, ``engram worker`` and the HTTP
routes (``/v1/jobs``, ``/api/pipeline/status``), each checked against the store after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from conftest import user_keys
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.core import Core
from engram.jobs import Job
from engram.pipeline.handlers import Handler

KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": "", "ENGRAM_PIPELINE_ENABLED": "0"}


def _config(home: Path, **overrides: Any) -> Config:
    return Config.load(
        env={}, home=str(home), embedder={"name": "none"}, pipeline={"enabled": False}, **overrides
    )


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=KEYWORD_ONLY)


def _dead_and_pending(mem: Memory) -> tuple[Job, Job]:
    jobs = mem.store.jobs
    dead = jobs.enqueue("extract", "user:bob", memory_id="b1", max_attempts=1)
    jobs.lease(["extract"], now=dead.created_at)
    dead = jobs.fail(dead.id, "LlmError: down", now=dead.created_at, retry_at=dead.created_at)
    pending = jobs.enqueue("hints", "user:alice", memory_id="a1")
    return dead, pending


# -- CLI -----------------------------------------------------------------------------------


def test_cli_lists_the_dead_retries_one_and_reports_status(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Memory(config=_config(home)) as mem:
        dead, pending = _dead_and_pending(mem)
    listed = run(home, "jobs", "list", "--json")
    assert listed.exit_code == 0, listed.output
    page = json.loads(listed.output)
    assert page.keys() == {"items", "total", "limit", "offset"}
    assert [j["id"] for j in page["items"]] == [pending.id, dead.id] and page["total"] == 2
    mine = json.loads(run(home, "jobs", "list", "--user", "alice", "--json").output)
    assert [j["id"] for j in mine["items"]] == [pending.id]
    dead_list = json.loads(run(home, "jobs", "dead", "--json").output)
    assert [(j["id"], j["error"]) for j in dead_list["items"]] == [(dead.id, "LlmError: down")]
    table = run(home, "jobs", "dead")
    assert table.exit_code == 0 and "LlmError" in table.output and "dead" in table.output
    status = json.loads(run(home, "jobs", "status", "--json").output)
    assert status["counts"]["dead"] == 1 and status["last_error"]["job_id"] == dead.id
    assert "last failure: job" in run(home, "jobs", "status").output
    assert run(home, "jobs", "retry", str(dead.id), "--user", "alice").exit_code == 3
    retried = run(home, "jobs", "retry", str(dead.id), "--json")
    assert retried.exit_code == 0, retried.output
    assert json.loads(retried.output)["status"] == "pending"
    with Memory(config=_config(home)) as mem:
        after = mem.jobs.get(dead.id)
    assert (after.status, after.attempts) == ("pending", 0)
    assert "no dead jobs" in run(home, "jobs", "dead").output
    assert run(home, "jobs", "retry", "999", "--json").exit_code == 3


def test_cli_worker_once_runs_what_is_pending(
    tmp_path: Path, use_handler: Callable[[str, Handler], None]
) -> None:
    home = tmp_path / "home"

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        return {"memory": job.memory_id}

    use_handler("extract", extract)
    with Memory(config=_config(home)) as mem:
        for i in range(3):
            mem.store.jobs.enqueue("extract", "default", memory_id=f"m{i}")
    result = run(home, "worker", "--once", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["processed"] == 3 and report["counts"]["completed"] == 3
    with Memory(config=_config(home)) as mem:
        assert {j.result["memory"] for j in mem.jobs.list() if j.result} == {"m0", "m1", "m2"}
    assert "ran 0 jobs" in run(home, "worker", "--once").output


def _pythonpath() -> dict[str, str]:
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}


def test_the_worker_command_runs_until_sigterm(tmp_path: Path) -> None:
    home = tmp_path / "home"
    Memory(config=_config(home)).close()  # the store must exist
    engram = Path(sys.executable).parent / "engram"
    proc = subprocess.Popen(
        [str(engram), "--home", str(home), "worker"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # PYTHONPATH carried: the checkout under test, not the one the venv installed.
        env={"PATH": "/usr/bin:/bin", **KEYWORD_ONLY, **_pythonpath()},
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert "worker running on" in first, first + proc.stderr.read()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "worker stopped: 0 completed, 0 failed" in out


# -- HTTP ----------------------------------------------------------------------------------


@dataclass
class World:
    url: str
    memory: Memory
    keys: dict[str, str]
    dead: Job
    pending: Job


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with Memory(":memory:", config=_config(tmp_path / "home")) as memory:
        keys = user_keys(memory)
        dead, pending = _dead_and_pending(memory)
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield World(url, memory, keys, dead, pending)


def client(world: World, who: str) -> httpx.Client:
    return httpx.Client(
        base_url=world.url, timeout=10, headers={"Authorization": f"Bearer {world.keys[who]}"}
    )


def test_http_jobs_are_scoped_to_the_callers_namespaces(world: World) -> None:
    bob_job = world.dead.id
    with client(world, "alice") as alice:
        own = alice.get("/v1/jobs").json()
        assert [j["id"] for j in own["items"]] == [world.pending.id] and own["total"] == 1
        assert alice.get("/v1/jobs", params={"user_id": "bob"}).status_code == 403
        assert alice.get(f"/v1/jobs/{bob_job}").status_code == 404
        assert alice.post(f"/v1/jobs/{bob_job}/retry").status_code == 404
        status = alice.get("/api/pipeline/status").json()
        assert status["namespace"] == "user:alice" and status["counts"]["pending"] == 1
        assert status["last_error"] is None and status["worker"] == {"running": False}
    assert world.memory.jobs.get(bob_job).status == "dead"
    with client(world, "bob") as bob:
        assert bob.get(f"/v1/jobs/{bob_job}").json()["error"] == "LlmError: down"
        dead = bob.get("/v1/jobs", params={"status": "dead"}).json()
        assert [j["id"] for j in dead["items"]] == [bob_job]
        retried = bob.post(f"/v1/jobs/{bob_job}/retry")
        assert retried.status_code == 200 and retried.json()["status"] == "pending"
    assert world.memory.jobs.get(bob_job).attempts == 0
    with client(world, "admin") as admin:
        everything = admin.get("/v1/jobs").json()
        assert everything["total"] == 2 and everything["limit"] == 50
        assert admin.get("/v1/jobs", params={"kind": "hints"}).json()["total"] == 1
        assert admin.get(f"/v1/jobs/{world.pending.id}").status_code == 200
        report = admin.get("/api/pipeline/status").json()
        assert report["namespace"] is None and report["last_error"]["job_id"] == bob_job
        assert report["kinds"]["extract"]["pending"] == 1
        assert admin.get("/v1/jobs", params={"status": "exploded"}).status_code == 422
    assert httpx.get(f"{world.url}/v1/jobs", timeout=10).status_code == 401


def test_serve_runs_the_worker_in_process(
    tmp_path: Path, use_handler: Callable[[str, Handler], None]
) -> None:
    ran = threading.Event()

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        ran.set()
        return {"served": True}

    use_handler("extract", extract)
    config = _config(tmp_path / "home", worker={"poll_ms": 100})
    with Memory(tmp_path / "served.db", config=config) as memory:
        with serve_in_thread(create_app(memory, auth=False, mcp=False)) as url:
            assert memory.jobs.running
            job = memory.store.jobs.enqueue("extract", "default", memory_id="m1")
            assert ran.wait(timeout=10)
            with httpx.Client(base_url=url, timeout=10) as http:
                assert http.get("/api/pipeline/status").json()["worker"]["running"] is True
            memory.jobs.stop()  # finishes the job it runs, then stops
            assert memory.jobs.get(job.id).result == {"served": True}
        assert not memory.jobs.running

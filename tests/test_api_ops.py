"""Server operations over a real socket: readiness, metrics, request ids, JSON logs and
per-key rate limits (docs/operations.md)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from conftest import Api, FailingEmbedder, HashEmbedder
from engram import AsyncMemory, Config, Memory
from engram.api import create_app
from engram.api.logs import TextFormatter, log_config
from engram.api.metrics import CONTENT_TYPE
from engram.api.ratelimit import RateLimiter
from engram.api.server import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"


@dataclass
class Served(Api):
    """``Api`` with the id of alice's key."""

    alice_id: str = ""


@pytest.fixture
def served(mem: Memory) -> Iterator[Served]:
    """The API over ``mem`` (both backends), without the job worker so jobs stay queued."""
    key, alice = mem.keys.create("alice")
    _, admin = mem.keys.create("root", admin=True)
    with serve_in_thread(create_app(mem, mcp=False, worker=False)) as url:
        yield Served(url, mem, alice, admin, key.id)


# -- exposition format -----------------------------------------------------------------
SAMPLE = re.compile(
    r"^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)"
    r'(\{(?P<labels>(?:[^"}]|"(?:[^"\\]|\\.)*")*)\})?'
    r" (?P<value>[-+0-9.eE]+|\+Inf)$"
)
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a Prometheus text exposition; fails on a malformed line."""
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float] = {}
    typed: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            name = line.split()[2]
            assert name not in typed, f"{name} typed twice"
            typed.add(name)
            continue
        if line.startswith("# HELP "):
            continue
        match = SAMPLE.match(line)
        assert match, f"not an exposition line: {line!r}"
        labels = frozenset(LABEL.findall(match["labels"] or ""))
        samples[(match["name"], labels)] = float(match["value"])
    return samples


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples[(name, frozenset(labels.items()))]


# -- readiness -------------------------------------------------------------------------
def test_ready_checks_the_store_and_the_embedder(served: Served) -> None:
    with served.client() as anyone:
        for path in ("/ready", "/health/ready"):
            answer = anyone.get(path)
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert body["status"] == "ready"
            assert body["checks"] == {"store": "ok", "embedder": "ok"}
            assert body["reasons"] == []
        served.memory.close()  # the store is gone: alive, but not ready
        assert anyone.get("/health").status_code == 200
        answer = anyone.get("/ready")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "not_ready" and body["error"] == "not_ready"
    assert body["reasons"][0].startswith("store: ") and "closed" in body["reasons"][0]
    assert "closed" in body["detail"]


def test_ready_is_503_when_the_embedder_fails(config: Config) -> None:
    with (
        Memory(":memory:", config=config, embedder=FailingEmbedder()) as memory,
        serve_in_thread(create_app(memory, mcp=False, worker=False)) as url,
    ):
        answer = httpx.get(f"{url}/ready", timeout=10)
    assert answer.status_code == 503
    body = answer.json()
    assert body["checks"]["store"] == "ok"
    assert body["reasons"] == ["embedder test-failing: model server unreachable"]


def test_ready_without_an_embedder_is_keyword_recall(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as memory:
        readiness = memory.health.ready()
    assert readiness.ready and readiness.checks["embedder"].startswith("none configured")


def test_health_part_on_each_backend_and_async(mem: Memory) -> None:
    mem.add("Alice likes green tea", user_id="alice")
    mem.add("Bob rides a bike", user_id="bob")
    mem.add("Bob plays chess", user_id="bob")
    snap = mem.health.snapshot()
    assert snap.memories == {"user:alice": 1, "user:bob": 2}
    assert set(snap.jobs) >= {"pending", "leased", "completed", "dead"}
    assert mem.health.ready(embedder=False).checks["embedder"] == "not checked"

    async def both() -> tuple[bool, dict[str, int]]:
        amem = AsyncMemory(":memory:", config=mem.config, embedder=HashEmbedder())
        try:
            await amem.add("Carol sings", user_id="carol")
            ready = await amem.health.ready()
            return ready.ready, (await amem.health.snapshot()).memories
        finally:
            await amem.close()

    ready, counts = asyncio.run(both())
    assert ready and counts.get("user:carol") == 1


# -- metrics ---------------------------------------------------------------------------
def test_metrics_need_an_admin_key(served: Served) -> None:
    with served.client() as anyone, served.client(served.alice) as alice:
        assert anyone.get("/metrics").status_code == 401
        denied = alice.get("/metrics")
    assert denied.status_code == 403 and denied.json()["error"] == "forbidden"


def test_metrics_count_requests_recall_stages_memories_and_jobs(served: Served) -> None:
    with served.client(served.alice) as alice, served.client(served.admin) as admin:
        created = alice.post("/v1/memories", json={"content": "Deploys go through ops/deploy.sh"})
        alice.post("/v1/memories", json={"content": "Alice likes green tea"})
        mid = created.json()["id"]
        assert alice.get(f"/v1/memories/{mid}").status_code == 200
        assert alice.get("/v1/memories/0123456789abcdef").status_code == 404
        assert alice.post("/v1/recall", json={"query": "how do deploys work"}).status_code == 200
        alice.get("/no/such/route")
        answer = admin.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == CONTENT_TYPE
    samples = parse(answer.text)
    route = "/v1/memories/{memory_id}"
    requests = "engram_http_requests_total"
    assert value(samples, requests, method="GET", route=route, status="200") == 1
    assert value(samples, requests, method="GET", route=route, status="404") == 1
    assert value(samples, requests, method="POST", route="/v1/memories", status="201") == 2
    assert value(samples, requests, method="GET", route="unmatched", status="404") == 1
    assert not any(mid in name or any(mid in v for _, v in labels) for name, labels in samples)
    # The latency histogram: cumulative buckets ending in +Inf == _count.
    hist = "engram_http_request_duration_seconds"
    labels = {"method": "POST", "route": "/v1/memories", "status": "201"}
    buckets = sorted(
        (float("inf") if dict(lab)["le"] == "+Inf" else float(dict(lab)["le"]), v)
        for (name, lab), v in samples.items()
        if name == f"{hist}_bucket" and {k: w for k, w in lab if k != "le"} == labels
    )
    counts = [v for _, v in buckets]
    assert counts == sorted(counts) and counts[-1] == 2
    assert value(samples, f"{hist}_count", **labels) == 2
    assert value(samples, f"{hist}_sum", **labels) > 0
    # Recall's own stages, from the recall the request ran.
    assert value(samples, "engram_recall_stage_duration_seconds_count", stage="total") == 1
    stages = {dict(lab)["stage"] for name, lab in samples if name.startswith("engram_recall")}
    assert len(stages) > 1
    # The store's gauges: memories per namespace, the job queue (no worker runs here).
    assert value(samples, "engram_memories", namespace="user:alice") == 2
    pending = served.memory.jobs.counts()["pending"]
    assert pending > 0
    assert value(samples, "engram_job_queue_depth") == pending
    assert value(samples, "engram_jobs", status="pending") == pending
    assert value(samples, "engram_store_up") == 1
    assert value(samples, "engram_http_requests_in_flight") == 1  # this scrape


def test_metrics_public_setting_opens_them(config: Config) -> None:
    public = config.with_overrides(api={"metrics_public": True})
    with (
        Memory(":memory:", config=public, embedder=HashEmbedder()) as memory,
        serve_in_thread(create_app(memory, mcp=False, worker=False)) as url,
    ):
        answer = httpx.get(f"{url}/metrics", timeout=10)
    assert answer.status_code == 200
    assert value(parse(answer.text), "engram_store_up") == 1


# -- request ids -----------------------------------------------------------------------
def _boom() -> None:
    raise RuntimeError("a bug")


def test_request_ids_are_echoed_validated_and_on_every_error(config: Config) -> None:
    small = config.with_overrides(api={"max_body_bytes": 2048})
    with Memory(":memory:", config=small, embedder=HashEmbedder()) as memory:
        app = create_app(memory, mcp=False, worker=False)
        app.add_api_route("/boom", _boom)
        with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=10) as client:
            made = client.get("/health").headers["x-request-id"]
            assert re.fullmatch(r"[0-9a-f]{32}", made)
            assert client.get("/health").headers["x-request-id"] != made
            mine = {"X-Request-ID": "trace-1234:abc/DEF=="}
            assert (
                client.get("/health", headers=mine).headers["x-request-id"] == mine["X-Request-ID"]
            )
            for bad in ("x" * 129, "has space", "semi;colon", "<script>"):
                echoed = client.get("/health", headers={"X-Request-ID": bad}).headers[
                    "x-request-id"
                ]
                assert re.fullmatch(r"[0-9a-f]{32}", echoed), bad
            errors = {
                401: client.get("/v1/memories", headers=mine),
                404: client.get("/nope", headers=mine),
                413: client.post("/v1/memories", content=b"x" * 4096, headers=mine),
                422: client.post(
                    "/v1/memories",
                    content=b"{",
                    headers={**mine, "Authorization": "Bearer " + memory.keys.create("a")[1]},
                ),
            }
            crashed = client.get("/boom", headers=mine)
    for status, answer in errors.items():
        assert answer.status_code == status, answer.text
        assert answer.headers["x-request-id"] == mine["X-Request-ID"], status
        assert set(answer.json()) >= {"error", "detail"}
    assert crashed.status_code == 500
    assert crashed.headers["x-request-id"] == mine["X-Request-ID"]
    assert crashed.json() == {
        "error": "internal_error",
        "detail": f"internal server error; see the server log for request {mine['X-Request-ID']}",
    }


# -- logs ------------------------------------------------------------------------------
def test_json_access_lines_name_the_request_never_the_key_or_content(
    served: Served, access_lines: io.StringIO
) -> None:
    secret = "The launch code is 0000"
    with served.client(served.alice) as alice:
        alice.post("/v1/memories", json={"content": secret}, headers={"X-Request-ID": "req-42"})
        alice.get("/v1/memories", params={"query": secret})
        alice.get("/v1/memories", headers={"Authorization": "Bearer engram_wrong"})

    # The server writes a request's access line before the last byte of its response
    # (api/observe.py), so the three lines are there, in order, when the client has its
    # third answer: no waiting (issue 26 item 16).
    lines = [json.loads(line) for line in access_lines.getvalue().splitlines()]
    access = [line for line in lines if line["logger"] == "engram.access"]
    assert len(access) == 3
    first = access[0]
    assert set(first) >= {
        "time",
        "level",
        "logger",
        "message",
        "request_id",
        "method",
        "path",
        "status",
        "duration_ms",
        "route",
        "key_id",
        "namespace",
    }
    assert first["request_id"] == "req-42" and first["level"] == "info"
    assert (first["method"], first["path"], first["status"]) == ("POST", "/v1/memories", 201)
    assert first["key_id"] == served.alice_id and first["namespace"] == "user:alice"
    assert first["duration_ms"] > 0 and first["time"].endswith("+00:00")
    assert access[2]["status"] == 401 and access[2]["key_id"] is None
    raw = access_lines.getvalue()
    assert secret not in raw and "launch" not in raw
    assert served.alice not in raw and "engram_wrong" not in raw


def test_text_lines_carry_the_request_id() -> None:
    record = logging.LogRecord("engram.api", logging.WARNING, __file__, 1, "hi %s", ("x",), None)
    record.request_id = "abc"
    assert TextFormatter().format(record).endswith("engram.api [abc] hi x")
    config = log_config("json", "debug")
    assert config["loggers"]["engram"]["level"] == "DEBUG"
    with pytest.raises(ValueError, match="text, json"):
        log_config("xml")


def test_engram_serve_log_format_json_writes_only_json_lines(tmp_path: Path) -> None:
    from pgserver import free_port  # a free loopback port

    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")},
        "ENGRAM_HOME": str(tmp_path / "home"),
        "ENGRAM_EMBEDDER_NAME": "none",
        "ENGRAM_API_PORT": str(port),
    }
    proc = subprocess.Popen(
        [str(BIN / "engram"), "serve", "--log-format", "json", "--no-mcp"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_ready(f"http://127.0.0.1:{port}", proc)
        httpx.get(f"http://127.0.0.1:{port}/health", headers={"X-Request-ID": "cli-1"})
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    # uvicorn shuts down cleanly, then re-raises the signal it caught.
    assert proc.returncode in (0, -signal.SIGTERM), err
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert any(line["logger"].startswith("uvicorn") for line in lines)
    [health] = [line for line in lines if line.get("request_id") == "cli-1"]
    assert health["logger"] == "engram.access" and health["status"] == 200
    assert "Created the first admin key" in out
    assert lines[-1]["message"].startswith("Finished server process")


def _wait_ready(url: str, proc: subprocess.Popen[str], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.communicate()[1]}")
        try:
            if httpx.get(f"{url}/ready", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server was not ready in time")


# -- rate limits -----------------------------------------------------------------------
class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limit_per_key_with_retry_after(config: Config) -> None:
    limited = config.with_overrides(api={"rate_limit_per_minute": 2, "metrics_public": True})
    clock = FakeClock()
    with Memory(":memory:", config=limited, embedder=HashEmbedder()) as memory:
        _, alice = memory.keys.create("alice")
        _, bob = memory.keys.create("bob")
        app: FastAPI = create_app(memory, mcp=False, worker=False, clock=clock)
        with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=10) as client:
            as_alice = {"Authorization": f"Bearer {alice}", "X-Request-ID": "r-1"}
            assert client.get("/v1/memories", headers=as_alice).status_code == 200
            assert client.get("/v1/memories", headers=as_alice).status_code == 200
            refused = client.get("/v1/memories", headers=as_alice)
            bob_ok = client.get("/v1/memories", headers={"Authorization": f"Bearer {bob}"})
            probes = [client.get(p).status_code for p in ("/health", "/ready", "/metrics")] * 2
            clock.now += 29.0
            still = client.get("/v1/memories", headers=as_alice)
            clock.now += 1.0  # 2 a minute: one token every 30 s
            again = client.get("/v1/memories", headers=as_alice)
            scrape = client.get("/metrics").text
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "30"
    assert refused.headers["x-request-id"] == "r-1"
    assert refused.json()["error"] == "rate_limited"
    assert "api.rate_limit_per_minute" in refused.json()["detail"]
    assert bob_ok.status_code == 200
    assert probes == [200] * 6
    assert still.status_code == 429 and still.headers["retry-after"] == "1"
    assert again.status_code == 200
    samples = parse(scrape)
    assert value(samples, "engram_rate_limited_total") == 2
    assert (
        value(
            samples, "engram_http_requests_total", method="GET", route="/v1/memories", status="429"
        )
        == 2
    )


def test_token_bucket_burst_and_refill() -> None:
    clock = FakeClock()
    limiter = RateLimiter(60, burst=5, clock=clock)
    assert [limiter.take("k") for _ in range(5)] == [0.0] * 5
    assert limiter.take("k") == pytest.approx(1.0)
    assert limiter.take("other") == 0.0
    clock.now += 2.5
    assert [limiter.take("k") for _ in range(2)] == [0.0, 0.0]
    assert limiter.take("k") == pytest.approx(0.5)
    clock.now += 3600
    assert [limiter.take("k") for _ in range(6)][-1] == pytest.approx(1.0)  # capped at 5
    with pytest.raises(ValueError, match="positive"):
        RateLimiter(0)


def test_rate_limits_are_off_by_default(config: Config) -> None:
    assert config.api.rate_limit_per_minute == 0
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        _, key = memory.keys.create("alice")
        with (
            serve_in_thread(create_app(memory, mcp=False, worker=False)) as url,
            httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}) as client,
        ):
            statuses = {client.get("/v1/memories").status_code for _ in range(30)}
    assert statuses == {200}


def test_settings_come_from_the_environment() -> None:
    loaded = Config.load(
        env={
            "ENGRAM_API_RATE_LIMIT_PER_MINUTE": "120",
            "ENGRAM_API_RATE_LIMIT_BURST": "20",
            "ENGRAM_API_METRICS_PUBLIC": "true",
            "ENGRAM_API_LOG_FORMAT": "json",
        }
    )
    api = loaded.api
    assert (api.rate_limit_per_minute, api.rate_limit_burst) == (120, 20)
    assert api.metrics_public and api.log_format == "json"
    with pytest.raises(Exception, match="api.log_format must be one of text, json"):
        Config.load(env={"ENGRAM_API_LOG_FORMAT": "xml"})


# -- docs ------------------------------------------------------------------------------
DOC = ROOT / "docs" / "operations.md"


def test_the_operations_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    [code] = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    exec(compile(code, str(DOC), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        "{'store': 'ok', 'embedder': 'none configured (keyword recall)'}",
        "{'user:alice': 1}",
    ]


def test_every_metric_is_documented(served: Served) -> None:
    with served.client(served.admin) as admin:
        admin.post("/v1/recall", json={"query": "anything"})
        text = admin.get("/metrics").text
    served_names = set(re.findall(r"^# TYPE (\w+) ", text, re.M))
    documented = set(re.findall(r"^\| `(engram_\w+)` \|", DOC.read_text(encoding="utf-8"), re.M))
    assert served_names == documented

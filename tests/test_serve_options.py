"""Server options a team deploys with (issue 14): history names the acting API key,
CORS is configurable, ``/mcp`` is stateless (clients survive a restart) and takes an
allowed-hosts list behind a proxy, and the PostgreSQL pool checks its connections so the
first call after a database restart succeeds."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from conftest import HashEmbedder, bearer_client
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _memory(config: Config, **api: Any) -> Memory:
    return Memory(":memory:", config=config.with_overrides(api=api), embedder=HashEmbedder())


def test_history_names_the_api_key_that_acted(config: Config) -> None:
    with _memory(config) as memory:
        key, secret = memory.keys.create("alice")
        with (
            serve_in_thread(create_app(memory, worker=False)) as url,
            bearer_client(url, secret) as alice,
        ):
            made = alice.post("/v1/memories", json={"content": "The VPN moved to port 443"})
            memory_id = made.json()["id"]
            alice.patch(f"/v1/memories/{memory_id}", json={"content": "The VPN uses port 8443"})
            alice.delete(f"/v1/memories/{memory_id}")
        events = memory.history(memory_id, user_id="alice")
        assert [(e.event, e.actor) for e in events] == [
            ("create", f"key:{key.id}"),
            ("update", f"key:{key.id}"),
            ("delete", f"key:{key.id}"),
        ]
        # The library itself names no actor unless a surface set one.
        assert memory.add("written in-process", user_id="alice").id
        direct = memory.get_all(user_id="alice")[0]
        assert memory.history(direct.id, user_id="alice")[0].actor is None


@pytest.mark.parametrize(
    ("setting", "origin", "allowed"),
    [
        ("https://app.example.com", "https://app.example.com", True),
        ("https://app.example.com", "https://evil.example.com", False),
        ("", "https://app.example.com", False),
    ],
)
def test_cors_is_configurable(config: Config, setting: str, origin: str, allowed: bool) -> None:
    with (
        _memory(config, cors_origins=setting) as memory,
        serve_in_thread(create_app(memory, worker=False, mcp=False)) as url,
    ):
        preflight = httpx.options(
            f"{url}/v1/search",
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization,content-type",
            },
        )
        granted = preflight.headers.get("access-control-allow-origin")
        assert (granted == origin) is allowed
        if allowed:
            assert "authorization" in preflight.headers["access-control-allow-headers"].lower()


@pytest.fixture
def mcp_server(config: Config) -> Iterator[tuple[str, str, Memory]]:
    with _memory(config, mcp_allowed_hosts="memory.example.com") as memory:
        secret = memory.keys.create("alice")[1]
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield url, secret, memory


def test_mcp_accepts_only_the_allowed_hosts(mcp_server: tuple[str, str, Memory]) -> None:
    url, secret, _ = mcp_server
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {secret}"}
    good = httpx.post(
        f"{url}/mcp", json=INITIALIZE, headers={**headers, "Host": "memory.example.com"}
    )
    assert good.status_code == 200, good.text
    bad = httpx.post(f"{url}/mcp", json=INITIALIZE, headers={**headers, "Host": "evil.example.com"})
    assert bad.status_code in (400, 403, 421)


def test_mcp_clients_survive_a_server_restart(config: Config) -> None:
    """Stateless: a tools call to a new server process needs no session from the old."""
    with _memory(config) as memory:
        secret = memory.keys.create("alice")[1]
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {secret}"}
        with serve_in_thread(create_app(memory, worker=False)) as first:
            started = httpx.post(f"{first}/mcp", json=INITIALIZE, headers=headers)
            assert started.status_code == 200
            assert "mcp-session-id" not in started.headers  # nothing to lose on restart
        with serve_in_thread(create_app(memory, worker=False)) as second:
            listed = httpx.post(f"{second}/mcp", json=LIST_TOOLS, headers=headers)
            assert listed.status_code == 200, listed.text
            assert "search_memory" in listed.text


def test_the_pg_pool_recovers_after_its_connections_die(pg_url: str, config: Config) -> None:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as memory:
        memory.add("before the restart")
        # Kill every server process of this database but ours, as a restart would.
        with psycopg.connect(pg_url, autocommit=True) as admin:
            killed = [
                pid
                for (pid,) in admin.execute(
                    "SELECT pid FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).fetchall()
            ]
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [killed]
            )
            # pg_terminate_backend only signals: wait until the backends are gone, as
            # after a restart, so their connections' sockets hold the shutdown notice
            # (else the pool's quiet-socket check can hand one out just before it lands).
            deadline = time.monotonic() + 10
            while admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s::int[])", [killed]
            ).fetchone() != (0,):
                assert time.monotonic() < deadline, "the terminated backends did not exit"
                time.sleep(0.02)
        # The pool hands out checked connections: the first call after succeeds.
        assert [r.content for r in memory.get_all()] == ["before the restart"]
        memory.add("after the restart")
        assert len(memory.get_all()) == 2


def test_the_access_log_names_the_mcp_tool_never_the_key_or_content(
    config: Config, access_lines: io.StringIO
) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": "the secret launch date"}},
    }
    buffer = access_lines
    with _memory(config) as memory:
        key, secret = memory.keys.create("alice")
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {secret}"}
        with serve_in_thread(create_app(memory, worker=False)) as url:
            answered = httpx.post(f"{url}/mcp", json=call, headers=headers)
            assert answered.status_code == 200, answered.text
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    [line] = [x for x in lines if x["logger"] == "engram.access" and x["path"] == "/mcp"]
    assert line["tool"] == "search_memory" and line["key_id"] == key.id
    assert line["namespace"] == "user:alice" and "search_memory" in line["message"]
    assert secret not in buffer.getvalue() and "secret launch" not in buffer.getvalue()

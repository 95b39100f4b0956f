"""API keys bound to an agent of a user (keys38; round twenty-eight's crew, #2).

A crew of three agents of user dana, one key each (``mem.keys.create("dana",
agent="coder")``). The coder's key walks every route of the cross-user walk
(tests/test_api_isolation.py) against the planner's private namespaces
``user:dana/planner[/...]`` and with ``agent_id="planner"``: every attempt is 403 or
404 and the planner's data is unchanged. Then what pass38 reproduced in the team
namespace (writing as the planner, retracting its publication, reading another agent's
session, ``/mcp`` in the planner's namespace), what an agent's key still may do (team
reads, its own namespace, the shared space), and the key row on both backends.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.errors import InvalidInputError, PermissionDeniedError
from engram.keys import Principal
from engram.migrate_store import migrate_store
from engram.store import open_store
from test_api_isolation import Attempt, Owner, Planted, by_id_attempts, plant, scoped_attempts
from test_api_isolation import snapshot as owner_snapshot
from test_chat_proxy import _serve
from test_keys import reopen, run

TEAM = "user:dana"
SHARED = "user:dana/shared"
PLANNER = Owner(
    "user:dana/planner",
    "user:dana/planner/project",
    {"namespace": "user:dana/planner", "user_id": "dana", "agent_id": "planner"},
    agent="planner",
    run="planner-run",
)
AGENTS = ("planner", "coder", "reviewer")

#: The coder's key aimed at the planner: its private namespaces, any spelling under
#: them, and its agent id in the team namespace and the shared space.
SCOPES: list[dict[str, Any]] = [
    {"namespace": PLANNER.home},
    {"namespace": PLANNER.project},
    {"namespace": "user:dana/planner/../coder"},
    {"agent_id": "planner"},
    {"user_id": "dana", "agent_id": "planner"},
    {"namespace": TEAM, "agent_id": "planner"},
    {"namespace": "agent:planner"},
    {"namespace": "user:danax"},
]


@dataclass
class Crew:
    url: str
    memory: Memory
    keys: dict[str, str]
    planted: Planted
    publication: str


def agent_key(memory: Memory, agent: str) -> str:
    """dana's key bound to ``agent``."""
    return memory.keys.create("dana", agent=agent, name=agent)[1]


def seed(memory: Memory) -> tuple[Planted, str]:
    """The planner's private data (one of everything), its team memory, session and
    publication: what the coder's and the reviewer's keys aim at."""
    planted = plant(memory, PLANNER)
    memory.agents.reset("planner")  # plant made it session-level; the crew's is persistent
    memory.add("Planner decision: the burst is 20", user_id="dana", agent_id="planner")
    memory.sessions.checkpoint(
        "planner-s1",
        "pre_compaction",
        context="PLANNER-CONTEXT",
        user_id="dana",
        agent_id="planner",
    )
    memory.sessions.flush(force=True)
    handoff = memory.shared.publish("planner", "Handoff to coder: token bucket", user_id="dana")
    return planted, handoff.id


@pytest.fixture
def crew(config: Config) -> Iterator[Crew]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = {a: agent_key(memory, a) for a in AGENTS}
        keys["dana"] = memory.keys.create("dana")[1]
        planted, publication = seed(memory)
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield Crew(url, memory, keys, planted, publication)


def walk(memory: Memory, planted: Planted) -> list[Attempt]:
    """Every route with each of ``SCOPES``, and by id from the caller's own namespace."""
    return scoped_attempts(memory, PLANNER, planted, SCOPES) + by_id_attempts(
        memory, PLANNER, planted
    )


def test_an_agents_key_cannot_reach_another_agent_through_any_route(crew: Crew) -> None:
    before = owner_snapshot(crew.memory, PLANNER)
    tried = walk(crew.memory, crew.planted)
    headers = {"Authorization": f"Bearer {crew.keys['coder']}"}
    with httpx.Client(base_url=crew.url, timeout=10, headers=headers) as coder:
        for method, path, params, body in tried:
            response = coder.request(method, path, params=params, json=body)
            if response.status_code == 422:  # the shared routes take no agent_id at all
                assert "'agent_id' is not a query parameter" in response.text, response.text
                continue
            if (method, path) == ("GET", "/v1/shared") and params == SCOPES[5]:
                # There agent_id filters the team space's publications by publisher (a
                # read every agent of dana may do); the planner's private ones stay out.
                assert response.status_code == 200 and response.json()["items"] == []
                continue
            assert response.status_code in (403, 404), (
                method,
                path,
                params,
                body,
                response.status_code,
                response.text,
            )
            assert "Falcon" not in response.text and "PIN hint is" not in response.text
    assert len(tried) > 300
    assert owner_snapshot(crew.memory, PLANNER) == before


def _as(crew: Crew, who: str) -> httpx.Client:
    headers = {"Authorization": f"Bearer {crew.keys[who]}"}
    return httpx.Client(base_url=crew.url, timeout=10, headers=headers)


def test_the_crews_leaks_of_round_twenty_eight_are_refused(crew: Crew) -> None:
    with _as(crew, "coder") as coder:
        found = coder.post("/v1/search", json={"query": "PIN hint", "namespace": PLANNER.home})
        assert found.status_code == 403 and "'user:dana/coder'" in found.json()["detail"]
        posed = coder.post(
            "/v1/memories", json={"content": "I am the planner", "agent_id": "planner"}
        )
        assert posed.status_code == 403 and "acts as agent 'coder'" in posed.json()["detail"]
        for body in ({"agent_id": "planner", "reason": "x"}, {"reason": "x"}):
            retracted = coder.post(f"/v1/shared/{crew.publication}/retract", json=body)
            assert retracted.status_code == 403, retracted.text
        published = coder.post("/v1/shared", json={"agent_id": "planner", "content": "fake"})
        assert published.status_code == 403
    with _as(crew, "reviewer") as reviewer:
        for method, path in (
            ("GET", "/v1/sessions/planner-s1/recover"),
            ("GET", "/v1/sessions/planner-s1/checkpoints"),
            ("POST", "/v1/sessions/planner-s1/track"),
            ("POST", "/v1/sessions/planner-s1/checkpoints"),
            ("POST", "/v1/sessions/planner-s1/end"),
        ):
            body = {"prompt": "x"} if path.endswith("track") else None
            got = reviewer.request(method, path, json=body)
            assert got.status_code == 403 and "PLANNER-CONTEXT" not in got.text, (path, got.text)
        listed = reviewer.get("/v1/sessions").json()["items"]
        assert listed == []
    assert [p.id for p in crew.memory.shared.publications(namespace=SHARED)] == [crew.publication]
    # The planner's own key still retracts its publication, naming no agent.
    with _as(crew, "planner") as planner:
        assert planner.get("/v1/sessions/planner-s1/recover").status_code == 200
        done = planner.post(f"/v1/shared/{crew.publication}/retract", json={"reason": "done"})
        assert done.status_code == 200 and done.json()["deleted_at"] is not None


def test_an_agents_key_works_as_its_agent_in_the_team_namespaces(crew: Crew) -> None:
    with _as(crew, "coder") as coder:
        made = coder.post("/v1/memories", json={"content": "Coder changed the limiter"})
        assert made.status_code == 201
        assert made.json()["agent_id"] == "coder" and made.json()["namespace"] == TEAM
        same = coder.post("/v1/memories", json={"content": "Coder note 2", "agent_id": "coder"})
        assert same.status_code == 201 and same.json()["agent_id"] == "coder"
        private = coder.post(
            "/v1/memories", json={"content": "mine", "namespace": "user:dana/coder"}
        )
        assert private.status_code == 201
        deeper = coder.get("/v1/memories", params={"namespace": "user:dana/coder/scratch"})
        assert deeper.status_code == 200
        # A team read names no agent: every agent's memories of user:dana, not only its own.
        team = coder.post("/v1/search", json={"query": "burst planner decision"}).json()
        assert any(h["memory"]["agent_id"] == "planner" for h in team["hits"])
        shared = coder.get("/v1/shared/search", params={"q": "handoff token bucket"}).json()
        assert [h["memory"]["content"] for h in shared["hits"]] == [
            "Handoff to coder: token bucket"
        ]
        published = coder.post("/v1/shared", json={"content": "Coder: limiter done"})
        assert published.status_code == 201 and published.json()["agent_id"] == "coder"
        ran = coder.post("/v1/runs", json={"run_id": "code-1", "task": "limits"})
        assert ran.status_code == 201 and ran.json()["agent_id"] == "coder"
        tracked = coder.post("/v1/sessions/coder-s1/track", json={"prompt": "step 1"})
        assert tracked.status_code == 200
        assert coder.get("/v1/sessions/coder-s1/recover").status_code == 200
    # A key of no agent keeps the user's whole reach: the planner's private namespace too.
    with _as(crew, "dana") as dana:
        assert dana.get("/v1/memories", params={"namespace": PLANNER.home}).status_code == 200
        posed = dana.post(
            "/v1/memories", json={"content": "by dana for planner", "agent_id": "planner"}
        )
        assert posed.status_code == 201
        assert dana.get("/v1/sessions/planner-s1/recover").status_code == 200


async def _mcp(
    url: str, key: str, namespace: str | None, calls: list[tuple[str, dict[str, Any]]]
) -> list[Any]:
    headers = {"Authorization": f"Bearer {key}"}
    if namespace:
        headers["X-Engram-Namespace"] = namespace
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
    ):
        return [await client.call_tool(name, args) for name, args in calls]


def test_an_agents_key_over_mcp(crew: Crew) -> None:
    refused = httpx.post(
        f"{crew.url}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
              "params": {"name": "search_memory", "arguments": {"query": "PIN hint"}}},
        headers={"Authorization": f"Bearer {crew.keys['reviewer']}",
                 "X-Engram-Namespace": PLANNER.home,
                 "Accept": "application/json, text/event-stream"},
    )  # fmt: skip
    assert refused.status_code == 403 and "PIN" not in refused.text
    calls: list[tuple[str, dict[str, Any]]] = [
        ("remember", {"content": "Reviewer: limiter reviewed"}),
        ("publish_knowledge", {"agent_id": "planner", "content": "fake handoff"}),
        ("retract_knowledge", {"agent_id": "planner", "memory_id": crew.publication}),
        ("recover_session", {"session_key": "planner-s1"}),
        ("publish_knowledge", {"agent_id": "reviewer", "content": "Review done"}),
    ]
    remembered, pose, retract, recover, own = asyncio.run(
        _mcp(crew.url, crew.keys["reviewer"], None, calls)
    )
    assert not remembered.is_error
    stored = crew.memory.get(remembered.structured_content["id"], namespace=TEAM)
    assert stored.agent_id == "reviewer"
    for refused_call in (pose, retract, recover):
        assert refused_call.is_error, refused_call.content
        assert "PLANNER-CONTEXT" not in str(refused_call.content)
    assert not own.is_error
    assert [
        p.id for p in crew.memory.shared.publications(namespace=SHARED, agent_id="planner")
    ] == [crew.publication]


def test_principal_reach_of_an_agents_key() -> None:
    coder = Principal(user="dana", admin=False, agent="coder")
    reach = {
        ns: coder.may_reach(ns)
        for ns in (
            "user:dana",
            "user:dana/shared",
            "user:dana/shared/x",
            "user:dana/coder",
            "user:dana/coder/x",
            "user:dana/planner",
            "user:dana/coderx",
            "user:dana/project",
            "user:danax",
            "agent:coder",
        )
    }
    assert [ns for ns, ok in reach.items() if ok] == [
        "user:dana",
        "user:dana/shared",
        "user:dana/shared/x",
        "user:dana/coder",
        "user:dana/coder/x",
    ]
    assert coder.acting(None) == "coder" and coder.acting("coder") == "coder"
    with pytest.raises(PermissionDeniedError):
        coder.acting("planner")
    dana = Principal(user="dana", admin=False)
    assert dana.may_reach("user:dana/planner") and dana.acting("planner") == "planner"


def test_the_key_row_keeps_its_agent(mem: Memory) -> None:
    key, plaintext = mem.keys.create("dana", agent="coder", name="coder's key")
    assert key.agent == "coder" and key.user == "dana"
    found = mem.keys.verify(plaintext)
    assert (found.user, found.agent, found.admin) == ("dana", "coder", False)
    assert Principal.of(found).agent == "coder"
    plain = mem.keys.verify(mem.keys.create("dana")[1])
    assert plain.agent is None
    assert [k.agent for k in mem.keys.list()] == ["coder", None]
    for bad in ("shared", "a/b", "x:y", ""):
        with pytest.raises(InvalidInputError):
            mem.keys.create("dana", agent=bad)
    with pytest.raises(InvalidInputError):
        mem.keys.create("dana", agent="coder", admin=True)


def test_migrate_store_carries_the_keys_agent(config: Config, tmp_path: Path) -> None:
    with Memory(str(tmp_path / "a.db"), config=config, embedder=HashEmbedder()) as source:
        _, plaintext = source.keys.create("dana", agent="coder")
    src = open_store(str(tmp_path / "a.db"), config)
    dst = open_store(str(tmp_path / "b.db"), config)
    try:
        report = migrate_store(src, dst)
        assert report.api_keys == 1
        assert [(k.user, k.agent) for k in dst.keys.all()] == [("dana", "coder")]
    finally:
        src.close()
        dst.close()
    with Memory(str(tmp_path / "b.db"), config=config, embedder=HashEmbedder()) as target:
        assert target.keys.verify(plaintext).agent == "coder"


def test_cli_creates_a_users_key_bound_to_an_agent(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(home, "keys", "create", "--user", "dana", "--agent", "coder", "--json")
    assert made.exit_code == 0, made.output
    data = json.loads(made.output)
    assert (data["user"], data["agent"], data["admin"]) == ("dana", "coder", False)
    said = run(home, "keys", "create", "--user", "dana", "--agent", "planner")
    assert said.exit_code == 0 and "key for agent planner of user:dana" in said.output
    listed = run(home, "keys", "list")
    assert "coder" in listed.output and "agent" in listed.output
    for refused in (
        ("--user", "dana", "--agent", "coder", "--admin"),
        ("--user", "dana", "--agent", "coder", "--seniority", "senior"),
        ("--agent", "coder"),
    ):
        got = run(home, "keys", "create", *refused)
        assert got.exit_code == 2, (refused, got.output)
    assert run(home, "keys", "create", "--user", "dana", "--agent", "shared").exit_code == 2
    with reopen(home) as mem:
        assert mem.keys.verify(data["key"]).agent == "coder"


def test_the_chat_proxy_chats_as_the_keys_agent(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for proxy in _serve(config, tmp_path, monkeypatch):
        key = agent_key(proxy.memory, "coder")
        url = f"{proxy.url}/v1/proxy/chat/completions"
        body = {
            "model": "m",
            "messages": [{"role": "user", "content": "Our limiter is a token bucket."}],
        }
        auth = {"Authorization": f"Bearer {key}"}
        posed = httpx.post(url, json=body, headers={**auth, "X-Engram-Agent": "planner"})
        assert posed.status_code == 403 and "acts as agent 'coder'" in posed.text
        assert proxy.upstream.requests_to("/chat/completions") == []
        assert httpx.post(url, json=body, headers=auth, timeout=30).status_code == 200
        proxy.mined()
        mined = proxy.memory.get_all(user_id="dana", limit=100)
        assert mined and {m.agent_id for m in mined} == {"coder"}

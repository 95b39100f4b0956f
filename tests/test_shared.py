"""FEATURES S3: shared knowledge (seed 002's ``SharedKnowledgeStore``): publish,
search_shared excluding the caller's own, retract by the publisher only, audited; on
both backends and through the HTTP API (key scoping), the CLI and the MCP tools."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mcp import Client

from conftest import HttpServed
from conftest import bearer_clients as clients
from conftest import run_cli as run
from conftest import tool_call as call
from engram import (
    CapabilityError,
    Config,
    InvalidInputError,
    Memory,
    NotFoundError,
    PermissionDeniedError,
)
from engram.mcp.server import create_mcp_server
from engram.shared import DEFAULT_SPACE, space_of

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
T1 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_publish_stores_an_audited_publication(mem: Memory) -> None:
    mem.shared.clock = lambda: T0
    pub = mem.shared.publish("alice", "Deploys freeze on Fridays", tags=["ops"])
    assert pub.namespace == DEFAULT_SPACE and pub.agent_id == "alice"
    assert pub.metadata["published_by"] == "alice" and pub.tags == ("ops",)
    history = mem.history(pub.id, namespace=DEFAULT_SPACE)
    assert [(h.event, h.actor) for h in history] == [("create", None), ("publish", "alice")]
    assert history[1].created_at == T0
    again = mem.shared.publish("bob", "Deploys freeze on Fridays")
    assert again.id == pub.id and again.agent_id == "alice"  # the first publisher stays
    assert len(mem.history(pub.id, namespace=DEFAULT_SPACE)) == 3  # + bob's dedup, no publish
    assert [p.id for p in mem.shared.publications(agent_id="alice")] == [pub.id]


def test_search_shared_leaves_out_the_callers_own(mem: Memory) -> None:
    mine = mem.shared.publish("alice", "The build cache lives on the ci-cache volume")
    theirs = mem.shared.publish("bob", "The build cache is purged every night")
    mem.add("The build cache is private to alice", agent_id="alice")  # not shared
    mem.add("A build cache note nobody published", namespace=DEFAULT_SPACE)
    both = {h.memory.id for h in mem.shared.search_shared("build cache")}
    assert both == {mine.id, theirs.id}
    others = mem.shared.search_shared("build cache", exclude_agent="alice")
    assert [h.memory.id for h in others] == [theirs.id]
    assert {p.id for p in mem.shared.publications()} == {mine.id, theirs.id}
    assert [p.id for p in mem.shared.publications(limit=1)] in ([mine.id], [theirs.id])
    assert mem.shared.search_shared("build cache", namespace="shared:team") == []
    with pytest.raises(InvalidInputError):
        mem.shared.search_shared("   ")


def test_only_the_publisher_retracts_and_the_retraction_is_audited(mem: Memory) -> None:
    pub = mem.shared.publish("alice", "Use the blue cluster for load tests")
    plain = mem.add("not a publication", namespace=DEFAULT_SPACE)
    with pytest.raises(PermissionDeniedError, match="only its publisher 'alice'"):
        mem.shared.retract("bob", pub.id)
    assert mem.get(pub.id, namespace=DEFAULT_SPACE).deleted_at is None
    with pytest.raises(NotFoundError, match="not a shared publication"):
        mem.shared.retract("alice", plain.id)
    with pytest.raises(NotFoundError):
        mem.shared.retract("alice", "no-such-id")
    mem.shared.clock = lambda: T1
    gone = mem.shared.retract("alice", pub.id, reason="the blue cluster was retired")
    assert gone.deleted_at is not None
    events = [(h.event, h.actor, h.reason) for h in mem.history(pub.id, namespace=DEFAULT_SPACE)]
    assert events[-2:] == [
        ("retract", "alice", "the blue cluster was retired"),
        ("delete", "alice", None),
    ]
    assert mem.shared.search_shared("blue cluster load tests") == []
    with pytest.raises(NotFoundError):
        mem.shared.retract("alice", pub.id)


def test_a_publication_is_not_bound_by_the_publishers_level(mem: Memory) -> None:
    mem.agents.set_level("quiet", "none")
    pub = mem.shared.publish("quiet", "Shared even though quiet keeps no memory")
    assert pub.namespace == DEFAULT_SPACE


def test_space_of_follows_the_callers_user() -> None:
    assert space_of("user:alice") == "user:alice/shared"
    assert space_of("user:alice/projects/x") == "user:alice/shared"
    assert space_of("default") == DEFAULT_SPACE


# -- HTTP: key scoping -----------------------------------------------------------------------
def test_http_shares_within_a_users_agents_only(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    with clients(url, keys, "alice", "bob", "admin") as (alice, bob, admin):
        made = alice.post(
            "/v1/shared", json={"agent_id": "planner", "content": "Ship behind the flag"}
        )
        assert made.status_code == 201, made.text
        pub = made.json()
        assert pub["namespace"] == "user:alice/shared"
        alice.post("/v1/shared", json={"agent_id": "coder", "content": "Flag names are kebab"})
        found = alice.get(
            "/v1/shared/search", params={"q": "flag", "exclude_agent": "coder"}
        ).json()
        assert [h["memory"]["id"] for h in found["hits"]] == [pub["id"]]
        listed = alice.get("/v1/shared").json()["items"]
        assert len(listed) == 2
        # Bob's agents share a space of their own; alice's is out of his key's reach.
        assert bob.get("/v1/shared/search", params={"q": "flag"}).json()["hits"] == []
        assert bob.get("/v1/shared").json()["items"] == []
        space = {"namespace": "user:alice/shared"}
        assert bob.get("/v1/shared/search", params={"q": "flag", **space}).status_code == 403
        stolen = bob.post(
            f"/v1/shared/{pub['id']}/retract", params=space, json={"agent_id": "planner"}
        )
        assert stolen.status_code == 403
        planted = bob.post("/v1/shared", params=space, json={"agent_id": "x", "content": "hi"})
        assert planted.status_code == 403
        assert bob.post("/v1/shared", json={"agent_id": "x", "content": " "}).status_code == 422
        # Within alice's space, only the publishing agent retracts.
        wrong = alice.post(f"/v1/shared/{pub['id']}/retract", json={"agent_id": "coder"})
        assert wrong.status_code == 403
        done = alice.post(
            f"/v1/shared/{pub['id']}/retract", json={"agent_id": "planner", "reason": "shipped"}
        )
        assert done.status_code == 200 and done.json()["deleted_at"] is not None
        # An admin key has a space of its user's too, and reaches any space by name.
        admin.post("/v1/shared", json={"agent_id": "ops", "content": "Pager rotation is weekly"})
        assert len(memory.shared.publications(namespace="user:root/shared")) == 1
        org = {"namespace": DEFAULT_SPACE}
        admin.post("/v1/shared", params=org, json={"agent_id": "ops", "content": "Org-wide"})
        assert [r.content for r in memory.shared.publications()] == ["Org-wide"]
        assert admin.get("/v1/shared", params=space).json()["items"][0]["agent_id"] == "coder"
    events = [h.event for h in memory.history(pub["id"], namespace="user:alice/shared")]
    assert events == ["create", "publish", "retract", "delete"]


# -- the CLI ---------------------------------------------------------------------------------
def test_cli_publishes_searches_lists_and_retracts(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(home, "shared", "publish", "alice", "Backups run at 02:00 UTC", "--json")
    assert made.exit_code == 0, made.output
    pub = json.loads(made.stdout)
    run(home, "shared", "publish", "bob", "Backups are kept for 30 days")
    found = json.loads(
        run(home, "shared", "search", "backups", "--exclude-agent", "bob", "--json").stdout
    )
    assert [h["memory"]["id"] for h in found["hits"]] == [pub["id"]]
    listed = json.loads(run(home, "shared", "list", "--agent", "bob", "--json").stdout)
    assert [i["agent_id"] for i in listed["items"]] == ["bob"]
    denied = run(home, "shared", "retract", "bob", pub["id"])
    assert denied.exit_code == 1 and "only its publisher" in denied.output
    done = run(home, "shared", "retract", "alice", pub["id"], "--reason", "moved")
    assert done.exit_code == 0 and "retracted" in done.stdout


# -- MCP -------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_mcp_tools_publish_search_and_retract(mem: Memory) -> None:
    async with (
        Client(create_mcp_server(mem, namespace="user:alice")) as alice,
        Client(create_mcp_server(mem, namespace="user:bob")) as bob,
    ):
        pub = await call(alice, "publish_knowledge", agent_id="a1", content="Tokens rotate daily")
        assert pub["namespace"] == "user:alice/shared" and pub["publisher"] == "a1"
        await call(alice, "publish_knowledge", agent_id="a2", content="Tokens live in vault")
        seen = await call(alice, "search_shared", query="tokens", exclude_agent="a2")
        assert [h["id"] for h in seen["result"]] == [pub["id"]]
        assert (await call(bob, "search_shared", query="tokens"))["result"] == []
        refused = await alice.call_tool(
            "retract_knowledge", {"agent_id": "a2", "memory_id": pub["id"]}
        )
        assert refused.is_error
        done = await call(alice, "retract_knowledge", agent_id="a1", memory_id=pub["id"])
        assert done == {"id": pub["id"], "retracted": True}


def test_shared_knowledge_can_be_switched_off(config: Config, store_location: str) -> None:
    off = config.with_overrides(agents={"shared_knowledge_base": False})
    with Memory(store_location, config=off, embedder=None) as mem:
        assert mem.backend.capabilities().supports_shared_access is False
        with pytest.raises(CapabilityError, match="shared_knowledge_base"):
            mem.shared.publish("alice", "not shared")
        with pytest.raises(CapabilityError):
            mem.shared.search_shared("anything")
        with pytest.raises(CapabilityError):
            mem.backend.require("shared_access")
        assert mem.get_all(namespace=DEFAULT_SPACE).total == 0

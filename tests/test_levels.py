"""FEATURES S2: memory levels none / session / project / persistent per agent (seed
002's ``MemoryLevel``), enforced on writes, on both backends and every surface."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from conftest import HttpServed
from conftest import bearer_clients as clients
from conftest import run_cli as run
from engram import Config, InvalidInputError, Memory, NotFoundError, WriteRefusedError
from engram.agents import MemoryLevel
from engram.records import Outcome

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_an_agent_without_a_level_keeps_todays_behaviour(mem: Memory) -> None:
    assert mem.agents.profile("scout") is None
    assert mem.agents.level("scout") is MemoryLevel.PERSISTENT
    kept = mem.add("Scout found the staging keys in vault", agent_id="scout")
    assert kept.namespace == "agent:scout" and "memory_level" not in kept.metadata


def test_level_none_refuses_the_agents_writes(mem: Memory) -> None:
    mem.agents.set_level("ghost", "none")
    with pytest.raises(WriteRefusedError, match="memory level 'none'"):
        mem.add("something ghost would remember", agent_id="ghost")
    batch = mem.add_many(
        [{"content": "ghost says hi", "agent_id": "ghost"}, "an ordinary memory"],
        on_invalid="skip",
    )
    assert [i.outcome for i in batch.items] == [Outcome.INVALID, Outcome.STORED]
    assert "memory level 'none'" in (batch.items[0].reason or "")
    assert mem.get_all(agent_id="ghost").total == 0
    mem.add("another agent is unaffected", agent_id="other")


def test_session_level_memories_carry_the_session_and_go_when_it_ends(mem: Memory) -> None:
    mem.add("written while persistent, session s1", agent_id="temp", session_id="s1")
    mem.agents.set_level("temp", MemoryLevel.SESSION)
    with pytest.raises(WriteRefusedError, match="pass session_id"):
        mem.add("no session given", agent_id="temp")
    a = mem.add("The sandbox token expires at noon", agent_id="temp", session_id="s1")
    b = mem.add("The sandbox lives in eu-west", agent_id="temp", session_id="s1")
    other = mem.add("A second session's note", agent_id="temp", session_id="s2")
    assert a.metadata["memory_level"] == "session"
    assert mem.agents.end_session("temp", "s1") == 2
    assert mem.agents.end_session("temp", "s1") == 0  # nothing left to remove
    left = {r.content for r in mem.get_all(agent_id="temp")}
    assert left == {"written while persistent, session s1", other.content}
    for gone in (a, b):
        with pytest.raises(NotFoundError):
            mem.get(gone.id, agent_id="temp")
    events = [(h.event, h.actor) for h in mem.history(a.id, agent_id="temp")]
    assert events[-1] == ("delete", "temp")


def test_end_session_can_be_limited_to_one_namespace(mem: Memory) -> None:
    mem.agents.set_level("temp", "session")
    mem.add("in alice's namespace", user_id="alice", agent_id="temp", session_id="s")
    mem.add("in bob's namespace", user_id="bob", agent_id="temp", session_id="s")
    assert mem.agents.end_session("temp", "s", namespace="user:alice") == 1
    assert [r.content for r in mem.get_all(user_id="bob")] == ["in bob's namespace"]


def test_project_level_writes_into_the_project_namespace(mem: Memory) -> None:
    mem.agents.set_level("planner", "project", project="apollo")
    assert mem.agents.namespace("planner") == "project:apollo"
    moved = mem.add("Launch window opens in July", agent_id="planner")
    assert moved.namespace == "project:apollo"
    named = mem.add("Fuel checks on Mondays", agent_id="planner", namespace="project:apollo")
    assert named.namespace == "project:apollo"
    with pytest.raises(WriteRefusedError, match="project:apollo"):
        mem.add("aimed elsewhere", agent_id="planner", namespace="team")
    assert {r.content for r in mem.get_all(namespace="project:apollo")} == {
        moved.content,
        named.content,
    }
    assert mem.get_all(agent_id="planner").total == 0  # nothing in agent:planner


def test_set_level_validates_and_uses_the_clock(mem: Memory) -> None:
    mem.agents.clock = lambda: T0
    with pytest.raises(InvalidInputError, match="unknown memory level 'forever'"):
        mem.agents.set_level("a", "forever")
    with pytest.raises(InvalidInputError, match="needs project"):
        mem.agents.set_level("a", "project")
    with pytest.raises(InvalidInputError, match="only to the project level"):
        mem.agents.set_level("a", "session", project="apollo")
    with pytest.raises(InvalidInputError, match="agent_id"):
        mem.agents.set_level("  ", "none")
    with pytest.raises(InvalidInputError, match="invalid namespace"):
        mem.agents.set_level("a", "project", project="has spaces")
    profile = mem.agents.set_level("b", "session")
    assert profile.updated_at == T0 and mem.agents.profile("b") == profile
    mem.agents.set_level("a", "none")
    assert [p.agent_id for p in mem.agents.list_levels()] == ["a", "b"]
    assert mem.agents.reset("a") is True and mem.agents.reset("a") is False
    assert mem.agents.level("a") is MemoryLevel.PERSISTENT
    mem.add("a may write again", agent_id="a")


def test_another_process_level_change_is_seen_after_refresh(
    config: Config, reopenable: str
) -> None:
    with (
        Memory(reopenable, config=config, embedder=None) as first,
        Memory(reopenable, config=config, embedder=None) as second,
    ):
        first.add("allowed while persistent", agent_id="x")
        second.agents.set_level("x", "none")
        first.agents.refresh()
        with pytest.raises(WriteRefusedError):
            first.add("refused now", agent_id="x")


# -- HTTP ------------------------------------------------------------------------------------
def test_http_levels_are_set_by_admins_and_enforced_on_writes(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    with clients(url, keys, "alice", "bob", "admin") as (alice, bob, admin):
        shown = alice.get("/v1/agents/bot/level").json()
        assert shown["level"] == "persistent" and shown["stored"] is False
        denied = alice.put("/v1/agents/bot/level", json={"level": "none"})
        assert denied.status_code == 403
        assert memory.agents.profile("bot") is None
        set_ = admin.put("/v1/agents/bot/level", json={"level": "session"})
        assert set_.status_code == 200 and set_.json()["stored"] is True
        assert admin.put("/v1/agents/bot/level", json={"level": "x"}).status_code == 422
        refused = alice.post("/v1/memories", json={"content": "no session", "agent_id": "bot"})
        assert refused.status_code == 422 and refused.json()["error"] == "write_refused"
        for who, c in (("alice", alice), ("bob", bob)):
            r = c.post(
                "/v1/memories",
                json={"content": f"{who}'s note", "agent_id": "bot", "session_id": "s1"},
            )
            assert r.status_code in (200, 201), r.text
        # Each key ends the session in its own namespace only.
        ended = bob.post("/v1/agents/bot/sessions/s1/end")
        assert ended.json() == {"agent_id": "bot", "session_id": "s1", "removed": 1}
        assert [r.content for r in memory.get_all(user_id="alice")] == ["alice's note"]
        peek = bob.post("/v1/agents/bot/sessions/s1/end", params={"namespace": "user:alice"})
        assert peek.status_code == 403
        assert alice.post("/v1/agents/bot/sessions/s1/end").json()["removed"] == 1
        assert alice.delete("/v1/agents/bot/level").status_code == 403
        reset = admin.delete("/v1/agents/bot/level").json()
        assert reset["level"] == "persistent" and reset["stored"] is False


# -- the CLI ---------------------------------------------------------------------------------
def test_cli_sets_shows_lists_and_ends_sessions(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(home, "agents", "level", "bot", "session", "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["level"] == "session"
    assert "bot: session" in run(home, "agents", "level", "bot").stdout
    refused = run(home, "add", "no session here", "--agent", "bot")
    assert refused.exit_code == 2 and "pass session_id" in refused.output
    bad = run(home, "agents", "level", "bot", "project")
    assert bad.exit_code == 2 and "project=" in bad.output
    listed = json.loads(run(home, "agents", "list", "--json").stdout)["items"]
    assert [(i["agent_id"], i["level"]) for i in listed] == [("bot", "session")]
    with Memory(home / "engram.db", config=Config(home=home), embedder=None) as mem:
        mem.add("a session note", agent_id="bot", session_id="s9")
    ended = run(home, "agents", "end-session", "bot", "s9", "--json")
    assert json.loads(ended.stdout)["removed"] == 1
    assert "reset to persistent" in run(home, "agents", "reset", "bot").stdout


def test_the_default_level_is_configurable(config: Config, store_location: str) -> None:
    seed_default = config.with_overrides(agents={"default_level": "session"})
    with Memory(store_location, config=seed_default, embedder=None) as mem:
        assert mem.agents.default_level is MemoryLevel.SESSION
        assert mem.agents.level("newcomer") is MemoryLevel.SESSION
        with pytest.raises(WriteRefusedError, match="pass session_id"):
            mem.add("no session", agent_id="newcomer")
        kept = mem.add("with a session", agent_id="newcomer", session_id="s")
        assert kept.metadata["memory_level"] == "session"
        mem.add("no agent named: levels do not apply")
        mem.agents.set_level("veteran", "persistent")
        assert "memory_level" not in mem.add("kept", agent_id="veteran").metadata

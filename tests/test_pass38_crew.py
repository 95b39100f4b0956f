"""Round twenty-eight (a crew of agents sharing one memory): what the crew found.

An agent process that uses the library alone and is killed (SIGKILL) while idle must
leave its queued session checkpoints in the store, so the restarted agent's ``recover``
has a digest to resume from (before, nothing wrote them without ``engram serve`` or a
later call, and the digest was empty). ``runs.list``/``count`` with an ``agent_id``
narrower than the namespace list that agent's runs (before, the agent was dropped and
every agent's runs came back)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from conftest import NO_LINKER, section_config
from engram import Memory

CHILD = """
import sys, time
from engram import Memory
from engram.config import Config
config = Config.load(env={"ENGRAM_PIPELINE_LINKER": "false"}, home=sys.argv[2]).with_overrides(
    sessions={"debounce_ms": 300})
mem = Memory(sys.argv[1], config=config, embedder=None)
for n in range(3):
    mem.sessions.track("coder-s1", prompt=f"edit limits.py step {n}", project="limits",
                       user_id="dana", agent_id="coder")
mem.sessions.checkpoint("coder-s1", "pre_compaction", context="halfway through the bucket",
                        user_id="dana", agent_id="coder")
print("queued", flush=True)
time.sleep(120)  # idle: the parent kills us here
"""


def _wait(predicate: object, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_a_killed_agent_leaves_its_queued_checkpoint_for_recovery(
    reopenable: str, tmp_path: Path
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, reopenable, str(tmp_path / "childhome")],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"queued"
        config = section_config(tmp_path, NO_LINKER, "sessions", {"debounce_ms": 300})
        with Memory(reopenable, config=config, embedder=None) as mem:
            written = _wait(lambda: mem.sessions.checkpoints("coder-s1", user_id="dana"))
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=10)
            assert written, "the idle agent never wrote its queued checkpoint"
            digest = mem.sessions.recover("coder-s1", user_id="dana")
        assert digest.startswith("# Resuming session coder-s1")
        assert "halfway through the bucket" in digest
        assert "edit limits.py step 2" in digest
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=10)
        if child.stdout is not None:
            child.stdout.close()


def test_a_queued_checkpoint_is_written_when_its_window_closes_with_no_other_call(
    reopenable: str, tmp_path: Path
) -> None:
    config = section_config(tmp_path, NO_LINKER, "sessions", {"debounce_ms": 200})
    with (
        Memory(reopenable, config=config, embedder=None) as agent,
        Memory(reopenable, config=config, embedder=None) as other,
    ):
        assert agent.sessions.checkpoint("s1", "agent", user_id="dana") is None  # queued
        assert other.sessions.checkpoints("s1", user_id="dana") == []
        assert _wait(lambda: other.sessions.checkpoints("s1", user_id="dana"), timeout=5)
        [row] = other.sessions.checkpoints("s1", user_id="dana")
        assert row.trigger == "agent"
        # the thread ends once nothing waits; a later checkpoint starts another
        agent.sessions.checkpoint("s1", "explicit", user_id="dana")
        assert _wait(lambda: len(other.sessions.checkpoints("s1", user_id="dana")) == 2, 5)


def test_runs_list_and_count_narrow_to_the_agent_that_recorded_them(mem: Memory) -> None:
    mem.runs.record_run("plan-1", task="Plan the limiter", user_id="dana", agent_id="planner")
    mem.runs.record_run("code-1", task="Code the limiter", user_id="dana", agent_id="coder")
    mem.runs.compress_and_store(
        "Implement the token bucket",
        "Implemented the token bucket in src/limits.py. Refill is 5/s.",
        run_id="code-2",
        user_id="dana",
        agent_id="coder",
    )
    # the reviewer scores the coder's run: it stays the coder's
    mem.runs.record_run("code-1", score=7.5, user_id="dana", agent_id="reviewer")
    coder = mem.runs.list(user_id="dana", agent_id="coder")
    assert sorted(r.run_id for r in coder) == ["code-1", "code-2"]
    assert {r.agent_id for r in coder} == {"coder"}
    assert mem.runs.count(user_id="dana", agent_id="coder") == 2
    assert [r.run_id for r in mem.runs.list(user_id="dana", agent_id="planner")] == ["plan-1"]
    assert mem.runs.count(user_id="dana", agent_id="reviewer") == 0
    assert mem.runs.count(user_id="dana") == 3  # the namespace: every agent's
    assert mem.runs.get("code-1", user_id="dana").run.agent_id == "coder"
    # an agent's own namespace (agent_id alone) lists all of its runs
    mem.runs.record_run("solo-1", task="Solo", agent_id="coder")
    assert [r.run_id for r in mem.runs.list(agent_id="coder")] == ["solo-1"]


def test_get_v1_runs_narrows_to_the_agent_over_http(http_server: Any) -> None:
    url, keys, _ = http_server
    headers = {"Authorization": f"Bearer {keys['alice']}"}
    for run_id, agent in [("plan-1", "planner"), ("code-1", "coder")]:
        created = httpx.post(
            f"{url}/v1/runs",
            headers=headers,
            json={"run_id": run_id, "task": "t", "agent_id": agent},
            timeout=30,
        )
        assert created.status_code == 201, created.text
        assert created.json()["agent_id"] == agent
    listed = httpx.get(f"{url}/v1/runs", params={"agent_id": "coder"}, headers=headers, timeout=30)
    assert listed.status_code == 200, listed.text
    assert [r["run_id"] for r in listed.json()["items"]] == ["code-1"]
    assert listed.json()["total"] == 1


def test_a_handoff_published_by_user_id_reaches_the_crews_recall(mem: Memory) -> None:
    handoff = mem.shared.publish(
        "planner",
        "Handoff to coder: implement the token bucket in src/limits.py",
        user_id="dana",
    )
    assert handoff.namespace == "user:dana/shared"  # the space recall in user:dana merges
    seen = mem.recall(
        "what should the coder implement?", user_id="dana", agent_id="coder", min_relevance=0
    )
    assert handoff.id in [h.memory.id for h in seen.hits]
    found = mem.shared.search_shared("token bucket", exclude_agent="coder", user_id="dana")
    assert [h.memory.id for h in found] == [handoff.id]
    assert [m.id for m in mem.shared.publications(user_id="dana")] == [handoff.id]
    assert mem.shared.publications(user_id="erin") == []  # another user's space
    mem.shared.retract("planner", handoff.id, user_id="dana", reason="done")
    assert mem.shared.publications(user_id="dana") == []
    # naming the namespace still wins, and no id still means shared:default
    assert mem.shared.publish(
        "planner", "x", namespace="team/shared", user_id="dana"
    ).namespace == ("team/shared")
    assert mem.shared.publish("planner", "y").namespace == "shared:default"


def test_sessions_list_narrows_to_the_agent_whose_session_it_is(
    reopenable: str, tmp_path: Path
) -> None:
    config = section_config(tmp_path, NO_LINKER, "sessions", {"debounce_ms": 0})
    with Memory(reopenable, config=config, embedder=None) as mem:
        mem.sessions.track("coder-s1", prompt="edit limits.py", user_id="dana", agent_id="coder")
        mem.sessions.checkpoint("coder-s1", "agent", user_id="dana", agent_id="coder")
        mem.sessions.checkpoint("rev-s1", "explicit", user_id="dana", agent_id="reviewer")
        mem.sessions.checkpoint("dana-s1", "explicit", user_id="dana")
        assert [s[0] for s in mem.sessions.list(user_id="dana", agent_id="coder")] == ["coder-s1"]
        assert [s[0] for s in mem.sessions.list(user_id="dana", agent_id="reviewer")] == ["rev-s1"]
        assert {s[0] for s in mem.sessions.list(user_id="dana")} == {
            "coder-s1",
            "rev-s1",
            "dana-s1",
        }
        [row] = mem.sessions.checkpoints("coder-s1", user_id="dana")
        assert row.agent_id == "coder"
        # the agent's own namespace (agent_id alone) lists all of it
        mem.sessions.checkpoint("solo", "explicit", agent_id="coder")
        assert [s[0] for s in mem.sessions.list(agent_id="coder")] == ["solo"]


def test_get_v1_sessions_narrows_to_the_agent_over_http(http_server: Any) -> None:
    url, keys, memory = http_server
    headers = {"Authorization": f"Bearer {keys['alice']}"}
    for key, agent in [("coder-s1", "coder"), ("rev-s1", "reviewer")]:
        tracked = httpx.post(
            f"{url}/v1/sessions/{key}/track",
            params={"agent_id": agent},
            headers=headers,
            json={"prompt": "edit limits.py"},
            timeout=30,
        )
        assert tracked.status_code == 200, tracked.text
        queued = httpx.post(
            f"{url}/v1/sessions/{key}/checkpoints",
            params={"agent_id": agent},
            headers=headers,
            timeout=30,
        )
        assert queued.status_code == 200, queued.text
    memory.sessions.flush(force=True)
    listed = httpx.get(
        f"{url}/v1/sessions", params={"agent_id": "coder"}, headers=headers, timeout=30
    )
    assert listed.status_code == 200, listed.text
    assert [s["session_key"] for s in listed.json()["items"]] == ["coder-s1"]
    rows = httpx.get(f"{url}/v1/sessions/coder-s1/checkpoints", headers=headers, timeout=30)
    assert [c["agent_id"] for c in rows.json()["items"]] == ["coder"]

"""Round twenty-eight (a crew of agents sharing one memory): what the crew found.

An agent process that uses the library alone and is killed (SIGKILL) while idle must
leave its queued session checkpoints in the store, so the restarted agent's ``recover``
has a digest to resume from (before, nothing wrote them without ``engram serve`` or a
later call, and the digest was empty)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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

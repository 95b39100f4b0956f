"""``mem.sessions``: checkpoints on seed 004's triggers, debounce, caps, pruning,
redaction, recovery digests and continuity scoring at session end — on both backends,
with time moved by hand (no sleeps)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import NO_LINKER, Clock, section_config
from engram import Memory
from engram.config import Config
from engram.errors import InvalidInputError
from engram.sessions import continuity
from engram.sessions.redact import MASK, redact
from llmserver import Reply, ScriptedLlm, fenced

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)


def _config(tmp_path: Path, **sessions: Any) -> Config:
    return section_config(tmp_path, NO_LINKER, "sessions", sessions)


@pytest.fixture
def mem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path), embedder=None) as m:
        m.sessions.clock = clock
        yield m


def test_ten_prompts_queue_a_periodic_checkpoint_written_after_the_debounce(
    mem: Memory, clock: Clock
) -> None:
    for n in range(9):
        assert mem.sessions.track("s1", prompt=f"prompt {n}", project="engram") is None
    # seed 004: promptInterval 10 queues it; the 2,500 ms flush window holds it.
    assert mem.sessions.track("s1", prompt="prompt 9", query="efoil battery") is None
    assert mem.sessions.checkpoints("s1") == []
    clock.advance(milliseconds=2499)
    assert mem.sessions.flush() == []
    clock.advance(milliseconds=1)
    [written] = mem.sessions.flush()
    assert written.trigger == "periodic" and written.prompt_count == 10
    assert written.memory_queries == ("efoil battery",)
    assert "project: engram" in written.digest and "prompt 9" in written.digest
    assert "prompt 4" not in written.digest  # the five most recent prompts only
    assert "searched: efoil battery" in written.digest
    assert mem.sessions.checkpoints("s1") == [written]


def test_the_time_interval_fires_a_periodic_checkpoint(mem: Memory, clock: Clock) -> None:
    mem.sessions.track("s1", prompt="first")
    clock.advance(minutes=14, seconds=59)
    mem.sessions.track("s1", prompt="second")
    clock.advance(seconds=1)  # 15 min since the session started: due at the next prompt
    mem.sessions.track("s1", prompt="third")
    clock.advance(seconds=3)
    [written] = mem.sessions.flush()
    assert written.trigger == "periodic" and written.prompt_count == 3


def test_triggers_within_the_window_merge(mem: Memory, clock: Clock) -> None:
    for n in range(25):
        mem.sessions.track("s1", query=f"q{n}", remembered=f"r{n}")
    mem.sessions.track("s1", prompt="a")
    mem.sessions.checkpoint("s1", "explicit")
    clock.advance(seconds=1)
    mem.sessions.track("s1", prompt="b")
    mem.sessions.track("s1", prompt="c")
    mem.sessions.checkpoint("s1", "pre_compaction", context="working on the release notes")
    clock.advance(seconds=2)  # 3 s after the first trigger: its window closed
    [written] = mem.sessions.flush()
    assert written.trigger == "pre_compaction"  # the weightier trigger names the row
    assert written.prompt_count == 3  # summed: 1 + 2
    assert len(written.memory_queries) == 20 and written.memory_queries[-1] == "q24"
    assert len(written.recent_remembers) == 10 and written.recent_remembers[0] == "r15"
    assert "working on the release notes" in written.digest
    assert len(mem.sessions.checkpoints("s1")) == 1


def test_without_debounce_a_checkpoint_is_written_at_once(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    config = _config(tmp_path, debounce_ms=0, max_checkpoints_per_session=3)
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.sessions.clock = clock
        for _ in range(5):
            clock.advance(minutes=1)
            written = mem.sessions.checkpoint("s1", "agent")
            assert written is not None and written.trigger == "agent"
        rows = mem.sessions.checkpoints("s1")
        assert len(rows) == 3 and rows[0].created_at == T0 + timedelta(minutes=5)


def test_disabled_sessions_write_no_checkpoint(
    tmp_path: Path, store_location: str, clock: Clock
) -> None:
    with Memory(store_location, config=_config(tmp_path, enabled=False), embedder=None) as mem:
        mem.sessions.clock = clock
        for n in range(20):
            mem.sessions.track("s1", prompt=f"p{n}")
        assert mem.sessions.checkpoint("s1") is None
        clock.advance(minutes=1)
        assert mem.sessions.flush(force=True) == []
        assert mem.sessions.checkpoints("s1") == []


def test_secrets_never_reach_the_store(mem: Memory, clock: Clock) -> None:
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 2
    mem.sessions.track("s1", prompt=f"use OPENAI_API_KEY={key} for the eval")
    mem.sessions.track("s1", query="Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig")
    mem.sessions.track("s1", remembered="db is postgresql://admin:hunter2@db.internal/prod")
    mem.sessions.checkpoint("s1")
    clock.advance(seconds=3)
    [written] = mem.sessions.flush()
    stored = " ".join([written.digest, *written.memory_queries, *written.recent_remembers])
    for secret in (key, "eyJhbGciOiJIUzI1NiJ9", "hunter2"):
        assert secret not in stored
    assert MASK in written.memory_queries[0] and "postgresql://admin:" in stored


@pytest.mark.parametrize(
    "text",
    [
        "ghp_" + "a" * 36,
        "AKIAABCDEFGHIJKLMNOP",
        "export GITHUB_TOKEN='abc def'",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
        "blob " + "QWxhZGRpbjpvcGVuIHNlc2FtZQ9" * 2,
    ],
)
def test_redaction_catches_common_secret_shapes(text: str) -> None:
    assert MASK in redact(text)


def test_redaction_leaves_prose_alone() -> None:
    prose = "The tokenizer handles Bearer-style names and passwords policy docs fine."
    assert redact(prose) == prose


def test_retention_prunes_old_checkpoints(mem: Memory, clock: Clock) -> None:
    mem.sessions.checkpoint("old")
    clock.advance(seconds=3)
    mem.sessions.flush()
    clock.advance(days=6)
    mem.sessions.checkpoint("new")
    clock.advance(seconds=3)
    mem.sessions.flush()
    clock.advance(days=1, seconds=1)  # "old" is past the 7 days; "new" is not
    assert mem.sessions.prune() == 1
    assert mem.sessions.checkpoints("old") == [] and len(mem.sessions.checkpoints("new")) == 1


def test_recovery_digest_newest_first_within_budget(mem: Memory, clock: Clock) -> None:
    assert mem.sessions.recover("s1") == ""
    mem.sessions.track("s1", query="where is the efoil manual", prompt="find the manual")
    mem.sessions.checkpoint("s1")
    clock.advance(seconds=3)
    mem.sessions.flush()
    mem.sessions.track("s1", query="battery charge time", prompt="how long to charge")
    mem.sessions.checkpoint("s1", "pre_compaction", context="comparing battery specs")
    clock.advance(seconds=3)
    digest = mem.sessions.recover("s1")  # recover flushes what is due first
    assert digest.startswith("# Resuming session s1")
    assert digest.index("Before context compaction") < digest.index("battery charge time")
    assert "comparing battery specs" in digest
    short = mem.sessions.recover("s1", budget=200)
    assert len(short) <= 200 and short.startswith("# Resuming session s1")
    with pytest.raises(InvalidInputError):
        mem.sessions.recover("s1", budget=0)


def test_sessions_are_scoped_to_their_namespace(mem: Memory, clock: Clock) -> None:
    mem.sessions.checkpoint("shared-key", user_id="alice")
    clock.advance(seconds=3)
    mem.sessions.flush()
    assert len(mem.sessions.checkpoints("shared-key", user_id="alice")) == 1
    assert mem.sessions.checkpoints("shared-key", user_id="bob") == []
    assert mem.sessions.recover("shared-key", user_id="bob") == ""
    assert [k for k, _, _ in mem.sessions.list(user_id="alice")] == ["shared-key"]
    assert mem.sessions.list(user_id="bob") == []


def test_bad_input_is_refused_and_stores_nothing(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="session_key"):
        mem.sessions.track("  ", prompt="x")
    with pytest.raises(InvalidInputError, match="trigger must be one of"):
        mem.sessions.checkpoint("s1", "sometimes")
    with pytest.raises(InvalidInputError, match="prompt must be a string"):
        mem.sessions.track("s1", prompt=42)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="hits or memory ids"):
        mem.sessions.injected("s1", [None])  # type: ignore[list-item]
    assert mem.sessions.flush(force=True) == []
    assert mem.sessions.list() == []


def _filed(mem: Memory) -> tuple[str, str]:
    """A battery memory with an aspect, and an unrelated one."""
    battery = mem.add("Derek's efoil battery is 48V and charges in 2 hours")
    other = mem.add("The office plant needs water on Fridays")
    mem.graph.record(battery.id, [], entity_types={"Derek": "person"})
    mem.graph.add_attribute(
        "Derek", "battery is 48V", memory_id=battery.id, aspect="battery", now=T0
    )
    return battery.id, other.id


def test_session_end_scores_offline_and_confirms_useful_memories(mem: Memory, clock: Clock) -> None:
    battery, other = _filed(mem)
    assert mem.sessions.injected("s1", [battery, other]) == 2
    before = {a.name: a.weight for a in mem.graph.aspects("Derek")}
    clock.advance(minutes=20)
    score = mem.sessions.end(
        "s1",
        transcript="user: how long does Derek's efoil battery take? It charges in 2 hours, 48V.",
    )
    assert score.method == "offline" and score.memories_recalled == 2
    assert score.per_memory[battery] > 0.5 > score.per_memory[other]
    assert score.memories_used == 1 and 0 < score.score < 1
    assert score.confidence == continuity.OFFLINE_CONFIDENCE
    assert mem.sessions.score("s1") == score
    relevance = {m.memory_id: m.relevance for m in mem.sessions.injected_memories("s1")}
    assert relevance == score.per_memory
    after = {a.name: a.weight for a in mem.graph.aspects("Derek")}
    assert after["battery"] > before["battery"]  # seed 004's aspect feedback at session end
    [end] = mem.sessions.checkpoints("s1", trigger="session_end")
    assert "total prompts: 0" in end.digest and "duration: 20 min" in end.digest


def test_a_session_without_injected_memories_still_gets_a_score_row(mem: Memory) -> None:
    score = mem.sessions.end("lonely")
    assert score.score == 0 and score.memories_recalled == 0
    assert "no memories were injected" in score.reasoning
    assert mem.sessions.score("lonely") == score


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


@pytest.fixture
def llm_mem(
    tmp_path: Path, store_location: str, clock: Clock, llm: ScriptedLlm
) -> Iterator[Memory]:
    config = _config(tmp_path).with_overrides(
        llm={"provider": "ollama", "base_url": llm.url, "timeout_s": 5}
    )
    with Memory(store_location, config=config, embedder=None) as m:
        m.sessions.clock = clock
        yield m


def test_llm_scoring_reads_fences_think_blocks_prefixes_and_clamps(
    llm_mem: Memory, llm: ScriptedLlm
) -> None:
    battery, other = _filed(llm_mem)
    llm_mem.sessions.injected("s1", [battery, other])
    answer = {
        "score": 1.7,
        "confidence": "0.8",
        "memories_used": 1,
        "reasoning": "the battery memory answered the question",
        "per_memory": [
            {"id": continuity.short_id(battery), "relevance": 0.9},
            {"id": continuity.short_id(other), "relevance": -2},
            {"id": "zzzzzzzz", "relevance": 1},
        ],
    }
    llm.script("<think>\nweigh {them} [first]\n</think>\n" + fenced(answer))
    score = llm_mem.sessions.end("s1", transcript="we discussed the battery")
    assert score.method == "llm" and score.score == 1.0 and score.confidence == 0.8
    assert score.novel_context_count == 0  # missing: defaults to zero
    assert score.per_memory == {battery: 0.9, other: 0.0}
    prompt = llm.requests[0].body["prompt"]
    assert f"[{continuity.short_id(battery)}]" in prompt and "we discussed the battery" in prompt
    assert battery[:8] == other[:8]  # written together: time-ordered ids share a prefix


def test_llm_failure_falls_back_to_the_heuristic(llm_mem: Memory, llm: ScriptedLlm) -> None:
    battery, _ = _filed(llm_mem)
    llm_mem.sessions.injected("s1", [battery])
    llm.script(Reply(status=500, body="model crashed"))
    score = llm_mem.sessions.end("s1", transcript="the efoil battery charges in 2 hours")
    assert score.method == "offline" and "the LLM failed" in score.reasoning
    assert score.per_memory[battery] > 0.5


def test_parse_scoring_refuses_an_answer_without_json() -> None:
    with pytest.raises(Exception, match="JSON"):
        continuity.parse_scoring("I think it went well.", ["abcdefgh-1"])


def test_upkeep_writes_due_checkpoints_and_prunes_hourly(mem: Memory, clock: Clock) -> None:
    mem.sessions.checkpoint("old")
    clock.advance(seconds=1)
    assert mem.sessions.upkeep() == (0, 0)  # still inside its debounce window
    clock.advance(seconds=2)
    assert mem.sessions.upkeep() == (1, 0)  # written; pruning ran an hour ago at most
    clock.advance(days=8)
    mem.sessions.checkpoint("new")
    assert mem.sessions.upkeep() == (0, 1)  # "old" is past retention, pruned
    clock.advance(minutes=30)
    assert mem.sessions.upkeep() == (1, 0)  # "new" written; no second prune within the hour


def test_closing_writes_checkpoints_still_in_their_window(
    tmp_path: Path, reopenable: str, clock: Clock
) -> None:
    with Memory(reopenable, config=_config(tmp_path), embedder=None) as first:
        first.sessions.clock = clock
        first.sessions.checkpoint("s1", "pre_compaction")
    with Memory(reopenable, config=_config(tmp_path), embedder=None) as again:
        assert [c.trigger for c in again.sessions.checkpoints("s1")] == ["pre_compaction"]


@pytest.mark.slow
def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "sessions.md").read_text("utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/sessions.md", "exec"), {})
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith("# Resuming session s1 (checkpoint of ") and first.endswith(" UTC)")
    assert second == "offline 1"


def test_ending_an_agents_session_removes_its_session_level_memories(mem: Memory) -> None:
    mem.agents.set_level("temp", "session")
    kept = mem.add("A second session's note", agent_id="temp", session_id="s2")
    gone = mem.add("The sandbox token expires at noon", agent_id="temp", session_id="s1")
    mem.sessions.injected("s1", [gone.id], agent_id="temp")
    score = mem.sessions.end("s1", agent_id="temp", transcript="the sandbox token")
    assert score.memories_recalled == 1
    live = {r.id for r in mem.get_all(agent_id="temp")}
    assert gone.id not in live and kept.id in live

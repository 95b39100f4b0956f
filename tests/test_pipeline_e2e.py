"""The write pipeline end to end: ``add``, then the worker, then facts, entities, hints
and audited proposals — offline, and with a scripted LLM server in each of seed 004's
three modes."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.records import PIPELINE_WHO
from llmserver import Reply, ScriptedLlm, fenced, thinking


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def facts_of(mem: Memory, **scope: str) -> list[str]:
    return sorted(r.content for r in mem.get_all(**scope) if r.who == PIPELINE_WHO)


def proposals(mem: Memory, memory_id: str, **scope: str) -> list[dict[str, Any]]:
    return [h.after for h in mem.history(memory_id, **scope) if h.event == "proposal" and h.after]


# -- offline: no model anywhere -----------------------------------------------------------
def test_add_then_process_pending_yields_facts_entities_and_hints(
    config: Config, store_location: str
) -> None:
    config = replace(config, pipeline=replace(config.pipeline, hints=True))
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        _facts_entities_hints(mem)


def _facts_entities_hints(mem: Memory) -> None:
    turn = mem.add(
        "Caroline: I went to the LGBTQ support group yesterday. I love painting sunsets.",
        user_id="c",
    )
    # extract and hints, then the classify job extract queued for Caroline's facts
    assert mem.jobs.process_pending() == 3
    assert sorted(j.kind for j in mem.jobs.list(user_id="c")) == ["classify", "extract", "hints"]
    assert facts_of(mem, user_id="c") == [
        "Caroline loves painting sunsets.",
        "Caroline went to the LGBTQ support group yesterday.",
    ]
    fact = next(r for r in mem.get_all(user_id="c") if r.who == PIPELINE_WHO)
    assert fact.source_memory_id == turn.id and fact.created_at == turn.created_at
    names = {e.name for e in mem.graph.entities(user_id="c")}
    assert "Caroline" in names and len(names) >= 2
    assert mem.store.hints.get("user:c", turn.id) is not None
    audit = proposals(mem, turn.id, user_id="c")
    assert [a["outcome"] for a in audit] == ["created", "created"]
    assert {a["mode"] for a in audit} == {"controlled"}
    # The facts answer recall, and processing again changes nothing (idempotent jobs).
    hit = mem.recall("what does Caroline love?", user_id="c").hits[0]
    assert "painting sunsets" in hit.memory.content
    assert mem.jobs.process_pending() == 0


def test_the_rules_read_a_turn_with_the_one_before_it_in_its_session(
    config: Config, store_location: str
) -> None:
    # issue 28, fifth pass: the extract job gives the offline rules the memory said just
    # before in the same session, so a pointer names its thing; outside a session (or
    # with the turn alone) the sentence gives no fact about the bracelet.
    turns = [
        "Theo: Love the bracelet, any story behind it?",
        "Ines: Thanks! It's from my aunt in Lisbon.",
    ]
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        for turn in turns:
            mem.add(turn, user_id="i", session_id="s1")
        for turn in turns:
            mem.add(turn.replace("Lisbon", "Porto"), user_id="j")
        mem.jobs.process_pending()
        assert "The bracelet is from Ines's aunt in Lisbon." in facts_of(mem, user_id="i")
        assert not any("bracelet" in f for f in facts_of(mem, user_id="j"))


def test_pipeline_off_queues_nothing(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path), pipeline={"enabled": False})
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        mem.add("Caroline: I love painting sunsets.")
        assert mem.jobs.process_pending() == 0
        assert len(mem.get_all()) == 1


# -- with a scripted LLM -----------------------------------------------------------------
def llm_memory(tmp_path: Path, llm: ScriptedLlm, **pipeline: Any) -> Memory:
    config = Config.load(
        env={},
        home=str(tmp_path / "home"),
        llm={"provider": "ollama", "base_url": llm.url, "timeout_s": 5},
        # classification has its own scripted-LLM tests (test_classify_llm.py)
        pipeline={"hints": False, "classify": False, **pipeline},
    )
    return Memory(":memory:", config=config, embedder=HashEmbedder())


def extraction(*facts: str, triples: tuple[tuple[str, str, str], ...] = ()) -> str:
    return fenced(
        {
            "facts": [{"content": f, "type": "fact", "confidence": 0.9} for f in facts],
            "entities": [
                {"source": s, "relationship": r, "target": t, "confidence": 0.9}
                for s, r, t in triples
            ],
        }
    )


def update_first_candidate(request: Any) -> str:
    """The decision model: UPDATE the first candidate the prompt lists."""
    found = re.search(r"id=(\S+)", request.prompt or "")
    assert found is not None, request.prompt
    return thinking(
        {"action": "UPDATE", "targetId": found.group(1), "confidence": 0.9, "reason": "newer"}
    )


def story(mem: Memory, llm: ScriptedLlm) -> tuple[str, str]:
    """Derek's battery, told twice: the second telling changes the fact."""
    llm.script(
        extraction(
            "Derek's efoil has a 12V20Ah battery",
            triples=(("Derek", "owns", "efoil"), ("efoil", "has battery", "12V20Ah battery")),
        )
    )
    first = mem.add("Derek: my efoil runs on a 12V20Ah battery", user_id="d")
    assert mem.jobs.process_pending() == 1
    llm.script(
        extraction(
            "Derek's efoil has a 48V battery",
            triples=(("efoil", "has battery", "48V battery"),),
        ),
        update_first_candidate,
    )
    second = mem.add("Derek: I swapped the battery for a 48V one", user_id="d")
    assert mem.jobs.process_pending() == 1
    return first.id, second.id


def test_full_mode_supersedes_with_the_llms_update(tmp_path: Path, llm: ScriptedLlm) -> None:
    with llm_memory(tmp_path, llm, allow_update_delete=True) as mem:
        _, second = story(mem, llm)
        [old] = [r for r in mem.get_all(user_id="d") if "12V20Ah" in r.content and r.who]
        assert old.superseded_by is not None
        assert mem.get(old.superseded_by, user_id="d").content == "Derek's efoil has a 48V battery"
        [audit] = proposals(mem, second, user_id="d")
        assert (audit["action"], audit["outcome"], audit["decided_by"]) == (
            "UPDATE",
            "superseded",
            "llm",
        )
        timeline = mem.graph.timeline("efoil", user_id="d")
        batteries = [r for r in timeline if r.relation_type == "has_battery"]
        assert [(r.target, r.valid_to is None) for r in batteries] == [
            ("12V20Ah battery", False),
            ("48V battery", True),
        ]
        hits = [h.memory.content for h in mem.recall("Derek's efoil battery", user_id="d").hits]
        assert "Derek's efoil has a 48V battery" in hits
        assert "Derek's efoil has a 12V20Ah battery" not in hits
        extract_request = llm.requests[0].body
        assert "format" in extract_request  # the extraction schema was sent


def test_controlled_mode_blocks_the_update(tmp_path: Path, llm: ScriptedLlm) -> None:
    with llm_memory(tmp_path, llm) as mem:
        _, second = story(mem, llm)
        [audit] = proposals(mem, second, user_id="d")
        assert (audit["action"], audit["outcome"]) == ("UPDATE", "blocked")
        assert audit["block_reason"] == "destructive_mutations_disabled"
        assert all(r.superseded_by is None for r in mem.get_all(user_id="d"))


def test_shadow_mode_writes_nothing_but_audits(tmp_path: Path, llm: ScriptedLlm) -> None:
    with llm_memory(tmp_path, llm, shadow_mode=True) as mem:
        llm.script(extraction("Derek's efoil has a 12V20Ah battery"))
        turn = mem.add("Derek: my efoil runs on a 12V20Ah battery", user_id="d")
        mem.jobs.process_pending()
        assert facts_of(mem, user_id="d") == []
        [audit] = proposals(mem, turn.id, user_id="d")
        assert (audit["action"], audit["outcome"], audit["mode"]) == ("ADD", "shadow", "shadow")


def test_a_provider_outage_retries_the_job(tmp_path: Path, llm: ScriptedLlm) -> None:
    with llm_memory(tmp_path, llm) as mem:
        llm.script(Reply(status=500, body="model crashed"))
        turn = mem.add("Derek: my efoil runs on a 12V20Ah battery", user_id="d")
        mem.jobs.process_pending()
        [job] = mem.jobs.list()
        assert job.status == "pending" and job.attempts == 1 and "HTTP 500" in (job.error or "")
        assert job.memory_id == turn.id


def test_bad_model_output_is_not_retried(tmp_path: Path, llm: ScriptedLlm) -> None:
    with llm_memory(tmp_path, llm) as mem:
        llm.script("I cannot help with that")
        mem.add("Derek: my efoil runs on a 12V20Ah battery", user_id="d")
        mem.jobs.process_pending()
        [job] = mem.jobs.list()
        assert job.status == "completed"
        assert json.dumps(job.result).count("facts") >= 1 and job.result is not None
        assert job.result["facts"] == 0

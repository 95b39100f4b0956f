"""Structural classification with a model (P10) against the scripted LLM server: the
prompt and schema sent, the answer applied, bad answers warned about and ruled, a
provider failure retried — on both backends."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.pipeline.classify import classify_schema
from engram.pipeline.worker import Worker
from engram.records import utcnow
from engram.store.protocols import Job
from llmserver import Reply, Request, ScriptedLlm, fenced, thinking

CLASSIFY = "You file what is known about one entity"
FACTS = (
    "Derek owns an efoil with a 12V20Ah battery",
    "Derek works at Acme as an engineer",
    "Derek decided to use Postgres for the billing project",
)


class Models:
    """Answers each request by what its prompt asks: extraction, decision or
    classification, each from its own queue (so the order of calls does not matter)."""

    def __init__(self, llm: ScriptedLlm) -> None:
        self.queues: dict[str, deque[str | Reply]] = {
            "extract": deque(),
            "decide": deque(),
            "classify": deque(),
        }
        llm.fallback = self.answer

    def kind(self, prompt: str) -> str:
        if prompt.startswith(CLASSIFY):
            return "classify"
        return "decide" if prompt.startswith("You maintain a memory store") else "extract"

    def answer(self, request: Request) -> str | Reply:
        queue = self.queues[self.kind(request.prompt or "")]
        if not queue:
            return Reply(status=500, body="nothing scripted for this prompt")
        return queue.popleft()


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


@pytest.fixture
def models(llm: ScriptedLlm) -> Models:
    return Models(llm)


@pytest.fixture
def mem(tmp_path: Path, store_location: str, llm: ScriptedLlm) -> Iterator[Memory]:
    config = Config.load(
        env={},
        home=str(tmp_path / "home"),
        llm={"provider": "ollama", "base_url": llm.url, "timeout_s": 5},
        pipeline={"linker": False},  # entities and their types come from the LLM here
    )
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


def extraction(*facts: str) -> str:
    return fenced(
        {
            "facts": [{"content": f, "type": "fact", "confidence": 0.9} for f in facts],
            "entities": [
                {"source": "Derek", "relationship": "owns", "target": "efoil", "confidence": 0.9}
            ],
        }
    )


def classify_requests(llm: ScriptedLlm) -> list[Request]:
    return [r for r in llm.requests_to("/api/generate") if (r.prompt or "").startswith(CLASSIFY)]


def classify_job(mem: Memory) -> Job:
    [job] = [j for j in mem.jobs.list(kind="classify", user_id="d") if j.result is not None]
    return job


def filed(mem: Memory) -> dict[str, tuple[str | None, str, float]]:
    """content -> (aspect name, kind, importance) of Derek's attributes."""
    names = {a.id: a.name for a in mem.graph.aspects("Derek", user_id="d")}
    return {
        a.content: (names.get(a.aspect_id or 0), a.kind, a.importance)
        for a in mem.graph.attributes("Derek", user_id="d")
    }


def test_one_call_per_entity_with_the_seed_prompt_and_schema(
    mem: Memory, llm: ScriptedLlm, models: Models
) -> None:
    models.queues["extract"].append(extraction(*FACTS))
    answer: dict[str, Any] = {
        "facts": [
            {"i": 0, "aspect": "Gear", "kind": "attribute", "new": True},
            {"i": 1, "aspect": "career", "kind": "constraint", "new": True},
            {"i": 2, "aspect": "career", "kind": "attribute", "new": False},
        ],
        "type": "person",
    }
    models.queues["classify"].append(thinking(answer))
    mem.add("Derek: efoil, Acme and Postgres news", user_id="d")
    mem.jobs.process_pending()
    [request] = classify_requests(llm)  # three facts, one entity: one call
    assert request.body["format"] == classify_schema(True)
    prompt = request.prompt or ""
    assert "Entity: Derek\nType: unknown\nExisting aspects: none yet" in prompt
    assert "Suggested aspect names: properties, status, history" in prompt
    assert all(f"{i}. {fact}" in prompt for i, fact in enumerate(FACTS))
    assert filed(mem) == {
        FACTS[0]: ("Gear", "attribute", 0.5),
        FACTS[1]: ("career", "constraint", 0.85),  # the model may promote ...
        FACTS[2]: ("career", "constraint", 0.85),  # ... but never demote a decision (P9)
    }
    assert mem.graph.entity("Derek", user_id="d").entity_type == "person"
    job = classify_job(mem)
    assert job.result is not None
    assert job.result["by"] == {"llm": 3, "rules": 0} and job.result["warnings"] == []
    assert job.result["entity_type"] == "person" and job.result["model"] == "qwen3:4b"

    # A later fact: the prompt lists the aspects made so far and no longer asks the type.
    models.queues["extract"].append(extraction("Derek sold his old kayak last spring"))
    models.queues["decide"].extend(
        thinking({"action": "ADD", "confidence": 0.9, "reason": "new"}) for _ in range(3)
    )
    models.queues["classify"].append(
        fenced([{"i": 0, "aspect": "gear", "kind": "attribute", "new": False}])  # bare array
    )
    mem.add("Derek: sold the kayak", user_id="d")
    mem.jobs.process_pending()
    later = classify_requests(llm)[-1]
    assert later.body["format"] == classify_schema(False)
    assert "Type: person\nExisting aspects: " in (later.prompt or "")
    assert {"Gear", "career"} <= set(
        (later.prompt or "").split("Existing aspects: ")[1].split("\n")[0].split(", ")
    )
    assert filed(mem)["Derek sold his old kayak last spring"][0] == "Gear"  # the same aspect


def test_bad_answers_become_warnings_and_the_rules_classify(
    mem: Memory, llm: ScriptedLlm, models: Models
) -> None:
    models.queues["extract"].append(extraction(*FACTS))
    models.queues["classify"].append(
        'Sure! {"facts": [{"i": 9, "aspect": "x", "kind": "attribute", "new": true},'
        ' {"i": 1, "aspect": "career", "kind": "duty", "new": true}], "type": "robot"}'
    )
    mem.add("Derek: efoil, Acme and Postgres news", user_id="d")
    mem.jobs.process_pending()
    job = classify_job(mem)
    assert job.status == "completed" and job.result is not None
    warnings = " | ".join(job.result["warnings"])
    assert "'robot'" in warnings and "fact 9" in warnings and "'duty'" in warnings
    assert "the rules classified facts [0, 2]" in warnings
    assert job.result["by"] == {"llm": 1, "rules": 2}
    assert filed(mem) == {
        FACTS[0]: ("possessions", "attribute", 0.5),
        FACTS[1]: ("career", "attribute", 0.5),  # the model's aspect, the rules' kind
        FACTS[2]: ("plans", "constraint", 0.85),
    }
    # The type the model got wrong comes from the rules (Derek owns an efoil).
    assert mem.graph.entity("Derek", user_id="d").entity_type == "person"


def test_a_provider_failure_retries_the_job(mem: Memory, llm: ScriptedLlm, models: Models) -> None:
    models.queues["extract"].append(extraction(*FACTS))
    models.queues["classify"].append(Reply(status=500, body="model crashed"))
    mem.add("Derek: efoil, Acme and Postgres news", user_id="d")
    mem.jobs.process_pending()
    [job] = mem.jobs.list(kind="classify", user_id="d")
    assert job.status == "pending" and job.attempts == 1 and "HTTP 500" in (job.error or "")
    assert {aspect for aspect, _, _ in filed(mem).values()} == {None}  # nothing half-done
    models.queues["classify"].append(
        fenced(
            {
                "facts": [
                    {"i": i, "aspect": "news", "kind": "attribute", "new": True} for i in range(3)
                ],
                "type": "person",
            }
        )
    )
    later = Worker(mem._core, clock=lambda: utcnow() + timedelta(minutes=5))
    assert later.run_pending() == 1  # past its backoff, the job runs again
    job = classify_job(mem)
    assert job.status == "completed" and job.attempts == 2
    assert {aspect for aspect, _, _ in filed(mem).values()} == {"news"}
    assert len(classify_requests(llm)) == 2

"""The LLM's judgement on a changed fact (issue 28, FEATURES G2) against the scripted
model server on 127.0.0.1: free-form relation names map to the vocabulary, the model
decides a pair the text gives no signal for, and a failed call falls back to the
declared cardinality — on both backends."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.pipeline.change_judge import OPENING, SCHEMA
from llmserver import Reply, Request, ScriptedLlm, fenced

JAN = datetime(2024, 1, 5, 9, tzinfo=UTC)
FEB = datetime(2024, 2, 5, 9, tzinfo=UTC)


class Models:
    """The scripted server, answering extraction and change prompts from their own
    queues; ``judged`` lists the change prompts it was sent."""

    def __init__(self, server: ScriptedLlm) -> None:
        self.server = server
        self.extract: deque[str | Reply] = deque()
        self.judge: deque[str | Reply] = deque()
        server.fallback = self.answer

    def answer(self, request: Request) -> str | Reply:
        queue = self.judge if (request.prompt or "").startswith(OPENING) else self.extract
        return queue.popleft() if queue else Reply(status=500, body="nothing scripted")

    def judged(self) -> list[Request]:
        return [r for r in self.server.requests if (r.prompt or "").startswith(OPENING)]


@pytest.fixture
def models() -> Iterator[Models]:
    with ScriptedLlm() as server:
        yield Models(server)


@pytest.fixture
def mem(tmp_path: Path, store_location: str, models: Models) -> Iterator[Memory]:
    llm = {"provider": "ollama", "base_url": models.server.url, "timeout_s": 5}
    # Only the extract job writes the graph here, from the model's triples.
    pipeline = {"linker": False, "classify": False}
    config = Config.load(env={}, home=str(tmp_path / "home"), llm=llm, pipeline=pipeline)
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


def extraction(source: str, relationship: str, target: str) -> str:
    triple = {"source": source, "relationship": relationship, "target": target, "confidence": 0.9}
    return fenced({"facts": [], "entities": [triple]})


def told(mem: Memory, models: Models, text: str, when: datetime, triple: tuple[str, str, str]):
    models.extract.append(extraction(*triple))
    record = mem.add(text, created_at=when)
    mem.jobs.process_pending()
    return record


def facts(mem: Memory) -> list[tuple[str, str, str, bool]]:
    return [
        (r.source, r.relation_type, r.target, r.current)
        for r in mem.graph.relations(current_only=False)
    ]


def test_the_model_closes_a_relation_nothing_declares(mem: Memory, models: Models) -> None:
    told(mem, models, "Ola: my favourite band is Muse", JAN, ("Ola", "Favourite-Band", "Muse"))
    assert models.judged() == []  # nothing held before: nothing to ask
    models.judge.append(fenced({"replaces": True, "reasoning": "her taste changed"}))
    told(
        mem,
        models,
        "Ola: these days I mostly listen to Blur",
        FEB,
        ("Ola", "favourite band", "Blur"),
    )
    [request] = models.judged()
    assert request.body["format"] == SCHEMA
    prompt = request.prompt or ""
    assert "Earlier memory: Ola: my favourite band is Muse" in prompt
    assert "Fact it stated: Ola favourite band Muse" in prompt
    assert "Later memory: Ola: these days I mostly listen to Blur" in prompt
    assert facts(mem) == [
        ("Ola", "favourite_band", "Muse", False),
        ("Ola", "favourite_band", "Blur", True),
    ]


def test_the_model_keeps_both_when_they_hold_at_once(mem: Memory, models: Models) -> None:
    told(mem, models, "Derek works at Acme", JAN, ("Derek", "is_employed_by", "Acme"))
    models.judge.append(json.dumps({"replaces": False, "reasoning": "a weekend job"}))
    told(
        mem,
        models,
        "Derek: I work at Initech on weekends",
        FEB,
        ("Derek", "currently_works_for", "Initech"),
    )
    assert len(models.judged()) == 1
    # Free-form names are one relation; without the model, works_at would have closed.
    assert facts(mem) == [
        ("Derek", "works_at", "Acme", True),
        ("Derek", "works_at", "Initech", True),
    ]


def test_a_failed_call_falls_back_to_the_declared_cardinality(mem: Memory, models: Models) -> None:
    told(mem, models, "The billing service uses MySQL", JAN, ("billing", "uses", "MySQL"))
    models.judge.append(Reply(status=500, body="model crashed"))
    later = told(
        mem,
        models,
        "Billing talks to Postgres",
        FEB,
        ("billing", "primary_datastore", "Postgres"),
    )
    assert len(models.judged()) == 1
    # The rules read "the billing service" too: one subject, named as first known.
    assert facts(mem) == [
        ("billing service", "uses_database", "MySQL", False),
        ("billing service", "uses_database", "Postgres", True),
    ]
    [job] = [j for j in mem.jobs.list(kind="extract") if j.memory_id == later.id]
    assert job.status == "completed" and job.result is not None
    assert any("change check unavailable" in w for w in job.result["warnings"])

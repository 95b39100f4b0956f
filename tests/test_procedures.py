"""seed 002's procedural memory from failures (FEATURES S7) on both backends: the LLM
proposer on a loopback model server, the offline template, ``min_confidence``, storage as
a non-inferable procedural memory, and the SKILL.md file; time moved by hand."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import run_doc_example
from engram import Memory
from engram.config import Config
from engram.errors import CapabilityError, InvalidInputError, NotFoundError
from engram.procedures import Failure, Procedure, skill_markdown
from engram.procedures.proposer import template
from llmserver import Reply, ScriptedLlm, fenced, thinking

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)

FAILURE: dict[str, Any] = {
    "task": "Run the database migrations for the billing service",
    "error": "psycopg.OperationalError: connection refused (port 5433)\n  at connect()",
    "steps": ["alembic upgrade head", "alembic upgrade head --sql"],
    "trace": "File migrate.py, line 12, in connect\nOperationalError",
    "retries": 2,
    "turns": 7,
}

PROPOSAL = {
    "name": "Check DB Port Before Migrating",
    "discovery": "Billing migrations fail with connection refused when the DB port is wrong.",
    "condition": "Running billing migrations and the database refuses connections",
    "action": "Read the port from the service's .env (5432) before running alembic",
    "rationale": "The migration tool defaulted to 5433, where nothing listens",
    "steps": ["Open services/billing/.env", "Export DATABASE_URL with port 5432", "Run alembic"],
    "confidence": 0.85,
}


def _config(tmp_path: Path, **procedural: Any) -> Config:
    config = Config.load(env={"ENGRAM_PIPELINE_LINKER": "false"}, home=str(tmp_path / "h"))
    return config.with_overrides(procedural=procedural) if procedural else config


@pytest.fixture
def mem(tmp_path: Path, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path), embedder=None) as m:
        m.procedures.clock = lambda: T0
        yield m


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


@pytest.fixture
def llm_mem(tmp_path: Path, store_location: str, llm: ScriptedLlm) -> Iterator[Memory]:
    config = _config(tmp_path).with_overrides(
        llm={"provider": "ollama", "base_url": llm.url, "model": "qwen3:4b", "timeout_s": 5}
    )
    with Memory(store_location, config=config, embedder=None) as m:
        m.procedures.clock = lambda: T0
        yield m


# -- the LLM proposer --------------------------------------------------------------------
def test_the_llm_proposes_three_tiers_that_are_stored(llm_mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(thinking(PROPOSAL))
    proposed = llm_mem.procedures.propose(FAILURE)
    assert proposed.method == "llm" and proposed.confidence == 0.85
    assert proposed.name == "check-db-port-before-migrating"
    assert proposed.steps == tuple(PROPOSAL["steps"])
    assert proposed.condition.startswith("Running billing migrations")
    # A separate call with its own prompt, seeing the payload but no conversation.
    [request] = llm.requests
    prompt = " ".join(request.body["prompt"].split())
    assert "You are not the agent that failed" in prompt
    assert "alembic upgrade head --sql" in prompt and '"retries": 2' in prompt
    assert request.body["format"]["required"] == [
        "discovery",
        "condition",
        "action",
        "steps",
        "confidence",
    ]
    stored = llm_mem.get(proposed.memory_id or "")
    assert stored.type.value == "procedural" and stored.category is not None
    assert stored.category.value == "procedural"
    assert set(stored.tags) == {"non-inferable", "procedure"}
    assert stored.created_at == T0 and stored.confidence == 0.85
    assert "Export DATABASE_URL with port 5432" in stored.content
    assert llm_mem.procedures.get(stored.id) == proposed
    # Recall finds it for the next attempt, also under the non-inferable filter.
    hits = llm_mem.search(
        "billing migrations connection refused", filters={"tags": ["non-inferable"]}
    )
    assert hits[0].memory.id == stored.id


def test_an_llm_proposal_under_min_confidence_is_not_stored(
    llm_mem: Memory, llm: ScriptedLlm
) -> None:
    llm.script(fenced({**PROPOSAL, "confidence": 0.49}))
    proposed = llm_mem.procedures.propose(FAILURE)
    assert proposed.confidence == 0.49 and proposed.memory_id is None
    assert llm_mem.get_all() == [] and llm_mem.procedures.list() == []


def test_a_failing_llm_falls_back_to_the_template(llm_mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(Reply(status=500, body="model crashed"), "no json here at all")
    first = llm_mem.procedures.propose(FAILURE)
    second = llm_mem.procedures.propose({**FAILURE, "task": "Another task"})
    assert first.method == second.method == "template"
    assert first.memory_id is not None  # the template's evidence reaches 0.5+


def test_the_procedural_model_setting_asks_that_model(
    tmp_path: Path, store_location: str, llm: ScriptedLlm
) -> None:
    config = _config(tmp_path, model="proposer-small").with_overrides(
        llm={"provider": "ollama", "base_url": llm.url, "model": "qwen3:4b", "timeout_s": 5}
    )
    llm.script(fenced(PROPOSAL))
    with Memory(store_location, config=config, embedder=None) as m:
        m.procedures.propose(FAILURE, store=False)
    assert llm.requests[0].body["model"] == "proposer-small"


# -- the offline template ------------------------------------------------------------------
def test_the_template_confidence_follows_the_evidence() -> None:
    bare = template(Failure(task="Deploy", error="timeout"))
    assert bare.confidence == 0.4 and bare.method == "template"
    with_steps = template(Failure(task="Deploy", error="timeout", steps=("kubectl apply",)))
    assert with_steps.confidence == 0.5
    full = template(
        Failure(task="Deploy", error="timeout", steps=("kubectl apply",), trace="pod pending")
    )
    assert full.confidence == 0.6
    assert any("kubectl apply" in s for s in full.steps)
    assert any("pod pending" in s for s in full.steps)


def test_offline_min_confidence_discards_a_bare_payload(mem: Memory) -> None:
    bare = mem.procedures.propose({"task": "Deploy the API", "error": "timeout after 30s"})
    assert bare.confidence == 0.4 and bare.memory_id is None
    assert mem.get_all() == []
    kept = mem.procedures.propose(FAILURE)
    assert kept.method == "template" and kept.memory_id is not None
    assert kept.discovery.startswith("When doing 'Run the database migrations")
    assert "connection-refused" in kept.name and len(kept.name) <= 64
    assert "(after 2 retries and 7 turns)" in kept.rationale
    assert [p.memory_id for p in mem.procedures.list()] == [kept.memory_id]


def test_min_confidence_is_configurable(tmp_path: Path, store_location: str) -> None:
    with Memory(store_location, config=_config(tmp_path, min_confidence=0.3), embedder=None) as m:
        assert m.procedures.propose({"task": "Deploy", "error": "timeout"}).memory_id
    with Memory(store_location, config=_config(tmp_path, min_confidence=0.9), embedder=None) as m:
        assert m.procedures.propose(FAILURE).memory_id is None


def test_secrets_in_the_payload_are_redacted_before_anything_sees_them(mem: Memory) -> None:
    failure = {**FAILURE, "error": "auth failed for API_KEY=sk-abcdefghijklmnopqrstuvwxyz123"}
    proposed = mem.procedures.propose(failure)
    record = mem.get(proposed.memory_id or "")
    assert "sk-abcdefghijklmnop" not in record.content
    assert "sk-abcdefghijklmnop" not in str(record.metadata)


def test_disabled_procedural_memory_refuses(tmp_path: Path, store_location: str) -> None:
    config = _config(tmp_path, enabled=False)
    with (
        Memory(store_location, config=config, embedder=None) as m,
        pytest.raises(CapabilityError, match="enabled = false"),
    ):
        m.procedures.propose(FAILURE)


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        ("it broke", "failure must be a dict"),
        ({"task": "t"}, "failure error must be a string"),
        ({"task": " ", "error": "e"}, "failure task must not be empty"),
        ({"task": "t", "error": "e", "mood": "sad"}, "unknown failure field 'mood'"),
        ({"task": "t", "error": "e", "steps": "one"}, "steps must be a list"),
        ({"task": "t", "error": "e", "retries": -1}, "retries must be a non-negative"),
    ],
)
def test_bad_payloads_are_refused(mem: Memory, failure: Any, message: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        mem.procedures.propose(failure)
    assert message in str(err.value)
    assert mem.get_all() == []


def test_get_refuses_a_memory_that_is_not_a_procedure(mem: Memory) -> None:
    other = mem.add("Just a fact")
    with pytest.raises(NotFoundError, match="not a proposed procedure"):
        mem.procedures.get(other.id)


# -- SKILL.md ---------------------------------------------------------------------------
def _frontmatter(text: str) -> dict[str, str]:
    head = text.split("---\n")[1]
    top = [line for line in head.splitlines() if ": " in line and not line.startswith(" ")]
    return dict(line.split(": ", 1) for line in top)


def test_skill_md_follows_the_agent_skills_format(llm_mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(fenced({**PROPOSAL, "discovery": 'Use "port 5432": migrations: billing'}))
    proposed = llm_mem.procedures.propose(FAILURE, store=False)
    text = skill_markdown(proposed)
    assert text.startswith("---\nname: check-db-port-before-migrating\n")
    meta = _frontmatter(text)
    assert meta["name"] == "check-db-port-before-migrating"
    assert meta["description"] == '"Use \\"port 5432\\": migrations: billing"'  # YAML-safe
    yaml = pytest.importorskip("yaml")  # a real YAML parser reads the frontmatter back
    parsed = yaml.safe_load(text.split("---\n")[1])
    assert parsed["description"] == 'Use "port 5432": migrations: billing'
    assert parsed["metadata"] == {"confidence": "0.85", "proposer": "llm"}
    body = text.split("---\n", 2)[2]
    assert "## When to use\n\nRunning billing migrations" in body
    assert "## What to do\n\nRead the port" in body
    assert "## Why\n\nThe migration tool defaulted" in body
    assert "## Steps\n\n1. Open services/billing/.env\n2. Export" in body


def test_propose_writes_skill_md_to_the_given_or_configured_directory(
    tmp_path: Path, store_location: str
) -> None:
    configured = tmp_path / "skills"
    with Memory(
        store_location, config=_config(tmp_path, skill_md_directory=str(configured)), embedder=None
    ) as m:
        stored = m.procedures.propose(FAILURE)
        assert stored.skill_path == str(configured / stored.name / "SKILL.md")
        text = Path(stored.skill_path).read_text(encoding="utf-8")
        assert f'engram-memory-id: "{stored.memory_id}"' in text
        elsewhere = m.procedures.propose({**FAILURE, "task": "Other"}, skill_dir=tmp_path / "x")
        assert elsewhere.skill_path and elsewhere.skill_path.startswith(str(tmp_path / "x"))
        # Discarded proposals write no file.
        bare = m.procedures.propose({"task": "Deploy", "error": "timeout"})
        assert bare.skill_path is None and not (configured / bare.name).exists()
        later = m.procedures.write_skill(stored.memory_id or "", tmp_path / "later")
        assert later.read_text(encoding="utf-8") == text


def test_write_skill_replaces_an_earlier_version_and_reports_unwritable_places(
    mem: Memory, tmp_path: Path
) -> None:
    first = Procedure("fix-it", "first", "c", "a", "r", ("one",), 0.7, "template")
    path = mem.procedures.write_skill(first, tmp_path)
    second = Procedure("fix-it", "second", "c", "a", "r", ("two",), 0.7, "template")
    assert mem.procedures.write_skill(second, tmp_path) == path
    assert 'description: "second"' in path.read_text(encoding="utf-8")
    assert [p.name for p in path.parent.iterdir()] == ["SKILL.md"]  # no temp files left
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="cannot write SKILL.md"):
        mem.procedures.write_skill(first, blocker)


# -- docs ------------------------------------------------------------------------------------
def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    run_doc_example(capsys, "procedures.md")

"""Writing hints (seed 004's prospective index): the offline templates, the LLM through
the scripted model server, and the ``hints`` job handler on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.errors import ConfigError, InvalidInputError, LlmError
from engram.llm import OllamaProvider
from engram.pipeline import handlers
from engram.pipeline.hints import (
    TEMPLATE_MODEL,
    UnusableHints,
    backfill,
    generate,
    handle_hints_job,
    hints_schema,
    llm_hints,
    template_hints,
)
from engram.records import utcnow
from engram.store.protocols import Job
from llmserver import Reply, ScriptedLlm, fenced, thinking

NS = "user:alice"


@pytest.fixture
def config(config: Config) -> Config:
    """Hints are off by default (they did not measure better); these tests turn them on."""
    return config.with_overrides(pipeline={"hints": True})


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def leased(memory_id: str | None, attempt: int = 1, **payload: Any) -> Job:
    """The job as the worker hands it to the handler (attempts already counted)."""
    return Job(
        id=7,
        kind="hints",
        namespace=NS,
        status="leased",
        attempts=attempt,
        max_attempts=3,
        created_at=utcnow(),
        memory_id=memory_id,
        payload=dict(payload),
    )


# -- templates ---------------------------------------------------------------------------


def test_a_past_event_asks_when_with_the_base_verb() -> None:
    hints = template_hints("Caroline: I went to a LGBTQ support group yesterday.")
    assert hints == ["When did Caroline go to LGBTQ support group?"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Melanie: I ran a charity race last Saturday.", "When did Melanie run a charity race?"),
        (
            "Caroline: I'm keen on counseling or working in mental health.",
            "Is Caroline keen on counseling or working in mental health?",
        ),
        (
            "Caroline: I'm going to the transgender conference next month.",
            "When is Caroline going to the transgender conference?",
        ),
        ("Jon: I love contemporary dance.", "What does Jon like?"),
        ("Jon: I love contemporary dance.", "Does Jon love contemporary dance?"),
        ("Jon: I live in Paris with my wife.", "Where does Jon live?"),
    ],
)
def test_templates_ask_what_the_memory_answers(text: str, expected: str) -> None:
    assert expected in template_hints(text)


def test_a_shared_picture_asks_about_its_caption() -> None:
    hints = template_hints(
        "Melanie: Look what I finished today! [image: a photo of a clay vase with a blue glaze]"
    )
    assert "What picture of a clay vase with a blue glaze did Melanie share?" in hints


def test_text_no_rule_reads_gets_no_hints() -> None:
    # Questions from bare key words were measured and dropped (docs/benchmarks.md).
    assert template_hints("Caroline: Wow, Melanie! That adoption agency sounds great!") == []
    assert template_hints("Hey! How are you?") == []


def test_templates_are_deterministic_capped_and_free_of_repeats() -> None:
    text = (
        "Caroline: I went to a support group yesterday. I love painting and hiking. "
        "I moved to Boston last year. I work at a shelter. I adopted a dog named Rex."
    )
    first = template_hints(text, limit=3)
    assert first == template_hints(text, limit=3)
    assert len(first) == 3
    everything = template_hints(text, limit=20)
    assert len(everything) == len(set(everything)) > 3


def test_offline_generation_needs_no_model() -> None:
    made = generate("Jon: I live in Paris.", provider=None, limit=5)
    assert made.model == TEMPLATE_MODEL
    assert "Where does Jon live?" in made.hints


def test_the_llm_extractor_setting_without_a_provider_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no LLM provider"):
        generate("Jon: I live in Paris.", provider=None, extractor="llm")


# -- the LLM -----------------------------------------------------------------------------


def test_the_llm_is_asked_for_questions_with_a_schema(llm: ScriptedLlm) -> None:
    llm.script(fenced({"hints": ["Where does Jon live?", "Which city is Jon in?"]}))
    provider = OllamaProvider(base_url=llm.url, model="qwen3:4b")
    made = llm_hints(provider, "Jon: I live in Paris.", limit=4)
    assert made.hints == ("Where does Jon live?", "Which city is Jon in?")
    assert made.model == "qwen3:4b"
    request = llm.requests_to("/api/generate")[0]
    assert request.prompt is not None and "Jon: I live in Paris." in request.prompt
    assert "up to 4 short questions" in request.prompt
    assert request.body["format"] == hints_schema(4)
    assert llm.pending == 0


def test_the_llm_answer_is_cleaned_and_capped(llm: ScriptedLlm) -> None:
    llm.script(thinking(["Where does Jon live?", "where does jon live", 3, "A?", "B?", "C?"]))
    provider = OllamaProvider(base_url=llm.url)
    made = llm_hints(provider, "Jon: I live in Paris.", limit=3)
    assert made.hints == ("Where does Jon live?", "A?", "B?")
    assert made.warnings == ("the model gave 6 hints; the first 3 are kept",)


@pytest.mark.parametrize("answer", ["I cannot help with that.", '{"questions": "none"}', "[]"])
def test_an_unusable_answer_is_not_worth_a_retry(llm: ScriptedLlm, answer: str) -> None:
    llm.script(answer)
    with pytest.raises(UnusableHints):
        llm_hints(OllamaProvider(base_url=llm.url), "Jon: I live in Paris.", limit=3)


def test_a_provider_failure_is_an_llm_error(llm: ScriptedLlm) -> None:
    llm.script(Reply(status=500, body="boom"))
    with pytest.raises(LlmError) as caught:
        llm_hints(OllamaProvider(base_url=llm.url), "Jon: I live in Paris.", limit=3)
    assert not isinstance(caught.value, UnusableHints)


# -- the job -----------------------------------------------------------------------------


def test_the_handler_is_registered_for_hints_jobs() -> None:
    assert handlers.handler_for("hints") is handle_hints_job


def test_the_job_stores_template_hints_offline(mem: Memory) -> None:
    memory = mem.add("Jon: I live in Paris with my wife.", namespace=NS)
    result = handle_hints_job(mem._core, leased(memory.id))
    stored = mem.store.hints.get(NS, memory.id)
    assert stored is not None
    assert result == {"hints": len(stored.hints), "model": TEMPLATE_MODEL}
    assert "Where does Jon live?" in stored.hints
    again = handle_hints_job(mem._core, leased(memory.id, attempt=2))  # safe to rerun
    assert again == result
    rerun = mem.store.hints.get(NS, memory.id)
    assert rerun is not None and rerun.hints == stored.hints


def test_the_job_respects_max_hints(mem: Memory) -> None:
    memory = mem.add(
        "Caroline: I went to a support group. I love painting. I moved to Boston. "
        "I work at a shelter. I adopted a dog named Rex.",
        namespace=NS,
    )
    assert handle_hints_job(mem._core, leased(memory.id, max_hints=2))["hints"] == 2


def test_the_job_skips_a_memory_that_is_gone(mem: Memory) -> None:
    memory = mem.add("Jon: I live in Paris.", namespace=NS)
    mem.delete(memory.id, namespace=NS)
    result = handle_hints_job(mem._core, leased(memory.id))
    assert result["hints"] == 0 and "gone" in result["skipped"]
    with pytest.raises(InvalidInputError):
        handle_hints_job(mem._core, leased(None))


@pytest.fixture
def llm_mem(config: Config, store_location: str, llm: ScriptedLlm) -> Iterator[Memory]:
    """A memory whose pipeline asks the scripted model, on each backend."""
    cfg = config.with_overrides(llm={"provider": "ollama", "base_url": llm.url})
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as m:
        yield m


def test_the_job_stores_the_models_hints(llm_mem: Memory, llm: ScriptedLlm) -> None:
    memory = llm_mem.add("Jon: I live in Paris with my wife.", namespace=NS)
    llm.script(fenced({"hints": ["Which city does Jon call home?", "Who is Jon married to?"]}))
    result = handle_hints_job(llm_mem._core, leased(memory.id))
    assert result == {"hints": 2, "model": "qwen3:4b"}
    stored = llm_mem.store.hints.get(NS, memory.id)
    assert stored is not None and stored.model == "qwen3:4b"
    found = llm_mem.store.hints.search(NS, '"home" OR "city"', 5)
    assert [m for m, _ in found] == [memory.id]


def test_a_failing_provider_is_retried_then_replaced_by_templates(
    llm_mem: Memory, llm: ScriptedLlm
) -> None:
    memory = llm_mem.add("Jon: I live in Paris with my wife.", namespace=NS)
    llm.script(Reply(status=503, body="busy"), Reply(status=503, body="busy"))
    with pytest.raises(LlmError):  # the worker retries it
        handle_hints_job(llm_mem._core, leased(memory.id, attempt=1))
    assert llm_mem.store.hints.get(NS, memory.id) is None
    result = handle_hints_job(llm_mem._core, leased(memory.id, attempt=3))  # the last one
    assert result["model"] == TEMPLATE_MODEL and result["hints"] >= 1
    assert "template hints stored instead" in result["warnings"][0]


def test_an_unusable_answer_falls_back_to_templates_at_once(
    llm_mem: Memory, llm: ScriptedLlm
) -> None:
    memory = llm_mem.add("Jon: I live in Paris with my wife.", namespace=NS)
    llm.script("Sorry, I can't do that.")
    result = handle_hints_job(llm_mem._core, leased(memory.id, attempt=1))
    assert result["model"] == TEMPLATE_MODEL
    assert "no usable hints" in result["warnings"][0]


def test_backfill_gives_every_live_memory_hints_once(mem: Memory) -> None:
    ids = [
        mem.add(text, namespace=NS).id
        for text in (
            "Jon: I live in Paris.",
            "Hey! How are you?",
            "Mel: I ran a charity race for the animal shelter last Saturday.",
        )
    ]
    assert backfill(mem.store, NS) == 2  # the greeting has nothing to ask about
    assert mem.store.hints.missing(NS) == [ids[1]]
    assert backfill(mem.store, NS) == 0

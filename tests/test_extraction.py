"""The extraction stage (seed 004, FEATURES P2): validation of a model's answer, the
prompt and schema, the LLM path against the scripted model server, and the choice
between the LLM and the offline rules."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.errors import ConfigError
from engram.llm import OllamaProvider, OpenAICompatProvider
from engram.pipeline.extraction import (
    DEFAULT_CONFIDENCE,
    EXTRACTION_SCHEMA,
    FACT_TYPES,
    MAX_ENTITIES,
    MAX_FACT_CHARS,
    MAX_FACTS,
    MAX_WARNINGS,
    MIN_FACT_CHARS,
    OFFLINE_MODEL,
    ExtractedEntity,
    ExtractedFact,
    ExtractionResult,
    Failure,
    build_prompt,
    extract,
    extract_with_llm,
    validate,
)
from engram.records import MemoryType
from engram.settings import PipelineConfig
from llmserver import Reply, ScriptedLlm, fenced, thinking, truncated

GOOD: dict[str, Any] = {
    "facts": [
        {"content": "Priya prefers tabs over spaces.", "type": "preference", "confidence": 0.9},
        {"content": "Priya's sister Ana lives in Lisbon.", "type": "fact", "confidence": 0.8},
    ],
    "entities": [
        {"source": "Ana", "relationship": "lives_in", "target": "Lisbon", "confidence": 0.8}
    ],
}


def fact(content: str = "A fact long enough to keep.", **fields: Any) -> dict[str, Any]:
    return {"content": content, "type": "fact", "confidence": 0.7} | fields


def entity(**fields: Any) -> dict[str, Any]:
    return {
        "source": "Ana",
        "relationship": "lives_in",
        "target": "Lisbon",
        "confidence": 0.8,
    } | fields


# -- validation: seed 004's rules ------------------------------------------------------


def test_a_valid_answer_is_kept_as_it_is() -> None:
    result = validate(GOOD, model="m")
    assert result == ExtractionResult(
        facts=(
            ExtractedFact("Priya prefers tabs over spaces.", MemoryType.PREFERENCE, 0.9),
            ExtractedFact("Priya's sister Ana lives in Lisbon.", MemoryType.FACT, 0.8),
        ),
        entities=(ExtractedEntity("Ana", "lives_in", "Lisbon", 0.8),),
        warnings=(),
        model="m",
    )
    assert not result.failed and not result.retryable


def test_facts_are_capped_at_20() -> None:
    result = validate({"facts": [fact(f"Fact number {i} is kept.") for i in range(25)]})
    assert len(result.facts) == MAX_FACTS == 20
    assert result.facts[-1].content == "Fact number 19 is kept."
    assert result.warnings == (
        "5 facts over the cap of 20 dropped",
        "the answer has no 'entities' array",
    )


def test_rejected_facts_do_not_use_up_the_cap() -> None:
    raw = [fact("short")] * 3 + [fact(f"Fact number {i} is kept.") for i in range(20)]
    result = validate({"facts": raw, "entities": []})
    assert len(result.facts) == 20
    assert result.warnings == ("fact 0: shorter than 10 characters; rejected",) + tuple(
        f"fact {i}: shorter than 10 characters; rejected" for i in (1, 2)
    )


def test_a_fact_shorter_than_10_characters_is_rejected() -> None:
    result = validate(
        {"facts": [fact("123456789"), fact("1234567890"), fact("  a   b  ")], "entities": []}
    )
    assert [f.content for f in result.facts] == ["1234567890"]
    assert len(result.warnings) == 2
    assert MIN_FACT_CHARS == 10


def test_a_fact_longer_than_2000_characters_is_truncated() -> None:
    result = validate({"facts": [fact("x" * 2001), fact("y" * 2000)], "entities": []})
    assert (
        [len(f.content) for f in result.facts] == [MAX_FACT_CHARS, MAX_FACT_CHARS] == [2000, 2000]
    )
    assert result.warnings == ("fact 0: 2001 characters truncated to 2000",)


def test_fact_text_is_normalised_like_stored_content() -> None:
    (kept,) = validate({"facts": [fact("  Jon   moved\nto Berlin.  ")], "entities": []}).facts
    assert kept.content == "Jon moved to Berlin."


@pytest.mark.parametrize(
    ("given_type", "kept", "warned"),
    [
        ("preference", MemoryType.PREFERENCE, False),
        (" Decision ", MemoryType.DECISION, False),
        ("procedural", MemoryType.PROCEDURAL, False),
        ("semantic", MemoryType.SEMANTIC, False),
        ("opinion", MemoryType.FACT, True),
        ("message", MemoryType.FACT, True),  # a memory type, but not one extraction makes
        (None, MemoryType.FACT, True),
        (3, MemoryType.FACT, True),
    ],
)
def test_an_unknown_type_is_coerced_to_fact_with_a_warning(
    given_type: object, kept: MemoryType, warned: bool
) -> None:
    (result,) = validate({"facts": [fact(type=given_type)], "entities": []}).facts
    warnings = validate({"facts": [fact(type=given_type)], "entities": []}).warnings
    assert result.type is kept
    assert bool(warnings) is warned
    if warned:
        assert warnings == (f"fact 0: unknown type {given_type!r} coerced to 'fact'",)


def test_entities_are_capped_at_50() -> None:
    result = validate({"facts": [], "entities": [entity(target=f"City {i}") for i in range(60)]})
    assert len(result.entities) == MAX_ENTITIES == 50
    assert result.warnings == ("10 entities over the cap of 50 dropped",)


@pytest.mark.parametrize(
    ("broken", "warning"),
    [
        ({"source": ""}, "entity 0: source is missing or empty; rejected"),
        ({"target": "   "}, "entity 0: target is missing or empty; rejected"),
        ({"relationship": None}, "entity 0: relationship is missing or empty; rejected"),
        ({"source": 42}, "entity 0: source is missing or empty; rejected"),
    ],
)
def test_an_entity_needs_source_relationship_and_target(
    broken: dict[str, Any], warning: str
) -> None:
    result = validate({"facts": [], "entities": [entity(**broken), entity()]})
    assert len(result.entities) == 1
    assert result.warnings == (warning,)


def test_an_entity_missing_a_key_is_rejected_and_an_alias_is_read() -> None:
    no_target = {k: v for k, v in entity().items() if k != "target"}
    aliased = {"source": "Ana", "relation": "sister_of", "target": "Priya", "confidence": 0.9}
    result = validate({"facts": [], "entities": [no_target, aliased, "Ana -> Lisbon"]})
    assert result.entities == (ExtractedEntity("Ana", "sister_of", "Priya", 0.9),)
    assert result.warnings == (
        "entity 0: target is missing or empty; rejected",
        "entity 1: relationship given as 'relation'",
        "entity 2: str is not an entity object; rejected",
    )


@pytest.mark.parametrize(
    ("given", "kept", "warning"),
    [
        (0.42, 0.42, None),
        (1, 1.0, None),
        (1.7, 1.0, "fact 0: confidence 1.7 clamped to 1"),
        (-0.2, 0.0, "fact 0: confidence -0.2 clamped to 0"),
        ("0.8", 0.8, "fact 0: confidence given as text '0.8'"),
        (None, DEFAULT_CONFIDENCE, f"fact 0: no confidence; using {DEFAULT_CONFIDENCE}"),
        (
            "high",
            DEFAULT_CONFIDENCE,
            f"fact 0: confidence 'high' is not a number; using {DEFAULT_CONFIDENCE}",
        ),
        (
            True,
            DEFAULT_CONFIDENCE,
            f"fact 0: confidence True is not a number; using {DEFAULT_CONFIDENCE}",
        ),
        (
            float("nan"),
            DEFAULT_CONFIDENCE,
            f"fact 0: confidence is NaN; using {DEFAULT_CONFIDENCE}",
        ),
        (
            [0.9],
            DEFAULT_CONFIDENCE,
            f"fact 0: confidence [0.9] is not a number; using {DEFAULT_CONFIDENCE}",
        ),
    ],
)
def test_confidence_is_clamped_and_defaulted(
    given: object, kept: float, warning: str | None
) -> None:
    result = validate({"facts": [fact(confidence=given)], "entities": []})
    assert result.facts[0].confidence == kept
    assert result.warnings == (() if warning is None else (warning,))


def test_a_missing_confidence_keeps_a_fact_below_the_write_gate() -> None:
    assert PipelineConfig().min_fact_confidence > DEFAULT_CONFIDENCE
    raw = {"content": "Jon moved to Berlin in May.", "type": "fact"}
    assert validate({"facts": [raw], "entities": []}).facts[0].confidence == DEFAULT_CONFIDENCE


def test_fenced_json_is_parsed() -> None:
    result = validate(fenced(GOOD), model="m")
    assert len(result.facts) == 2 and len(result.entities) == 1
    assert result.warnings == ()


def test_think_blocks_are_stripped() -> None:
    result = validate(thinking(GOOD, thought='I should answer {"facts": []} ... no.'))
    assert [f.content for f in result.facts] == [
        "Priya prefers tabs over spaces.",
        "Priya's sister Ana lives in Lisbon.",
    ]


def test_json_inside_prose_and_bytes_are_read() -> None:
    assert len(validate("Sure! Here you go: " + json.dumps(GOOD) + " Hope it helps.").facts) == 2
    assert len(validate(json.dumps(GOOD).encode()).facts) == 2


@pytest.mark.parametrize(
    "answer", [truncated(GOOD), "", "I could not find any facts.", "<think>only thinking"]
)
def test_unparseable_output_is_a_failure_that_is_not_retryable(answer: str) -> None:
    result = validate(answer, model="m", warnings=("earlier",))
    assert result.failed and not result.retryable
    assert result.failure is Failure.OUTPUT
    assert result.facts == () and result.entities == ()
    assert result.error is not None and result.warnings == ("earlier", result.error)


@pytest.mark.parametrize(
    ("answer", "warnings", "kept"),
    [
        (
            {"facts": {"content": "x"}, "entities": []},
            ("'facts' is a dict, not an array; ignored",),
            0,
        ),
        (
            [fact()],
            ("the answer is a bare array; read as the facts",),
            1,
        ),
        (
            {"facts": [12, None, ["a list"], "A bare string is still a fact."], "entities": []},
            (
                "fact 0: int is not a fact object; rejected",
                "fact 1: NoneType is not a fact object; rejected",
                "fact 2: list is not a fact object; rejected",
                "fact 3: a bare string, not an object; type 'fact' assumed",
                f"fact 3: no confidence; using {DEFAULT_CONFIDENCE}",
            ),
            1,
        ),
        (
            {"facts": [{"text": "Uses 'text' for its content.", "type": "fact", "confidence": 1}]},
            ("fact 0: content given as 'text'", "the answer has no 'entities' array"),
            1,
        ),
        (
            {"facts": [{"content": 12345678901, "type": "fact", "confidence": 1}], "entities": []},
            ("fact 0: content is missing or not text; rejected",),
            0,
        ),
    ],
)
def test_wrong_shapes_become_warnings(answer: object, warnings: tuple[str, ...], kept: int) -> None:
    result = validate(answer)
    assert not result.failed
    assert result.warnings == warnings
    assert len(result.facts) == kept


@pytest.mark.parametrize("answer", [42, None, "null", '"just a string"', {"summary": "x"}])
def test_an_answer_with_nothing_of_the_shape_is_an_output_failure(answer: object) -> None:
    result = validate(answer)
    assert result.failure is Failure.OUTPUT
    assert result.facts == ()


def test_warnings_are_bounded() -> None:
    result = validate({"facts": [1] * 1000, "entities": [2] * 1000})
    assert len(result.warnings) == MAX_WARNINGS + 1
    assert result.warnings[-1] == f"{2000 - MAX_WARNINGS} more warnings not shown"


JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=30,
)
ITEM = st.fixed_dictionaries(
    {},
    optional={
        "content": JSON | st.text(max_size=2100),
        "type": JSON | st.sampled_from(["fact", "preference", "decision", "x"]),
        "confidence": JSON,
        "source": JSON | st.text(max_size=5),
        "relationship": JSON | st.text(max_size=5),
        "target": JSON | st.text(max_size=5),
    },
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        JSON,
        st.fixed_dictionaries(
            {},
            optional={
                "facts": st.lists(ITEM | JSON, max_size=30),
                "entities": st.lists(ITEM | JSON, max_size=60),
            },
        ),
        st.text(max_size=200),
    )
)
def test_validation_never_raises_and_always_honours_the_rules(raw: object) -> None:
    result = validate(raw)
    assert len(result.facts) <= MAX_FACTS and len(result.entities) <= MAX_ENTITIES
    for f in result.facts:
        assert MIN_FACT_CHARS <= len(f.content) <= MAX_FACT_CHARS
        assert f.type in FACT_TYPES
        assert 0.0 <= f.confidence <= 1.0
    for e in result.entities:
        assert e.source and e.relationship and e.target
        assert 0.0 <= e.confidence <= 1.0
    json.dumps(result.to_dict())


# -- the prompt and the schema ---------------------------------------------------------


def test_the_prompt_truncates_input_first_and_asks_for_json_only() -> None:
    text = "a" * 150 + "TAIL-MARKER"
    prompt = build_prompt(text, max_input_chars=150)
    assert "a" * 150 in prompt and "TAIL-MARKER" not in prompt
    assert prompt.rstrip().endswith("Return only the JSON object, with no text before or after it.")
    assert "Example" in prompt and '"facts": []' in prompt
    for kind in FACT_TYPES:
        assert kind.value in prompt
    assert build_prompt("x" * 12_001).count("x" * 12_000) == 1
    assert "x" * 12_001 not in build_prompt("x" * 12_001)


def test_the_schema_describes_the_answer() -> None:
    props = EXTRACTION_SCHEMA["properties"]
    assert EXTRACTION_SCHEMA["required"] == ["facts", "entities"]
    assert props["facts"]["items"]["properties"]["type"]["enum"] == [t.value for t in FACT_TYPES]
    assert props["facts"]["items"]["required"] == ["content", "type", "confidence"]
    assert props["entities"]["items"]["required"] == [
        "source",
        "relationship",
        "target",
        "confidence",
    ]
    # the prompt's worked example is itself valid under the rules
    assert validate(GOOD).warnings == ()


# -- the LLM path, against a real HTTP server on 127.0.0.1 ----------------------------


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


CONFIG = PipelineConfig()


def test_extract_with_llm_sends_the_prompt_and_the_schema(llm: ScriptedLlm) -> None:
    llm.script(fenced(GOOD))
    provider = OllamaProvider(base_url=llm.url, model="qwen3:4b")
    result = extract_with_llm(provider, "Priya: I prefer tabs over spaces.", config=CONFIG)
    assert not result.failed
    assert result.model == "qwen3:4b"
    assert [f.type for f in result.facts] == [MemoryType.PREFERENCE, MemoryType.FACT]
    (request,) = llm.requests_to("/api/generate")
    assert request.body["format"] == EXTRACTION_SCHEMA
    assert request.prompt is not None and "Priya: I prefer tabs over spaces." in request.prompt
    assert llm.pending == 0


def test_an_openai_compatible_server_gets_the_schema_too(llm: ScriptedLlm) -> None:
    llm.script(json.dumps(GOOD))
    provider = OpenAICompatProvider(base_url=llm.openai_url, model="gpt-x", api_key_env="")
    result = extract_with_llm(provider, "Priya: I prefer tabs.", config=CONFIG)
    assert len(result.facts) == 2
    (request,) = llm.requests_to("/chat/completions")
    assert request.body["response_format"]["json_schema"]["schema"] == EXTRACTION_SCHEMA


def test_structured_output_can_be_left_out(llm: ScriptedLlm) -> None:
    llm.script(json.dumps(GOOD))
    provider = OllamaProvider(base_url=llm.url)
    extract_with_llm(provider, "Priya: I prefer tabs.", config=CONFIG, structured=False)
    assert "format" not in llm.requests[0].body


def test_a_provider_500_is_a_retryable_failure(llm: ScriptedLlm) -> None:
    llm.script(Reply(status=500, body="model runner crashed"))
    result = extract_with_llm(OllamaProvider(base_url=llm.url), "Jon: I moved.", config=CONFIG)
    assert result.failed and result.retryable
    assert result.failure is Failure.PROVIDER
    assert (
        result.error is not None
        and "HTTP 500" in result.error
        and "model runner crashed" in result.error
    )
    assert result.facts == () and result.warnings == (result.error,)


def test_a_provider_timeout_is_a_retryable_failure(llm: ScriptedLlm) -> None:
    llm.script(Reply(text=json.dumps(GOOD), delay=3.0))
    provider = OllamaProvider(base_url=llm.url)
    result = extract_with_llm(provider, "Jon: I moved.", config=CONFIG, timeout=0.3)
    assert result.failure is Failure.PROVIDER and result.retryable
    assert result.error is not None and "timed out" in result.error


def test_an_unreachable_server_is_a_retryable_failure() -> None:
    with ScriptedLlm() as server:
        url = server.url
    result = extract_with_llm(OllamaProvider(base_url=url, timeout=2), "Jon: hi", config=CONFIG)
    assert result.failure is Failure.PROVIDER


def test_an_unusable_answer_is_a_failure_that_is_not_retried(llm: ScriptedLlm) -> None:
    llm.script(truncated(GOOD))
    result = extract_with_llm(OllamaProvider(base_url=llm.url), "Jon: I moved.", config=CONFIG)
    assert result.failure is Failure.OUTPUT and not result.retryable
    assert result.error is not None and "truncated" in result.error


class Exploding:
    """A third-party provider with a bug: its failure is still only a failed call."""

    name = "exploding"
    model = "boom-1"

    def generate(
        self, prompt: str, *, schema: dict[str, Any] | None = None, timeout: float | None = None
    ) -> str:
        raise KeyError("oops")

    def available(self) -> bool:
        return True


def test_any_provider_exception_becomes_a_failure() -> None:
    result = extract_with_llm(Exploding(), "Jon: hi there", config=CONFIG)
    assert result.failure is Failure.PROVIDER
    assert result.error == "exploding: KeyError: 'oops'"


def test_long_input_is_truncated_and_the_result_says_so(llm: ScriptedLlm) -> None:
    llm.script(json.dumps(GOOD))
    config = PipelineConfig(max_input_chars=200)
    result = extract_with_llm(OllamaProvider(base_url=llm.url), "z" * 500, config=config)
    assert result.warnings == ("input of 500 characters truncated to 200",)
    prompt = llm.requests[0].prompt
    assert prompt is not None and "z" * 200 in prompt and "z" * 201 not in prompt


# -- which extractor -------------------------------------------------------------------


def test_auto_uses_the_llm_when_a_provider_is_given(llm: ScriptedLlm) -> None:
    llm.script(json.dumps(GOOD))
    provider = OllamaProvider(base_url=llm.url, model="qwen3:4b")
    result = extract(
        "Priya: I prefer tabs.", provider=provider, config=PipelineConfig(extractor="auto")
    )
    assert result.model == "qwen3:4b" and len(llm.requests) == 1


def test_auto_without_a_provider_and_offline_use_the_rules(llm: ScriptedLlm) -> None:
    text = "Caroline: I went to a LGBTQ support group yesterday."
    for config, provider in (
        (PipelineConfig(extractor="auto"), None),
        (PipelineConfig(extractor="offline"), OllamaProvider(base_url=llm.url)),
    ):
        result = extract(text, provider=provider, config=config)
        assert result.model == OFFLINE_MODEL
        assert [f.content for f in result.facts] == [
            "Caroline went to a LGBTQ support group yesterday."
        ]
    assert llm.requests == []


def test_llm_without_a_provider_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="no LLM provider"):
        extract("Jon: hi", provider=None, config=PipelineConfig(extractor="llm"))


def test_a_failed_llm_call_is_not_replaced_by_the_rules(llm: ScriptedLlm) -> None:
    llm.script(Reply(status=503, body="loading model"))
    result = extract(
        "Jon: I moved to Berlin.", provider=OllamaProvider(base_url=llm.url), config=CONFIG
    )
    assert result.failed and result.retryable and result.facts == ()


def test_the_result_is_json_ready() -> None:
    data = validate(GOOD, model="m").to_dict()
    assert json.loads(json.dumps(data)) == {
        "facts": GOOD["facts"],
        "entities": GOOD["entities"],
        "warnings": [],
        "model": "m",
        "failure": None,
        "error": None,
    }
    failed = validate("not json", model="m").to_dict()
    assert failed["failure"] == "output" and failed["error"]

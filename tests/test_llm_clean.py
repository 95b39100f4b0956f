"""Cleaning a model's answer into JSON (seed 004: strip <think>, strip fences, parse)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engram.errors import EngramError, LlmError
from engram.llm import clean_response, parse_json, strip_fences, strip_think
from llmserver import fenced, thinking, truncated

FACTS = {"facts": [{"content": "Ana uses PostgreSQL", "type": "fact", "confidence": 0.9}]}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("  [1, 2]\n", [1, 2]),
        (fenced(FACTS), FACTS),
        ("```\n" + json.dumps(FACTS) + "\n```", FACTS),
        ('```json {"x": 1}```', {"x": 1}),
        (thinking(FACTS), FACTS),
        ("<THINK>x</THINK>" + json.dumps(FACTS), FACTS),
        ("<thinking>first</thinking>" + fenced(FACTS), FACTS),
        # the chat template swallowed the opening tag
        ("I should answer {in json}</think>\n" + json.dumps(FACTS), FACTS),
        # an unclosed leading block, then the answer on its own line
        ("<think>\nI will list them [all]\n" + json.dumps(FACTS), FACTS),
        ("<think>\nhmm\n" + fenced(FACTS), FACTS),
        # an unclosed fence: the answer was cut off after a complete value
        ("```json\n" + json.dumps(FACTS) + "\n", FACTS),
        # prose around the JSON
        ("Sure! Here it is: " + json.dumps(FACTS) + " Hope that helps.", FACTS),
        ('I think [maybe] this: {"b": 1}', {"b": 1}),
        ("See [1]: " + json.dumps(FACTS), FACTS),
        ('{"a": 1} and then (see [note', {"a": 1}),
        # a fence inside a JSON string is content, not a fence
        ('{"code": "use ```sql``` here"}', {"code": "use ```sql``` here"}),
    ],
)
def test_parse_json_reads_what_models_really_answer(answer: str, expected: Any) -> None:
    assert parse_json(answer) == expected


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (truncated(FACTS), "cut off: truncated JSON"),
        ('{"a": "unterminated', "cut off: truncated JSON"),
        ("Here you go: " + truncated(FACTS), "cut off: truncated JSON"),
        ("I cannot help with that.", "Expecting value"),
        ("", "it is empty"),
        ("<think>\nstill thinking about it, no answer", "empty once its <think> block"),
        ("<think>a</think>   ", "empty once its <think> block"),
    ],
)
def test_parse_json_says_why_an_answer_is_unusable(answer: str, reason: str) -> None:
    with pytest.raises(LlmError, match="the model's answer") as caught:
        parse_json(answer)
    assert reason in str(caught.value)
    assert isinstance(caught.value, EngramError) and caught.value.code == "llm_error"


def test_the_error_excerpt_is_short() -> None:
    with pytest.raises(LlmError) as caught:
        parse_json("no json " * 500)
    # seed 004's 200-character excerpt, plus the reason and quotes around it
    assert len(str(caught.value)) < 300


def test_wrong_types_are_parsed_as_given_for_the_caller_to_judge() -> None:
    wrong = {"facts": "not a list", "confidence": "high"}
    assert parse_json(fenced(wrong)) == wrong


def test_a_fragment_of_truncated_json_is_never_returned() -> None:
    # A whole inner object sits in the cut-off text; returning it would lose facts.
    answer = '{"facts": [{"content": "a"}, {"content": "b"'
    with pytest.raises(LlmError, match="truncated"):
        parse_json(answer)


def test_strip_steps_keep_plain_text_intact() -> None:
    assert strip_think("plain answer") == "plain answer"
    assert strip_fences("plain answer") == "plain answer"
    assert clean_response("<think>why</think>\nDeploys go out on Fridays.") == (
        "Deploys go out on Fridays."
    )
    assert strip_fences("Intro\n```python\nprint(1)\n```\nOutro") == "print(1)"


def test_prose_heavy_with_brackets_is_bounded() -> None:
    # Many start positions that fail to decode must not make parsing slow or crash.
    noisy = "[x " * 10_000
    with pytest.raises(LlmError):
        parse_json(noisy)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
containers = st.one_of(
    st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    st.lists(json_values, max_size=4),
)


@given(value=containers)
def test_any_json_survives_every_wrapping(value: Any) -> None:
    for answer in (
        json.dumps(value),
        fenced(value),
        thinking(value),
        f"Result: {json.dumps(value)}",
    ):
        assert parse_json(answer) == value

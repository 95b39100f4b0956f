"""H1: a model's refusal is never stored as an observation's title. Refusals are told
from titles by how they open (engram.runs.refusal); ``compress_and_store`` against a
refusing model server is tested in tests/test_runs.py."""

from __future__ import annotations

import pytest

from engram.runs.refusal import is_refusal

REFUSALS = [
    "I cannot help with that request.",
    "I'm sorry, but I can't assist with that.",
    "I’m sorry, but I can’t help with this.",
    "As an AI language model, I cannot summarise this content.",
    "As an AI, I don't have the ability to do that.",
    "Sorry, I can't do that.",
    "Unfortunately, I am unable to complete this task.",
    "I must decline this request.",
    "**I'm unable to help with that.**",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_are_recognised(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize(
    "text",
    [
        "Vector indexes for PostgreSQL compared",
        "Why the parser cannot help with nested quotes",
        "I compared three vector stores on 10M rows",
        "Icons cannot render in the sidebar",
        "As-built documentation of the billing API",
        "Sorting algorithms, sorted by speed",
        "",
        None,
    ],
)
def test_titles_are_not_refusals(text: str | None) -> None:
    assert not is_refusal(text)

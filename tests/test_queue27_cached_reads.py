"""The pipeline's cached readings are shared by every caller, so what they return must
not be a value one caller can change for the next (task queue27): a list one caller
extended would change every later reading of the same sentence."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from engram.pipeline import change_signals, offline


def _try_extend(found: Any, extra: Any) -> None:
    """What a careless caller does with a reading: add to it in place."""
    with contextlib.suppress(AttributeError):  # a tuple: nothing shared can change
        found.append(extra)


@pytest.mark.parametrize(
    "sentence", ["I moved to Glasgow last month.", "I work at Acme and I live in Leeds."]
)
def test_offline_claims_reading_is_not_changed_by_a_caller(sentence: str) -> None:
    offline._claims.cache_clear()
    first = offline._claims(sentence, "user")
    assert first, "the sentence states a fact"
    expected = list(first)
    _try_extend(first, first[0])
    assert list(offline._claims(sentence, "user")) == expected


def test_change_clause_reading_is_not_changed_by_a_caller() -> None:
    change_signals._clause.cache_clear()
    clause = "I switched from VS Code to PyCharm"
    lower = f" {clause.lower()} "
    first = change_signals._clause(clause, lower, "user")
    assert first, "the clause states a change"
    expected = list(first)
    _try_extend(first, first[0])
    assert list(change_signals._clause(clause, lower, "user")) == expected

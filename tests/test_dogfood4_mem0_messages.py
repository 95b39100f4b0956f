"""engram.compat.mem0 refuses a bad threshold, top_k or query with mem0's own message
(docs/compat-mem0.md promises "mem0's message where mem0 has one"; mem0's tests match
on it, and so may code that catches mem0's ValueError)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory
from engram.errors import InvalidInputError


@pytest.fixture
def m(config: Config, tmp_path: Any) -> Iterator[Memory]:
    with Memory(str(tmp_path / "m.db"), config=config, embedder=HashEmbedder()) as door:
        yield door


ALICE = {"user_id": "alice"}
CASES: list[tuple[Callable[[Memory], Any], str]] = [
    (
        lambda m: m.search("tea", filters=ALICE, threshold=1.5),
        r"Invalid threshold: 1\.5\. Must be between 0 and 1",
    ),
    (
        lambda m: m.search("tea", filters=ALICE, threshold=-0.5),
        r"Invalid threshold: -0\.5\. Must be between 0 and 1",
    ),
    (
        lambda m: m.search("tea", filters=ALICE, top_k=-5),
        r"Invalid top_k: -5\. Must be a non-negative integer",
    ),
    (
        lambda m: m.get_all(filters=ALICE, top_k=-1),
        r"Invalid top_k: -1\. Must be a non-negative integer",
    ),
    (lambda m: m.search("", filters=ALICE), r"Invalid query: must be a non-empty string"),
    (
        lambda m: m.search(" \n\t", filters=ALICE),
        r"Invalid query: cannot be empty or whitespace-only",
    ),
]


@pytest.mark.parametrize(("call", "says"), CASES)
def test_bad_search_arguments_get_mem0s_message(m: Memory, call: Any, says: str) -> None:
    with pytest.raises(InvalidInputError, match=says) as raised:
        call(m)
    assert isinstance(raised.value, ValueError)


def test_edge_values_are_accepted(m: Memory) -> None:
    m.add("I like green tea", user_id="alice", infer=False)
    assert m.search("tea", filters=ALICE, threshold=0)["results"]
    assert m.search("tea", filters=ALICE, threshold=1.0) == {"results": []}
    assert m.search("tea", filters=ALICE, top_k=0) == {"results": []}

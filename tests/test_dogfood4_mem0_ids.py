"""engram.compat.mem0 reads the three ids as mem0 does (new-user pass, round four: mem0's
own tests run against the door): an integer id is its string (a database key), the
ends are trimmed, and an empty id or one with whitespace inside is refused naming the
id, not the namespace engram derives from it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory
from engram.errors import InvalidInputError


@pytest.fixture
def m(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as door:
        yield door


def texts(result: dict[str, list[dict[str, str]]]) -> list[str]:
    return sorted(r["memory"] for r in result["results"])


def test_an_integer_id_is_its_string(m: Memory) -> None:
    m.add("I like green tea", user_id=42, infer=False)  # type: ignore[arg-type]
    assert texts(m.get_all(filters={"user_id": "42"})) == ["I like green tea"]
    assert texts(m.get_all(filters={"user_id": 42})) == ["I like green tea"]
    assert texts(m.search("tea", filters={"user_id": 42})) == ["I like green tea"]
    m.delete_all(user_id=42)  # type: ignore[arg-type]
    assert m.get_all(filters={"user_id": "42"}) == {"results": []}


def test_the_ends_of_an_id_are_trimmed(m: Memory) -> None:
    m.add("I like green tea", user_id="  alice ", agent_id="bot\n", infer=False)
    assert texts(m.get_all(filters={"user_id": "alice"})) == ["I like green tea"]
    assert texts(m.get_all(filters={"user_id": " alice", "agent_id": " bot "})) == [
        "I like green tea"
    ]
    m.delete_all(user_id="alice  ")
    assert m.get_all(filters={"user_id": "alice"}) == {"results": []}


@pytest.mark.parametrize(
    ("given", "says"),
    [("   ", "Invalid user_id: cannot be empty"), ("user 123", "Invalid user_id 'user 123'")],
)
def test_an_empty_id_or_one_with_inner_whitespace_is_refused_by_name(
    m: Memory, given: str, says: str
) -> None:
    calls = [
        lambda: m.add("I like tea", user_id=given, infer=False),
        lambda: m.search("tea", filters={"user_id": given}),
        lambda: m.get_all(filters={"user_id": given}),
        lambda: m.delete_all(user_id=given),
    ]
    for call in calls:
        with pytest.raises(InvalidInputError, match=says) as raised:
            call()
        assert isinstance(raised.value, ValueError)
        assert "namespace" not in str(raised.value)


def test_an_id_that_is_neither_text_nor_an_integer_is_refused(m: Memory) -> None:
    with pytest.raises(InvalidInputError, match="run_id must be a string or an integer"):
        m.add("I like tea", run_id=1.5, infer=False)  # type: ignore[arg-type]

"""engram.compat.mem0 (issue 14, FEATURES E2): mem0's signatures and shapes, with
mem0's own usage written against the door, on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config
from engram import Memory as EngramMemory
from engram.compat.mem0 import Memory
from engram.errors import InvalidInputError, NotFoundError


@pytest.fixture
def m(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as door:
        yield door


def ids(result: dict[str, Any]) -> set[str]:
    return {r["memory"] for r in result["results"]}


def seed(m: Memory) -> None:
    m.add("I love sushi", user_id="alice", metadata={"category": "food", "rating": 5}, infer=False)
    m.add("I hate olives", user_id="alice", metadata={"category": "food", "rating": 1}, infer=False)
    m.add(
        "I play tennis on Sundays",
        user_id="alice",
        metadata={"category": "sport", "tags": ["weekend"], "place": "Club Nord"},
        infer=False,
    )
    m.add("I love pizza", user_id="bob", metadata={"category": "food"}, infer=False)


# -- mem0's quickstart, imported from engram.compat.mem0 -----------------------------------
def test_mem0_quickstart_shapes(m: Memory) -> None:
    messages = [
        {"role": "user", "content": "I'm planning to watch a movie tonight."},
        {"role": "assistant", "content": "How about thriller movies?"},
    ]
    added = m.add(messages, user_id="alice", metadata={"category": "movies"}, infer=False)
    [item] = added["results"]
    assert set(item) == {"id", "memory", "event"} and item["event"] == "ADD"
    assert "infer" not in added
    again = m.add(messages, user_id="alice", metadata={"category": "movies"}, infer=False)
    assert again["results"][0] == {**item, "event": "NONE"}  # the same text, not stored twice

    found = m.search("movie tonight", filters={"user_id": "alice"})
    [hit] = found["results"]
    assert hit["id"] == item["id"] and hit["user_id"] == "alice"
    assert hit["metadata"] == {"category": "movies"} and isinstance(hit["score"], float)
    assert {"memory", "hash", "created_at", "updated_at"} <= set(hit)

    got = m.get(item["id"])
    assert got is not None and got["memory"] == hit["memory"] and "score" not in got
    assert m.get_all(filters={"user_id": "alice"})["results"] == [got]
    assert m.get("no-such-id") is None


def test_search_by_user_and_agent_keywords_and_filters(m: Memory) -> None:
    """The issue's bug: filters={"user_id": ...} used to return []."""
    seed(m)
    m.add("Deploys run on Fridays", agent_id="ops", infer=False)
    assert ids(m.search("sushi", filters={"user_id": "alice"}, top_k=1)) == {"I love sushi"}
    assert ids(m.search("sushi", user_id="alice", limit=1)) == {"I love sushi"}
    assert ids(m.search("pizza", filters={"user_id": {"eq": "bob"}})) == {"I love pizza"}
    assert ids(m.search("deploys", filters={"agent_id": "ops"})) == {"Deploys run on Fridays"}
    assert ids(m.search("anything", filters={"AND": [{"user_id": "bob"}]})) == {"I love pizza"}
    assert len(m.get_all(user_id="alice")["results"]) == 3


def test_metadata_filters_match_metadata_not_record_fields(m: Memory) -> None:
    seed(m)
    food = m.search("I love", filters={"user_id": "alice", "category": "food"})
    assert ids(food) == {"I love sushi", "I hate olives"}
    sport = m.get_all(filters={"user_id": "alice", "category": "sport"})
    assert ids(sport) == {"I play tennis on Sundays"}


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ({"rating": {"eq": 5}}, {"I love sushi"}),
        ({"rating": {"ne": 5}}, {"I hate olives", "I play tennis on Sundays"}),
        ({"category": {"in": ["sport", "music"]}}, {"I play tennis on Sundays"}),
        ({"category": {"nin": ["food"]}}, {"I play tennis on Sundays"}),
        ({"rating": {"gt": 1}}, {"I love sushi"}),
        ({"rating": {"gte": 1}}, {"I love sushi", "I hate olives"}),
        ({"rating": {"lt": 5}}, {"I hate olives"}),
        ({"rating": {"lte": 5, "gt": 1}}, {"I love sushi"}),
        ({"place": {"contains": "Nord"}}, {"I play tennis on Sundays"}),
        ({"place": {"contains": "nord"}}, set()),
        ({"place": {"icontains": "nord"}}, {"I play tennis on Sundays"}),
        ({"tags": {"contains": "weekend"}}, {"I play tennis on Sundays"}),
        ({"rating": "*"}, {"I love sushi", "I hate olives"}),
        (
            {"OR": [{"rating": 5}, {"category": "sport"}]},
            {"I love sushi", "I play tennis on Sundays"},
        ),
        ({"AND": [{"category": "food"}, {"rating": {"lt": 3}}]}, {"I hate olives"}),
        ({"NOT": [{"category": "food"}]}, {"I play tennis on Sundays"}),
        ({"NOT": {"OR": [{"rating": 5}, {"rating": 1}]}}, {"I play tennis on Sundays"}),
    ],
)
def test_each_operator(m: Memory, condition: dict[str, Any], expected: set[str]) -> None:
    seed(m)
    filters = {"user_id": "alice", **condition}
    assert ids(m.search("I", filters=filters, top_k=10)) == expected
    assert ids(m.get_all(filters=filters)) == expected


@pytest.mark.parametrize(
    ("filters", "says"),
    [
        ({"user_id": "alice", "rating": {"between": [1, 2]}}, "contains, icontains"),
        ({"user_id": {"in": ["alice", "bob"]}}, "namespace of their own"),
        ({"user_id": "*"}, "call once per id"),
        ({"OR": [{"user_id": "alice"}, {"user_id": "bob"}]}, "top level"),
        ({"user_id": "alice", "category": {"in": "food"}}, "takes a list"),
        ({"user_id": "alice", "OR": "food"}, "list of dicts"),
    ],
)
def test_filters_it_cannot_apply_raise(m: Memory, filters: dict[str, Any], says: str) -> None:
    with pytest.raises(InvalidInputError, match=says):
        m.search("x", filters=filters)
    with pytest.raises(InvalidInputError, match=says):
        m.get_all(filters=filters)


def test_top_k_and_threshold(m: Memory) -> None:
    seed(m)
    everything = m.search("I love sushi", user_id="alice", top_k=3)["results"]
    assert len(everything) == 3 and everything[0]["memory"] == "I love sushi"
    assert [r["score"] for r in everything] == sorted(
        (r["score"] for r in everything), reverse=True
    )
    assert len(m.search("I love sushi", user_id="alice", top_k=2)["results"]) == 2
    cut = (everything[0]["score"] + everything[1]["score"]) / 2
    above = m.search("I love sushi", user_id="alice", top_k=3, threshold=cut)["results"]
    assert [r["id"] for r in above] == [everything[0]["id"]]
    assert m.get_all(user_id="alice", top_k=2)["results"].__len__() == 2
    assert len(m.search("I love sushi", user_id="alice", rerank=False)["results"]) == 3
    with pytest.raises(InvalidInputError, match="top_k"):
        m.search("x", user_id="alice", top_k=0)


def test_update_takes_text_or_data(m: Memory) -> None:
    [item] = m.add("I live in Paris", user_id="alice", infer=False)["results"]
    assert m.update(item["id"], text="I live in Lyon") == {
        "message": "Memory updated successfully!"
    }
    assert m.get(item["id"])["memory"] == "I live in Lyon"  # type: ignore[index]
    m.update(item["id"], data="I live in Nice")
    assert m.get(item["id"])["memory"] == "I live in Nice"  # type: ignore[index]
    with pytest.raises(InvalidInputError, match="new text"):
        m.update(item["id"])
    with pytest.raises(NotFoundError):
        m.update("0" * 32, text="x")

    history = m.history(item["id"])
    assert [h["event"] for h in history] == ["ADD", "UPDATE", "UPDATE"]
    assert history[1]["old_memory"] == "I live in Paris"
    assert history[1]["new_memory"] == "I live in Lyon"
    assert {"id", "memory_id", "created_at", "updated_at", "is_deleted"} <= set(history[0])

    assert m.delete(item["id"]) == {"message": "Memory deleted successfully!"}
    assert m.get(item["id"]) is None
    assert m.history(item["id"])[-1]["event"] == "DELETE"


def test_a_fresh_door_finds_memories_by_id_alone(m: Memory) -> None:
    [item] = m.add("I like tea", user_id="carol", infer=False)["results"]
    other = Memory(memory=m.engram)  # knows no ids yet
    assert other.get(item["id"])["user_id"] == "carol"  # type: ignore[index]
    other.update(item["id"], text="I like green tea")
    assert m.get(item["id"])["memory"] == "I like green tea"  # type: ignore[index]


def test_delete_all_needs_a_scope_and_reset_empties(m: Memory) -> None:
    seed(m)
    with pytest.raises(InvalidInputError, match="reset"):
        m.delete_all()
    assert len(m.get_all(user_id="alice")["results"]) == 3
    assert m.delete_all(user_id="alice") == {"message": "Memories deleted successfully!"}
    assert m.get_all(user_id="alice")["results"] == []
    assert ids(m.get_all(user_id="bob")) == {"I love pizza"}
    m.add("Deploys run on Fridays", agent_id="ops", infer=False)
    assert m.reset() is None
    assert m.get_all(user_id="bob")["results"] == []
    assert m.get_all(agent_id="ops")["results"] == []
    assert m.engram.store.memories.namespaces() == {}


def test_unknown_keywords_name_the_supported_ones(m: Memory) -> None:
    with pytest.raises(InvalidInputError, match="user_id, agent_id, run_id, metadata, infer"):
        m.add("x", user_id="a", prompt="custom")
    with pytest.raises(InvalidInputError, match="top_k, threshold"):
        m.search("x", user_id="a", keyword_search=True)
    with pytest.raises(InvalidInputError, match="messages must be"):
        m.add(42, user_id="a")


def test_infer_runs_the_offline_pipeline_and_reports_its_facts(m: Memory) -> None:
    added = m.add("Derek: I work at Acme as an engineer. I live in Lisbon.", user_id="d")
    raw, *facts = added["results"]
    assert raw["event"] == "ADD" and added["infer"].startswith("ran: 2 fact(s)")
    assert sorted(f["memory"] for f in facts) == [
        "Derek lives in Lisbon.",
        "Derek works at Acme as an engineer.",
    ]
    assert all(f["event"] == "ADD" for f in facts)
    stored = ids(m.get_all(user_id="d"))
    assert {f["memory"] for f in facts} <= stored
    again = m.add("Derek: I work at Acme as an engineer. I live in Lisbon.", user_id="d")
    assert [r["event"] for r in again["results"]] == ["NONE"]
    assert again["infer"].startswith("skipped: the same text")


def test_infer_says_when_the_pipeline_is_off(config: Config, store_location: str) -> None:
    off = Config.load(env={"ENGRAM_PIPELINE_ENABLED": "false"}, home=str(config.home_path))
    with Memory(store_location, config=off, embedder=HashEmbedder()) as door:
        added = door.add("Derek: I live in Lisbon.", user_id="d")
    assert len(added["results"]) == 1
    assert added["infer"].startswith("skipped: the extraction pipeline is off")


def test_wraps_a_memory_it_does_not_own(config: Config, store_location: str) -> None:
    with EngramMemory(store_location, config=config, embedder=HashEmbedder()) as native:
        door = Memory(memory=native)
        door.add("I like tea", user_id="a", infer=False)
        door.close()  # not the door's to close
        assert [r.content for r in native.get_all(user_id="a")] == ["I like tea"]
        with pytest.raises(InvalidInputError, match="not both"):
            Memory(store_location, memory=native)

"""engram.compat.mem0 (issue 14, FEATURES E2): mem0's signatures and shapes, with
mem0's own usage written against the door, on both backends."""

from __future__ import annotations

import hashlib
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
    item, reply = added["results"]  # one memory per message, verbatim (issue 27)
    assert item == {"id": item["id"], "memory": messages[0]["content"], "event": "ADD"} | {
        "actor_id": None,
        "role": "user",
    }
    assert reply["role"] == "assistant" and reply["memory"] == "How about thriller movies?"
    assert "infer" not in added
    again = m.add(messages, user_id="alice", metadata={"category": "movies"}, infer=False)
    assert again["results"][0] == {**item, "event": "NONE"}  # the same text, not stored twice

    found = m.search("movie tonight", filters={"user_id": "alice"}, top_k=1)
    [hit] = found["results"]
    assert hit["id"] == item["id"] and hit["user_id"] == "alice" and hit["role"] == "user"
    assert hit["metadata"] == {"category": "movies"} and isinstance(hit["score"], float)
    assert hit["hash"] == hashlib.md5(hit["memory"].encode()).hexdigest()  # mem0's hash
    assert {"memory", "created_at", "updated_at"} <= set(hit)

    got = m.get(item["id"])
    assert got is not None and got["score"] is None and got["role"] == "user"
    assert {**hit, "score": None} == got  # search's item is get's, with a score
    listed = m.get_all(filters={"user_id": "alice"})["results"]
    assert {r["id"] for r in listed} == {item["id"], reply["id"]}
    assert all("score" not in r for r in listed)
    assert [r for r in listed if r["id"] == item["id"]] == [
        {k: v for k, v in got.items() if k != "score"}
    ]
    assert m.get("no-such-id") is None


def test_search_by_user_and_agent_keywords_and_filters(m: Memory) -> None:
    """The issue's bug: filters={"user_id": ...} used to return []."""
    seed(m)
    m.add("Deploys run on Fridays", agent_id="ops", infer=False)
    assert ids(m.search("sushi", filters={"user_id": "alice"}, top_k=1)) == {"I love sushi"}
    assert ids(m.search("sushi", filters={"user_id": "alice"}, limit=1)) == {"I love sushi"}
    with pytest.raises(ValueError, match=r"Use filters=\{'user_id'"):  # as mem0 2.x
        m.search("sushi", user_id="alice")
    with pytest.raises(ValueError, match="not supported in get_all"):
        m.get_all(agent_id="ops")
    assert ids(m.search("pizza", filters={"user_id": {"eq": "bob"}})) == {"I love pizza"}
    assert ids(m.search("deploys", filters={"agent_id": "ops"})) == {"Deploys run on Fridays"}
    # A query about pizza: one sharing no word with it scores 0 on mem0 (and the door),
    # under the default threshold (test_compat_mem0_pass39.py).
    assert ids(m.search("pizza", filters={"AND": [{"user_id": "bob"}]})) == {"I love pizza"}
    assert len(m.get_all(filters={"user_id": "alice"})["results"]) == 3


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
        ({"rating": {"ne": 5}}, {"I hate olives"}),  # a memory without the key: excluded
        ({"category": {"in": ["sport", "music"]}}, {"I play tennis on Sundays"}),
        ({"category": {"nin": ["food"]}}, {"I play tennis on Sundays"}),
        ({"rating": {"gt": 1}}, {"I love sushi"}),
        ({"rating": {"gte": 1}}, {"I love sushi", "I hate olives"}),
        ({"rating": {"lt": 5}}, {"I hate olives"}),
        ({"rating": {"lte": 5, "gt": 1}}, {"I love sushi"}),
        ({"place": {"contains": "Nord"}}, {"I play tennis on Sundays"}),
        # As real mem0 2.2.1 on Qdrant: whole words, either case (mem0_script_real.py).
        ({"place": {"contains": "nord"}}, {"I play tennis on Sundays"}),
        ({"place": {"contains": "Nor"}}, set()),
        ({"tags": "weekend"}, {"I play tennis on Sundays"}),
        ({"category": ["sport", "music"]}, {"I play tennis on Sundays"}),
        ({"place": {"icontains": "nord"}}, {"I play tennis on Sundays"}),
        ({"tags": {"contains": "weekend"}}, {"I play tennis on Sundays"}),
        ({"rating": "*"}, {"I love sushi", "I hate olives", "I play tennis on Sundays"}),
        ({"rating": {"nin": [5]}}, {"I hate olives"}),
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
    everything = m.search("I love sushi", filters={"user_id": "alice"}, top_k=3)["results"]
    assert len(everything) == 3 and everything[0]["memory"] == "I love sushi"
    assert [r["score"] for r in everything] == sorted(
        (r["score"] for r in everything), reverse=True
    )
    assert len(m.search("I love sushi", filters={"user_id": "alice"}, top_k=2)["results"]) == 2
    cut = (everything[0]["score"] + everything[1]["score"]) / 2
    above = m.search("I love sushi", filters={"user_id": "alice"}, top_k=3, threshold=cut)[
        "results"
    ]
    assert [r["id"] for r in above] == [everything[0]["id"]]
    assert m.get_all(filters={"user_id": "alice"}, top_k=2)["results"].__len__() == 2
    assert len(m.search("I love sushi", filters={"user_id": "alice"}, rerank=False)["results"]) == 3
    assert m.search("I love sushi", filters={"user_id": "alice"}, top_k=0)["results"] == []
    with pytest.raises(InvalidInputError, match="top_k"):
        m.search("x", filters={"user_id": "alice"}, top_k=-1)
    with pytest.raises(InvalidInputError, match="threshold"):
        m.search("x", filters={"user_id": "alice"}, threshold=1.5)


def test_update_takes_text_or_data(m: Memory) -> None:
    [item] = m.add("I live in Paris", user_id="alice", infer=False)["results"]
    assert m.update(item["id"], text="I live in Lyon") == {
        "message": "Memory updated successfully!"
    }
    assert m.get(item["id"])["memory"] == "I live in Lyon"  # type: ignore[index]
    m.update(item["id"], data="I live in Nice")
    assert m.get(item["id"])["memory"] == "I live in Nice"  # type: ignore[index]
    with pytest.raises(InvalidInputError, match="At least one of text"):
        m.update(item["id"])
    for call in (lambda: m.update("0" * 32, text="x"), lambda: m.delete("0" * 32)):
        with pytest.raises(ValueError, match="not found") as raised:  # as mem0's
            call()
        assert isinstance(raised.value, NotFoundError)
    assert m.history("0" * 32) == []

    history = m.history(item["id"])
    assert [h["event"] for h in history] == ["ADD", "UPDATE", "UPDATE"]
    assert history[1]["old_memory"] == "I live in Paris"
    assert history[1]["new_memory"] == "I live in Lyon"
    assert {"id", "memory_id", "created_at", "updated_at", "is_deleted"} <= set(history[0])

    assert m.delete(item["id"]) == {"message": "Memory deleted successfully!"}
    assert m.get(item["id"]) is None
    deleted = m.history(item["id"])[-1]
    assert deleted["event"] == "DELETE" and deleted["is_deleted"] is True
    assert deleted["old_memory"] == "I live in Nice" and deleted["new_memory"] is None
    assert deleted["role"] == "user"


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
    assert len(m.get_all(filters={"user_id": "alice"})["results"]) == 3
    assert m.delete_all(user_id="alice") == {"message": "Memories deleted successfully!"}
    assert m.get_all(filters={"user_id": "alice"})["results"] == []
    assert ids(m.get_all(filters={"user_id": "bob"})) == {"I love pizza"}
    m.add("Deploys run on Fridays", agent_id="ops", infer=False)
    assert m.reset() is None
    assert m.get_all(filters={"user_id": "bob"})["results"] == []
    assert m.get_all(filters={"agent_id": "ops"})["results"] == []
    assert m.engram.store.memories.namespaces() == {}


def test_unknown_keywords_name_the_supported_ones(m: Memory) -> None:
    with pytest.raises(InvalidInputError, match="user_id, agent_id, run_id, metadata, infer"):
        m.add("x", user_id="a", timestamp=1700000000)
    with pytest.raises(InvalidInputError, match="top_k, threshold"):
        m.search("x", filters={"user_id": "a"}, keyword_search=True)
    with pytest.raises(InvalidInputError, match="messages must be"):
        m.add(42, user_id="a")


def test_wraps_a_memory_it_does_not_own(config: Config, store_location: str) -> None:
    with EngramMemory(store_location, config=config, embedder=HashEmbedder()) as native:
        door = Memory(memory=native)
        door.add("I like tea", user_id="a", infer=False)
        door.close()  # not the door's to close
        assert [r.content for r in native.get_all(user_id="a")] == ["I like tea"]
        with pytest.raises(InvalidInputError, match="not both"):
            Memory(store_location, memory=native)


# -- issue 27: mem0 2.x's behaviour ---------------------------------------------------------
def test_add_stores_each_message_with_role_and_actor(m: Memory) -> None:
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "I moved to Berlin", "name": "Ana"},
        {"role": "assistant", "content": "Welcome to Berlin!"},
    ]
    added = m.add(messages, user_id="ana", infer=False)["results"]
    assert [(r["memory"], r["role"], r["actor_id"]) for r in added] == [
        ("I moved to Berlin", "user", "Ana"),
        ("Welcome to Berlin!", "assistant", None),
    ]  # the system message is skipped
    got = m.get(added[0]["id"])
    assert got is not None and got["actor_id"] == "Ana" and got["metadata"] is None
    assert "actor_id" not in m.get(added[1]["id"])  # type: ignore[operator]
    # role and actor_id filter like metadata keys, as in mem0's payload
    by_role = m.get_all(filters={"user_id": "ana", "role": "assistant"})["results"]
    assert [r["memory"] for r in by_role] == ["Welcome to Berlin!"]
    by_actor = m.search("Berlin", filters={"user_id": "ana", "actor_id": "Ana"})["results"]
    assert [r["memory"] for r in by_actor] == ["I moved to Berlin"]
    assert m.history(added[0]["id"])[0]["actor_id"] == "Ana"
    with pytest.warns(UserWarning, match="without role or content"):
        assert m.add([{"content": "no role"}], user_id="ana", infer=False) == {"results": []}


def test_a_memory_with_all_three_ids_is_found_by_each_alone(m: Memory) -> None:
    m.add("Ships on Fridays", user_id="u1", agent_id="a1", run_id="r1", infer=False)
    m.add("Agent-only note", agent_id="a1", infer=False)
    m.add("Other agent", user_id="u1", agent_id="a2", infer=False)
    for filters, expected in (
        ({"agent_id": "a1"}, {"Ships on Fridays", "Agent-only note"}),
        ({"run_id": "r1"}, {"Ships on Fridays"}),
        ({"user_id": "u1"}, {"Ships on Fridays", "Other agent"}),
        ({"user_id": "u1", "agent_id": "a2"}, {"Other agent"}),
    ):
        assert ids(m.get_all(filters=filters)) == expected, filters
        assert ids(m.search("notes", filters=filters, threshold=0)) == expected, filters
    m.delete_all(agent_id="a1")
    assert ids(m.get_all(filters={"user_id": "u1"})) == {"Other agent"}


def test_a_read_or_write_without_a_scope_is_a_value_error(m: Memory) -> None:
    for call in (
        lambda: m.search("x"),
        lambda: m.get_all(),
        lambda: m.get_all(filters={"category": "food"}),
        lambda: m.add("x", infer=False),
    ):
        with pytest.raises(ValueError, match="user_id'?, '?agent_id"):
            call()


def test_history_events_are_mem0s_only(m: Memory) -> None:
    [first] = m.add("I drink tea", user_id="t", infer=False)["results"]
    m.add("I drink tea", user_id="t", metadata={"when": "morning"}, infer=False)  # a merge
    m.update(first["id"], metadata={"cups": 2})
    events = [h["event"] for h in m.history(first["id"])]
    assert set(events) <= {"ADD", "UPDATE", "DELETE", "NONE"}
    assert events[0] == "ADD" and "NONE" in events and events[-1] == "UPDATE"
    got = m.get(first["id"])
    assert got is not None and got["metadata"] == {"when": "morning", "cups": 2}


def test_mem0_keywords_are_accepted(m: Memory) -> None:
    with pytest.warns(UserWarning, match="memory_type ignored"):
        m.add("Step 1: log in", agent_id="bot", memory_type="procedural_memory", infer=False)
    m.add("Old offer", user_id="e", expiration_date="2000-01-01", infer=False, prompt="p")
    [kept] = m.add("New offer", user_id="e", expiration_date="2999-12-31", infer=False)["results"]
    assert m.get(kept["id"])["expiration_date"] == "2999-12-31"  # type: ignore[index]
    assert ids(m.get_all(filters={"user_id": "e"})) == {"New offer"}
    assert ids(m.get_all(filters={"user_id": "e"}, show_expired=True)) == {"Old offer", "New offer"}
    found = m.search("offer", filters={"user_id": "e"}, explain=True, threshold=0)["results"]
    assert [r["memory"] for r in found] == ["New offer"] and "score_details" in found[0]
    assert (
        len(m.search("offer", filters={"user_id": "e"}, show_expired=True, threshold=0)["results"])
        == 2
    )
    m.update(kept["id"], expiration_date=None)
    assert "expiration_date" not in m.get(kept["id"])  # type: ignore[operator]
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        m.add("x", user_id="e", expiration_date="next week", infer=False)


def test_explain_gives_mem0s_score_details_keys(m: Memory) -> None:
    # mem0's docs print results["results"][0]["score_details"] and read its keys
    # (semantic_score ... threshold); engram's own breakdown follows them
    m.add("I'm vegetarian and avoid mushrooms.", user_id="alice", infer=False)
    m.add("I drink two cups of coffee every morning.", user_id="alice", infer=False)
    [top, *_] = m.search(
        "vegetarian food preferences", filters={"user_id": "alice"}, explain=True, threshold=0.05
    )["results"]
    details = top["score_details"]
    assert list(details)[:7] == [
        "semantic_score",
        "bm25_score",
        "entity_boost",
        "raw_score",
        "max_possible_score",
        "final_score",
        "threshold",
    ]
    assert details["final_score"] == top["score"]
    assert details["threshold"] == 0.05
    assert details["semantic_score"] == details["sim"] and details["raw_score"] == details["fused"]
    assert 0 < details["bm25_score"] <= 1  # "vegetarian" is a keyword match
    assert details["final_score"] <= details["max_possible_score"]

"""Edge cases at engram's boundary: input that once crashed a surface or the store.

Each test pins one fix: bad input gets an ``EngramError`` (422 over HTTP) that says
what was wrong, never a ``RecursionError``, an ``OverflowError``, a ``UnicodeError`` or
a 500, and never changes what is stored. Library and store tests run on both backends.
"""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import Memory
from engram.errors import InvalidInputError
from engram.store import Store
from engram.store.protocols import ListQuery
from engram.validate import (
    MAX_FILTER_TAGS,
    MAX_METADATA_BYTES,
    MAX_METADATA_DEPTH,
    MAX_OFFSET,
    build_record,
)


def snapshot(mem: Memory) -> list[str]:
    """Every memory, history, feedback and transcript row, as the export writes them
    (the header line, which carries the export's own time, left out)."""
    out = io.StringIO()
    mem.admin.export_jsonl(out)
    return out.getvalue().splitlines()[1:]


def nested_dicts(depth: int) -> dict[str, Any]:
    """A dict ``depth`` levels deep: ``nested_dicts(1) == {"v": 1}``."""
    value: dict[str, Any] = {"v": 1}
    for _ in range(depth - 1):
        value = {"v": value}
    return value


def nested_lists(depth: int) -> list[Any]:
    """A list ``depth`` levels deep, built without recursion."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


# -- 1. metadata depth and size ---------------------------------------------------------
def test_metadata_at_the_depth_cap_is_stored(mem: Memory) -> None:
    deepest = nested_dicts(MAX_METADATA_DEPTH)
    record = mem.add("deep but allowed", metadata=deepest)
    assert mem.get(record.id).metadata == deepest
    listed = mem.add("a list at the cap", metadata={"x": nested_lists(MAX_METADATA_DEPTH - 1)})
    assert mem.get(listed.id).metadata["x"] == nested_lists(MAX_METADATA_DEPTH - 1)


@pytest.mark.parametrize("depth", [MAX_METADATA_DEPTH + 1, 256, 300])
def test_metadata_deeper_than_the_cap_is_refused_on_every_write(mem: Memory, depth: int) -> None:
    kept = mem.add("an existing memory", metadata={"ok": True})
    before = snapshot(mem)
    too_deep = nested_dicts(depth)
    with pytest.raises(InvalidInputError, match=f"more than {MAX_METADATA_DEPTH} levels"):
        mem.add("too deep", metadata=too_deep)
    with pytest.raises(InvalidInputError, match=f"more than {MAX_METADATA_DEPTH} levels"):
        mem.add_many(["fine", {"content": "too deep", "metadata": too_deep}])
    with pytest.raises(InvalidInputError, match=f"more than {MAX_METADATA_DEPTH} levels"):
        mem.update(kept.id, metadata=too_deep)
    assert snapshot(mem) == before


def test_metadata_deep_enough_to_exhaust_recursion_is_invalid_input(mem: Memory) -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    shared: list[Any] = []
    for _ in range(40):  # 40 levels of 2 shared references: 2**40 paths, one small object
        shared = [shared, shared]
    for metadata in (
        {"x": nested_lists(100_000)},
        nested_dicts(50_000),
        cycle,
        {"x": shared},
    ):
        with pytest.raises(InvalidInputError, match="metadata"):
            mem.add("deep", metadata=metadata)
    assert mem.get_all() == []


def test_metadata_over_the_size_cap_is_refused(mem: Memory) -> None:
    # {"blob": "..."} is 12 bytes of JSON around the string.
    fits = {"blob": "x" * (MAX_METADATA_BYTES - 12)}
    assert len(json.dumps(fits).encode()) == MAX_METADATA_BYTES
    assert mem.add("big but allowed", metadata=fits).metadata == fits
    before = snapshot(mem)
    for too_big in (
        {"blob": "x" * (MAX_METADATA_BYTES - 11)},
        {"blob": "é" * (MAX_METADATA_BYTES // 2)},  # counted in UTF-8 bytes, not characters
        {"many": list(range(MAX_METADATA_BYTES))},
        {"wide": [[0] * 1000] * 1000},  # a million elements by reference: refused early
    ):
        with pytest.raises(InvalidInputError, match=r"over the limit of 65536 bytes \(64 KiB\)"):
            mem.add("too big", metadata=too_big)
    assert snapshot(mem) == before


def test_http_deep_metadata_is_422_and_nothing_is_stored(
    api: tuple[TestClient, Memory],
) -> None:
    client, memory = api
    for depth in (MAX_METADATA_DEPTH + 1, 300):
        body = {"content": "deep metadata", "metadata": nested_dicts(depth)}
        response = client.post("/v1/memories", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["error"] == "invalid_input"
        assert str(MAX_METADATA_DEPTH) in response.json()["detail"]
        batch = client.post("/v1/memories/batch", json={"items": [body]})
        assert batch.status_code == 422, batch.text
    assert memory.get_all(namespace="default") == []
    listed = client.get("/v1/memories")
    assert listed.status_code == 200 and listed.json()["items"] == []


# -- 2. filters ------------------------------------------------------------------------
def _insert(store: Store, content: str, **fields: Any) -> str:
    record = build_record(content, namespace="ns", max_chars=100_000, **fields)
    store.memories.insert([record])
    return record.id


def _found(store: Store, **query: Any) -> set[str]:
    return {r.id for r in store.memories.select("ns", ListQuery(**query))}


def test_store_tag_filter_takes_more_tags_than_sqlite_expression_depth(any_store: Store) -> None:
    tags = [f"t{i}" for i in range(1200)]
    everything = _insert(any_store, "every tag", tags=tags)
    _insert(any_store, "half the tags", tags=tags[:600])
    assert _found(any_store, tags=tuple(tags[:1100])) == {everything}
    assert _found(any_store, tags=(*tags[:1100], "missing")) == set()


def test_store_tag_filter_is_all_of_and_ignores_repeats(any_store: Store) -> None:
    both = _insert(any_store, "both", tags=["a", "b"])
    only_a = _insert(any_store, "only a", tags=["a"])
    _insert(any_store, "neither", tags=["c"])
    assert _found(any_store, tags=("a", "a", "b")) == {both}
    assert _found(any_store, tags=("a",)) == {both, only_a}
    assert _found(any_store, tags=("b", "b")) == {both}
    assert _found(any_store, tags=("A",)) == set()


def test_get_all_caps_the_tags_of_a_filter(mem: Memory) -> None:
    tags = [f"t{i}" for i in range(MAX_FILTER_TAGS)]
    record = mem.add("tagged", tags=tags)
    assert [r.id for r in mem.get_all(filters={"tags": tags})] == [record.id]
    with pytest.raises(InvalidInputError, match=f"at most {MAX_FILTER_TAGS} tags"):
        mem.get_all(filters={"tags": [*tags, "one more"]})
    with pytest.raises(InvalidInputError, match=f"at most {MAX_FILTER_TAGS} tags"):
        mem.search("tagged", filters={"tags": [*tags, "one more"]})


def test_http_999_tags_is_422_not_500(api: tuple[TestClient, Memory]) -> None:
    client, _ = api
    response = client.get("/v1/memories", params=[("tags", f"t{i}") for i in range(999)])
    assert response.status_code == 422, response.text
    assert f"at most {MAX_FILTER_TAGS} tags" in response.json()["detail"]


KEYS = ['a"b', '"', "x.y", "$", "a[0]", "back\\slash", "spa ce", "ünï", "'", "", "*", "a.b[1]"]


@pytest.mark.parametrize("key", KEYS)
def test_store_metadata_filter_takes_any_key(any_store: Store, key: str) -> None:
    wanted = _insert(any_store, "wanted", metadata={key: "yes", "other": 1})
    _insert(any_store, "unwanted", metadata={key: "no"})
    _insert(any_store, "without", metadata={"other": "yes"})
    assert _found(any_store, metadata={key: "yes"}) == {wanted}


# Stored metadata for the semantics table: one memory per value of key "k".
STORED: dict[str, dict[str, Any]] = {
    "str1": {"k": "1"},
    "int1": {"k": 1},
    "float1": {"k": 1.0},
    "half": {"k": 1.5},
    "true": {"k": True},
    "false": {"k": False},
    "int0": {"k": 0},
    "null": {"k": None},
    "missing": {},
    "object": {"k": {"a": 1}},
    "array": {"k": [1]},
    "text": {"k": "text"},
    "big": {"k": 2**53 + 1},
}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", {"str1"}),  # strings match strings only
        (1, {"int1", "float1", "true"}),  # numbers numerically; true is 1
        (1.0, {"int1", "float1", "true"}),
        (1.5, {"half"}),
        (True, {"int1", "float1", "true"}),
        (False, {"false", "int0"}),
        (0, {"false", "int0"}),
        (None, {"null", "missing"}),  # None: a JSON null or no such key
        ("text", {"text"}),
        ('{"a":1}', set()),  # an object is not its JSON text
        ("[1]", set()),
        (2**53 + 1, {"big"}),  # integers beyond float precision stay exact
        (2**53, set()),
    ],
)
def test_store_metadata_filter_semantics(any_store: Store, value: Any, expected: set[str]) -> None:
    ids = {
        name: _insert(any_store, f"memory {name}", metadata=meta) for name, meta in STORED.items()
    }
    names = {i: name for name, i in ids.items()}
    assert {names[i] for i in _found(any_store, metadata={"k": value})} == expected


def test_http_metadata_filter_key_with_a_quote_works(api: tuple[TestClient, Memory]) -> None:
    client, memory = api
    record = memory.add("quoted key", metadata={'say "hi"': 1})
    memory.add("other", metadata={'say "hi"': 2})
    response = client.get("/v1/memories", params={"metadata": json.dumps({'say "hi"': 1})})
    assert response.status_code == 200, response.text
    assert [m["id"] for m in response.json()["items"]] == [record.id]


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"metadata.k": 2**63}, "64-bit"),
        ({"metadata.k": -(2**63) - 1}, "64-bit"),
        ({"metadata.k": math.nan}, "finite"),
        ({"metadata.k": math.inf}, "finite"),
        ({"metadata.k": "\ud800"}, "surrogate"),
        ({"metadata.k": "a\x00b"}, "NUL"),
        ({"\ud800": 1}, "surrogate"),
        ({1: 1}, "keys must be strings"),
        ({"tags": [1]}, "tags"),
        ({"tags": 5}, "tags"),
        ({"tags": ["\ud800"]}, "surrogate"),
        ({"type": "\x00"}, "NUL"),
    ],
)
def test_get_all_refuses_filters_no_backend_can_compare(
    mem: Memory, filters: dict[Any, Any], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        mem.get_all(filters=filters)


def test_get_all_takes_filter_ints_at_the_64_bit_edges(mem: Memory) -> None:
    high = mem.add("high", metadata={"k": 2**63 - 1})
    low = mem.add("low", metadata={"k": -(2**63)})
    assert [r.id for r in mem.get_all(filters={"metadata.k": 2**63 - 1})] == [high.id]
    assert [r.id for r in mem.get_all(filters={"metadata.k": -(2**63)})] == [low.id]


@pytest.mark.parametrize("filters", [{"tags": [[1]]}, {"tags": 5}, {7: 1}, {"tags": ["t"] * 101}])
def test_recall_filters_that_cannot_compare_are_invalid_input(
    mem: Memory, filters: dict[Any, Any]
) -> None:
    mem.add("a memory to compare with", metadata={"k": [1]}, tags=["a"])
    with pytest.raises(InvalidInputError):
        mem.search("memory", filters=filters)


def test_recall_any_of_filter_given_as_a_set_still_works(mem: Memory) -> None:
    record = mem.add("listed value", metadata={"k": [1]})
    other = mem.add("plain value", metadata={"k": "x"})
    found = {h.memory.id for h in mem.search("value", filters={"metadata.k": {"x", "y"}})}
    assert found == {other.id} and record.id not in found


# -- 3. library errors that escaped as something else ----------------------------------
SURROGATE = "\ud800"


def test_lone_surrogate_memory_ids_are_invalid_input(mem: Memory) -> None:
    record = mem.add("a memory")
    before = snapshot(mem)
    bad = f"{record.id}{SURROGATE}"
    for call in (
        lambda: mem.get(bad),
        lambda: mem.update(bad, "changed"),
        lambda: mem.delete(bad),
        lambda: mem.history(bad),
        lambda: mem.feedback(bad, 1),
    ):
        with pytest.raises(InvalidInputError, match="surrogate"):
            call()
    assert snapshot(mem) == before


@pytest.mark.parametrize("agent_id", [SURROGATE, "a\x00b"])
def test_narrower_ids_need_storable_text(mem: Memory, agent_id: str) -> None:
    # Inside user:alice the agent id is compared in SQL, not only used as a name.
    mem.add("a memory", user_id="alice", agent_id="planner")
    for call in (
        lambda: mem.get_all(user_id="alice", agent_id=agent_id),
        lambda: mem.search("memory", user_id="alice", agent_id=agent_id),
        lambda: mem.add("another", user_id="alice", agent_id=agent_id),
    ):
        with pytest.raises(InvalidInputError, match="agent_id"):
            call()


def test_refused_values_are_shown_short_in_messages(mem: Memory) -> None:
    deep: Any = []
    for _ in range(10_000):  # past the recursion limit of repr()
        deep = [deep]
    for call in (
        lambda: mem.add("x", importance=deep),
        lambda: mem.add("x", importance=10**5000),  # past int-to-str's digit limit
        lambda: mem.add("x", tags=deep),
        lambda: mem.add("x", type=deep),
        lambda: mem.feedback("some-id", deep),
        lambda: mem.transcripts.get([deep]),
        lambda: mem.get_all(offset=10**5000),
        lambda: mem.recall("x", limit=deep),
    ):
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert len(str(refused.value)) < 400


@pytest.mark.parametrize("comment", [SURROGATE, f"fine{SURROGATE}", "a\x00b"])
def test_feedback_comment_needs_storable_text_on_every_backend(mem: Memory, comment: str) -> None:
    record = mem.add("a memory")
    before = snapshot(mem)
    with pytest.raises(InvalidInputError, match="comment"):
        mem.feedback(record.id, 1, comment)
    assert snapshot(mem) == before
    assert mem.admin.feedback_log() == []


@pytest.mark.parametrize(
    ("session_key", "content", "what"),
    [
        ("s1", SURROGATE, "transcript"),
        ("s1", "user: hi\x00there", "transcript"),
        (f"s{SURROGATE}", "fine", "session key"),
        ("s\x00", "fine", "session key"),
    ],
)
def test_transcripts_need_storable_text_on_every_backend(
    mem: Memory, session_key: str, content: str, what: str
) -> None:
    before = snapshot(mem)
    with pytest.raises(InvalidInputError, match=what):
        mem.transcripts.add(session_key, content)
    assert snapshot(mem) == before


@pytest.mark.parametrize("session_key", [f"s{SURROGATE}", "s\x00"])
def test_transcripts_get_refuses_keys_no_backend_can_hold(mem: Memory, session_key: str) -> None:
    with pytest.raises(InvalidInputError, match="session key"):
        mem.transcripts.get(["s1", session_key])


def test_offset_is_capped_with_a_clear_error(mem: Memory) -> None:
    record = mem.add("a memory")
    assert mem.get_all(offset=MAX_OFFSET) == []
    assert [r.id for r in mem.get_all(offset=0)] == [record.id]
    for offset in (MAX_OFFSET + 1, 10**30, 2**63):
        with pytest.raises(
            InvalidInputError, match=f"offset must be an integer in \\[0, {MAX_OFFSET}\\]"
        ):
            mem.get_all(offset=offset)


# -- 4. bodies that are not JSON -------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        b'{"content": "\xff\xfe not utf-8"}',
        b"\xc3\x28",
        b"[" * 100_000,
        b'{"content": "deep", "metadata": ' + b'{"a": ' * 5_000 + b"1" + b"}" * 5_001,
    ],
    ids=["invalid-utf8-in-string", "invalid-utf8", "100k-brackets", "5k-objects"],
)
def test_http_body_that_is_not_json_is_422_invalid_json(
    api: tuple[TestClient, Memory], body: bytes
) -> None:
    client, memory = api
    for path in ("/v1/memories", "/v1/recall", "/v1/transcripts"):
        response = client.post(path, content=body, headers={"content-type": "application/json"})
        assert response.status_code == 422, (path, response.text)
        assert response.json()["error"] == "invalid_json"
    assert memory.get_all(namespace="default") == []


# -- 5. loose types over HTTP ----------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/memories", {"content": "x", "importance": True}),
        ("/v1/memories", {"content": "x", "importance": "0.5"}),
        ("/v1/memories", {"content": "x", "score": "9"}),
        ("/v1/memories", {"content": "x", "score": False}),
        ("/v1/memories", {"content": "x", "confidence": True}),
        ("/v1/memories/batch", {"items": [{"content": "x", "score": "9"}]}),
        ("/api/memory/remember", {"content": "x", "importance": True}),
        ("/v1/search", {"query": "x", "limit": True}),
        ("/v1/search", {"query": "x", "limit": "5"}),
        ("/v1/search", {"query": "x", "limit": 5.0}),
        ("/v1/recall", {"query": "x", "limit": True}),
        ("/v1/recall", {"query": "x", "budget_tokens": "500"}),
        ("/v1/recall", {"query": "x", "budget_tokens": True}),
    ],
)
def test_http_refuses_loosely_typed_numbers(
    api: tuple[TestClient, Memory], path: str, body: dict[str, Any]
) -> None:
    client, memory = api
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "invalid_input"
    assert memory.get_all(namespace="default") == []


@pytest.mark.parametrize("field", ["importance", "score"])
def test_http_patch_refuses_loosely_typed_numbers(
    api: tuple[TestClient, Memory], field: str
) -> None:
    client, memory = api
    record = memory.add("a memory", importance=0.5, score=5.0)
    for value in (True, "1"):
        response = client.patch(f"/v1/memories/{record.id}", json={field: value})
        assert response.status_code == 422, response.text
    assert memory.get(record.id) == record


@pytest.mark.parametrize("rating", [True, False, 1.0, "1", "+1"])
def test_http_refuses_a_loose_rating(api: tuple[TestClient, Memory], rating: Any) -> None:
    client, memory = api
    record = memory.add("a memory")
    response = client.post(f"/v1/memories/{record.id}/feedback", json={"rating": rating})
    assert response.status_code == 422, response.text
    assert memory.get(record.id).quality == 0
    assert memory.admin.feedback_log() == []


def test_http_still_takes_well_typed_numbers(api: tuple[TestClient, Memory]) -> None:
    client, memory = api
    created = client.post(
        "/v1/memories", json={"content": "ints for floats", "importance": 1, "score": 9}
    )
    assert created.status_code == 201, created.text
    record = memory.get(created.json()["id"])
    assert (record.importance, record.score) == (1.0, 9.0)
    assert client.patch(f"/v1/memories/{record.id}", json={"importance": 0}).status_code == 200
    for rating in (1, -1, "up", "down"):
        response = client.post(f"/v1/memories/{record.id}/feedback", json={"rating": rating})
        assert response.status_code == 200, response.text
    assert client.post("/v1/search", json={"query": "ints", "limit": 3}).status_code == 200
    recalled = client.post("/v1/recall", json={"query": "ints", "limit": 2, "budget_tokens": 50})
    assert recalled.status_code == 200, recalled.text
    assert client.get("/v1/memories", params={"limit": "5", "offset": "0"}).status_code == 200


# -- 6. NUL is refused the same way on every backend -----------------------------------
def test_nul_rule_is_the_same_for_content_comments_and_transcripts(mem: Memory) -> None:
    record = mem.add("a memory")
    before = snapshot(mem)
    expected = "NUL character"
    with pytest.raises(InvalidInputError, match=expected):
        mem.add("a\x00b")
    with pytest.raises(InvalidInputError, match=expected):
        mem.feedback(record.id, "up", "a\x00b")
    with pytest.raises(InvalidInputError, match=expected):
        mem.transcripts.add("s1", "a\x00b")
    with pytest.raises(InvalidInputError, match=expected):
        mem.transcripts.add("s\x001", "fine")
    assert snapshot(mem) == before


# -- found by the fuzzer -------------------------------------------------------------
def test_add_many_item_with_a_non_string_key_is_invalid_input(mem: Memory) -> None:
    with pytest.raises(InvalidInputError):
        mem.add_many([{"content": "x", 1: "y"}])  # type: ignore[dict-item]


def test_add_many_with_a_progress_that_is_not_callable_stores_nothing(mem: Memory) -> None:
    with pytest.raises(InvalidInputError):
        mem.add_many(["p1", "p2"], progress=5)  # type: ignore[arg-type]
    assert mem.get_all() == []


def test_http_metadata_filter_nested_past_the_recursion_limit_is_422(
    api: tuple[TestClient, Memory],
) -> None:
    client, _ = api
    response = client.get("/v1/memories", params={"metadata": "[" * 5_000})
    assert response.status_code == 422, response.text

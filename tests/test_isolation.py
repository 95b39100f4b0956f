"""No call scoped to one namespace ever reads, changes or deletes another's memories."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import HashEmbedder
from engram import Config, Memory, NotFoundError
from engram.text import normalize_content

WORDS = st.sampled_from(
    ["deploy", "tea", "alice", "bob", "staging", "database", "kite", "river", "planning"]
    + ["friday", "green", "port", "script", "notes", "release", "cluster", "budget"]
)
TEXT = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)
# How a caller names a namespace: by user id (``user:<id>``) or explicitly.
SCOPES: list[tuple[dict[str, str], dict[str, str]]] = [
    ({"user_id": "a"}, {"user_id": "b"}),
    ({"namespace": "team-a"}, {"namespace": "team-b"}),
    ({"user_id": "a"}, {"namespace": "user:b"}),
    ({"agent_id": "a"}, {"run_id": "b"}),
]


def snapshot(mem: Memory, scope: dict[str, str]) -> dict[str, Any]:
    """Everything a namespace holds, including tombstones, history and feedback."""
    ns = mem.scope(**scope).namespace
    records = mem.get_all(**scope, include_deleted=True, limit=1000)
    return {
        "records": {r.id: r.to_dict() for r in records},
        "history": {r.id: [e.to_dict() for e in mem.history(r.id, **scope)] for r in records},
        "feedback": mem.feedback_log(namespace=ns),
    }


def fill(mem: Memory, scope: dict[str, str], texts: list[str]) -> list[str]:
    ids = list(dict.fromkeys(r.id for r in mem.add_many([{"content": t, **scope} for t in texts])))
    mem.feedback(ids[0], "up", **scope)
    if len(ids) > 1:
        mem.delete(ids[-1], **scope)  # a tombstone: purge of the other namespace must spare it
    return ids


def attack(
    mem: Memory, scope: dict[str, str], victim_ids: list[str], victim_texts: list[str]
) -> None:
    """Every verb, scoped to ``scope``, pointed at another namespace's ids and text."""
    for memory_id in victim_ids:
        with pytest.raises(NotFoundError):
            mem.get(memory_id, **scope)
        with pytest.raises(NotFoundError):
            mem.update(memory_id, "overwritten by the attacker", **scope)
        with pytest.raises(NotFoundError):
            mem.update(memory_id, tags=["pwned"], **scope)
        with pytest.raises(NotFoundError):
            mem.delete(memory_id, **scope)
        with pytest.raises(NotFoundError):
            mem.feedback(memory_id, "down", **scope)
        with pytest.raises(NotFoundError):
            mem.history(memory_id, **scope)
    victims = set(victim_ids)
    assert not victims & {r.id for r in mem.get_all(**scope, include_deleted=True, limit=1000)}
    for text in victim_texts:
        # hybrid runs both legs (dense over the namespace's vectors, and BM25)
        recall = mem.recall(text, limit=50, **scope)
        assert not victims & {h.id for h in recall.hits}
        assert all(h.memory.namespace == mem.scope(**scope).namespace for h in recall.hits)
        for victim_id in victim_ids:
            assert victim_id not in recall.context
        # the same text added here is a new memory, never a dedup onto the victim's
        assert mem.add(text, **scope).id not in victims
    mem.purge(namespace=mem.scope(**scope).namespace)


def tagged(scope: dict[str, str], tag: str) -> dict[str, str]:
    """``scope`` with every id suffixed by ``tag``, so each example has namespaces of its
    own (one PostgreSQL database serves every example of a run)."""
    return {key: f"{value}-{tag}" for key, value in scope.items()}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    scopes=st.sampled_from(SCOPES),
    a_texts=st.lists(TEXT, min_size=1, max_size=4),
    b_texts=st.lists(TEXT, min_size=1, max_size=4),
)
def test_scoped_calls_never_touch_another_namespace(
    store_location: str,
    scopes: tuple[dict[str, str], dict[str, str]],
    a_texts: list[str],
    b_texts: list[str],
) -> None:
    tag = uuid.uuid4().hex[:10]
    scope_a, scope_b = (tagged(scope, tag) for scope in scopes)
    with Memory(store_location, config=Config(), embedder=HashEmbedder(16)) as mem:
        a_ids = fill(mem, scope_a, a_texts)
        b_ids = fill(mem, scope_b, b_texts)
        assert not set(a_ids) & set(b_ids)  # identical text in two namespaces: two memories
        before_a, before_b = snapshot(mem, scope_a), snapshot(mem, scope_b)

        attack(mem, scope_a, b_ids, b_texts)
        assert snapshot(mem, scope_b) == before_b

        attack(mem, scope_b, a_ids, a_texts)
        after_a = snapshot(mem, scope_a)
        # A's original memories are exactly as they were (the attack on B only added to B)
        for memory_id in a_ids:
            assert after_a["records"].get(memory_id) == before_a["records"].get(memory_id) or (
                before_a["records"][memory_id]["deleted_at"] is not None
            )


def test_narrower_ids_filter_within_a_namespace(mem: Memory) -> None:
    planner = mem.add("deploy notes from the planner", user_id="alice", agent_id="planner")
    coder = mem.add("deploy notes from the coder", user_id="alice", agent_id="coder")
    assert planner.namespace == coder.namespace == "user:alice"
    found = {h.id for h in mem.search("deploy notes", user_id="alice", agent_id="planner")}
    assert found == {planner.id}
    assert {r.id for r in mem.get_all(user_id="alice", agent_id="coder")} == {coder.id}
    assert {h.id for h in mem.search("deploy notes", user_id="alice")} == {planner.id, coder.id}
    assert mem.get_all(agent_id="planner") == []  # a different namespace: agent:planner


def test_purge_all_namespaces_is_explicit(mem: Memory) -> None:
    a = mem.add("tombstone in a", user_id="a")
    b = mem.add("tombstone in b", user_id="b")
    mem.delete(a.id, user_id="a")
    mem.delete(b.id, user_id="b")
    assert mem.purge() == 0  # the default namespace has none
    assert mem.purge(namespace="user:a") == 1
    assert [r.id for r in mem.get_all(user_id="b", include_deleted=True)] == [b.id]
    assert mem.purge(all_namespaces=True) == 1


def test_same_content_hash_in_two_namespaces(mem: Memory) -> None:
    text = "Shared words in two places"
    a = mem.add(text, user_id="a")
    b = mem.add(text, user_id="b")
    assert a.content_hash == b.content_hash == normalize_content(text).content_hash
    mem.update(a.id, "Changed in a only", user_id="a")
    assert mem.get(b.id, user_id="b").content == text
    mem.delete(b.id, user_id="b")
    assert mem.get(a.id, user_id="a").content == "Changed in a only"

"""The erase audit keeps no value an erase picked by (left42): the row outlives the
data, so it records each filter's key and operator and how many values it named, never
the values (an e-mail, a customer number). And a job whose memory an erase took reads
that memory once before sweeping what it wrote (the worker read it, then the sweep)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engram import Memory
from engram.core import Scope
from engram.filters import audited, described
from engram.pipeline import extract_job

EMAIL = "alice.quorravelle@example.com"


def test_the_audit_keeps_keys_and_counts_not_values(mem: Memory) -> None:
    mem.add("Alice wrote in about her order", user_id="alice", metadata={"email": EMAIL})
    mem.add("Alice asked for a refund", user_id="alice", metadata={"customer": "C-90210"},
            tags=["billing", "vip"])  # fmt: skip
    kept = mem.add("Bob wrote in", user_id="alice", metadata={"email": "bob@example.com"})
    result = mem.erasure.erase(
        user_id="alice", filters={"metadata.email": EMAIL}, actor="dpo@example.com"
    )
    assert result.memories == 1
    assert result.filters == {"metadata.email": EMAIL}  # the caller's own answer shows it
    second = mem.erasure.erase(
        user_id="alice",
        filters={"metadata.customer": {"$eq": "C-90210"}, "tags": ["billing", "vip"]},
    )
    assert second.memories == 1
    rows = mem.erasure.audit(user_id="alice")
    assert [r.filters for r in rows] == [
        {"metadata.customer": {"op": "$eq", "values": 1}, "tags": {"op": "all", "values": 2}},
        {"metadata.email": {"op": "$eq", "values": 1}},
    ]
    written = json.dumps([r.to_dict() for r in rows])
    for value in (EMAIL, "C-90210", "billing", "vip"):
        assert value not in written
    assert result.audit is not None and result.audit.filters == rows[1].filters
    assert [r.id for r in mem.get_all(user_id="alice")] == [kept.id]


def test_a_narrower_id_is_audited_by_key_too(mem: Memory) -> None:
    mem.add("planner note", user_id="alice", agent_id="planner")
    result = mem.erasure.erase(user_id="alice", agent_id="planner")
    assert result.filters == {"agent_id": "planner"}
    [row] = mem.erasure.audit(user_id="alice")
    assert row.filters == {"agent_id": {"op": "$eq", "values": 1}}


def test_a_swept_job_reads_its_erased_memory_once(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = mem.add("Alice Quorravelle said: I live in Lisbon", user_id="alice")
    apply = extract_job.apply_proposals

    def erase_then_apply(*args: Any, **kwargs: Any) -> Any:
        mem.erasure.erase(user_id="alice")
        return apply(*args, **kwargs)

    monkeypatch.setattr(extract_job, "apply_proposals", erase_then_apply)
    memories = mem.store.memories
    reads: list[str] = []
    get = memories.get

    def counted(namespace: str, memory_id: str, **kwargs: Any) -> Any:
        if memory_id == source.id and kwargs.get("include_deleted"):
            reads.append(memory_id)
        return get(namespace, memory_id, **kwargs)

    monkeypatch.setattr(memories, "get", counted)
    mem.jobs.process_pending()
    assert mem.get_all(user_id="alice", include_deleted=True) == []
    # the extract and hint jobs' sweeps: one read of the erased memory each
    swept = [a for a in mem.erasure.audit(user_id="alice") if a.actor == "pipeline"]
    assert swept and len(reads) == len(swept)


def test_the_result_and_the_audit_walk_the_same_filters() -> None:
    """``described`` (the erase's result, values shown) and ``audited`` (its audit row,
    counts only) name the same keys in the same order: tags, the caller's conditions,
    then the scope's narrower ids (tidy43: one walk serves both)."""
    scope = Scope("user:dana", user_id="dana", agent_id="coder")
    filters = {
        "tags": ["billing", "vip"],
        "category": {"$in": ["episodic", "semantic"]},
        "metadata.customer": "C-90210",
        "type": {"$in": ["fact"]},
    }
    assert described(scope, filters) == {
        "tags": ["billing", "vip"],
        "category": ["episodic", "semantic"],
        "metadata.customer": "C-90210",
        "type": ["fact"],
        "agent_id": "coder",
    }
    assert audited(scope, filters) == {
        "tags": {"op": "all", "values": 2},
        "category": {"op": "$in", "values": 2},
        "metadata.customer": {"op": "$eq", "values": 1},
        "type": {"op": "$in", "values": 1},
        "agent_id": {"op": "$eq", "values": 1},
    }
    assert list(described(scope, filters)) == list(audited(scope, filters))
    assert described(scope, None) == {"agent_id": "coder"}

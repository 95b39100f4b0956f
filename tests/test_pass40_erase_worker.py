"""An erase that commits while a pipeline job runs takes what the job writes after it
(new-user pass, round thirty: a privacy officer). The extract job reads its memory, works
with no transaction open, then writes facts and their history in its own: an erase in
between could not see them, and "Alice Quorravelle said: User's phone is +44 7700
900123." was stored in the erased namespace after the erase (3 of 4 trials with a
background worker).
"""

from __future__ import annotations

from typing import Any

import pytest

from engram import Memory
from engram.pipeline import extract_job

PHONE = "+44 7700 900123"
TEXT = f"Alice Quorravelle said: my phone is {PHONE} and I live in Lisbon"


def _erase_before_applying(mem: Memory, monkeypatch: pytest.MonkeyPatch, **who: Any) -> None:
    """The erase commits after the job read its memory and before it writes its facts."""
    apply = extract_job.apply_proposals

    def erase_then_apply(*args: Any, **kwargs: Any) -> Any:
        mem.erasure.erase(actor="dpo", **who)
        return apply(*args, **kwargs)

    monkeypatch.setattr(extract_job, "apply_proposals", erase_then_apply)


def _rows_of(mem: Memory, namespace: str) -> list[str]:
    return [r.content for r in mem.get_all(namespace=namespace, include_deleted=True, limit=100)]


def test_facts_a_running_job_writes_after_the_erase_are_erased(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = mem.add(TEXT, user_id="alice", agent_id="support")
    mem.add("Bob likes oolong tea", user_id="bob")
    _erase_before_applying(mem, monkeypatch, user_id="alice")
    mem.jobs.process_pending()
    assert _rows_of(mem, "user:alice") == []
    assert mem.store.memories.history("user:alice", source.id) == []
    assert mem.store.review.count("user:alice", status=None) == 0
    sweeps = [a for a in mem.erasure.audit(user_id="alice") if a.actor == "pipeline"]
    assert sweeps and sweeps[0].memories >= 1  # the facts written after the erase
    assert _rows_of(mem, "user:bob") == ["Bob likes oolong tea"]


def test_a_filtered_erase_takes_derived_facts_and_keeps_the_rest(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem.add(TEXT, user_id="alice", metadata={"secret": True})
    mem.jobs.process_pending()  # the other memory's facts are in before the race
    kept = mem.add("Alice likes window seats on long flights", user_id="alice")
    assert "User lives in Lisbon." in _rows_of(mem, "user:alice")  # a fact of the first
    secret = mem.add(
        f"Alice's second phone is {PHONE}9", user_id="alice", metadata={"secret": True}
    )
    _erase_before_applying(mem, monkeypatch, user_id="alice", filters={"metadata.secret": True})
    mem.jobs.process_pending()
    left = _rows_of(mem, "user:alice")
    assert not any(PHONE in text for text in left), left
    assert kept.content in left and secret.content not in left
    # The first memory's facts, derived before the race, go with it too.
    assert "User lives in Lisbon." not in left


def test_a_filtered_erase_takes_the_graph_only_its_memories_stated(mem: Memory) -> None:
    """A filtered erase kept the relations its memory stated (their source set to NULL)
    and their entities: "uses_phone" and the entity "+44 7700 900123" outlived it."""
    mem.add(TEXT, user_id="alice", metadata={"secret": True})
    mem.add("Alice likes tea", user_id="alice")
    mem.add("Alice Quorravelle lives in Lisbon", user_id="alice")  # still states Lisbon
    mem.jobs.process_pending()
    kinds = {r.relation_type for r in mem.graph.relations(user_id="alice")}
    assert {"uses_phone", "likes", "lives_in"} <= kinds
    mem.erasure.erase(user_id="alice", filters={"metadata.secret": True})
    left = mem.graph.relations(user_id="alice")
    assert "uses_phone" not in {r.relation_type for r in left}
    assert {"likes", "lives_in"} <= {r.relation_type for r in left}
    names = {e.name for e in mem.graph.entities(user_id="alice")}
    assert PHONE not in names and "Lisbon" in names and "tea" in names

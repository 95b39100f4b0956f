"""One old fact is one question in the review queue (task queue27).

Mined chats of mine26's check half queued "User lives in Bristol ..." twice: once by the
extract job's held-back UPDATE ("moved to Glasgow") and once by the derived-fact pass of
a second closing ("I live in Partick now"). Approving either supersedes the old fact, so
the second item asked a person the same thing again. Both backends (``mem``)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.records import utcnow

OLD = "I live in Bristol."


def _tell(mem: Memory, *texts: str) -> None:
    for text in texts:
        mem.add(text, user_id="a")
        mem.jobs.process_pending()
        mem.jobs.process_pending()


@pytest.mark.parametrize(
    "told",
    [
        ("I moved to Glasgow last month! I live in Partick now.",),
        ("I moved to Glasgow last month.", "I live in Partick now."),
    ],
    ids=["one turn", "two turns"],
)
def test_an_old_fact_two_statements_close_is_queued_once(
    mem: Memory, told: tuple[str, ...]
) -> None:
    _tell(mem, OLD, *told)
    items = mem.review.list(user_id="a")
    assert len(items) == 1, [(i.target_id, i.proposal.get("content")) for i in items]
    [item] = items
    old = mem.get(item.target_id, user_id="a")  # type: ignore[arg-type]
    assert old is not None and "Bristol" in old.content
    mem.review.approve(item.id, user_id="a")
    assert mem.get(old.id, user_id="a").superseded_by is not None  # type: ignore[union-attr]
    # the other new fact stays current: nothing supersedes "lives in Partick now"
    current = [m.content for m in mem.get_all(user_id="a", limit=50)]
    assert any("Partick" in c for c in current)
    assert mem.review.count(user_id="a") == 0


def test_the_store_keeps_one_pending_item_per_target_and_action(mem: Memory) -> None:
    reviews = mem._core.store.review
    now = utcnow()

    def add(memory_id: str, target_id: str | None, action: str = "UPDATE") -> int:
        proposal = {"action": action, "content": memory_id}
        return reviews.add(
            "ns",
            memory_id,
            target_id=target_id,
            action=action,
            proposal=proposal,
            reason="r",
            now=now,
        ).id

    first = add("m1", "old")
    assert add("m2", "old") == first  # another memory, the same old fact: one item
    assert add("m2", "old", "DELETE") != first  # another action is another question
    assert add("m3", "other") != first
    # a proposal with no target is keyed by its memory, as before
    assert add("m4", None, "ADD") == add("m4", None, "ADD")
    assert add("m5", None, "ADD") != add("m4", None, "ADD")
    # once resolved, a later proposal for the same old fact is a new question
    reviews.resolve("ns", first, status="rejected", actor=None, note=None, now=now)
    assert add("m6", "old") != first
    assert reviews.count("ns") == 5

"""stale26: the facts derived from a statement whose relation closed (docs/graph.md,
"Facts that change"; docs/benchmarks.md, "2026-12-01, derived facts of a closed
statement (session twenty-four, stale26)").

Round seventeen's user told "My phone is a Pixel 7." then "Dropped my Pixel in the
canal, so I'm on an iPhone 15 now.": the graph closed (user, uses_phone, Pixel 7), but
the pipeline's "User's phone is a Pixel 7." stayed current, with nothing queued. Each
test runs on both backends (``mem``); the sentences are dogfood17's and this task's.
"""

from __future__ import annotations

from dataclasses import replace

from engram import Memory
from engram.pipeline import supersession
from engram.records import utcnow
from engram.store.protocols import ListQuery

OLD = "My phone is a Pixel 7."
NEW = "Dropped my Pixel in the canal, so I'm on an iPhone 15 now."


def _mode(mem: Memory, full: bool) -> None:
    core = mem._core
    flags = replace(core.config.pipeline, allow_update_delete=full)
    core.config = replace(core.config, pipeline=flags)


def _tell(mem: Memory, *texts: str, user: str = "a") -> None:
    for text in texts:
        mem.add(text, user_id=user)
        mem.jobs.process_pending()


def _facts(mem: Memory, user: str = "a") -> dict[str, object]:
    """Every fact the pipeline wrote, by content: its record."""
    ns = mem.get_all(user_id=user, limit=1)[0].namespace
    rows = mem._core.store.memories.select(ns, ListQuery(limit=500))
    return {m.content: m for m in rows if m.source_memory_id is not None}


def test_full_mode_supersedes_the_old_statements_fact_with_the_new_one(mem: Memory) -> None:
    _mode(mem, full=True)
    _tell(mem, OLD, NEW)
    facts = _facts(mem)
    old, new = facts["User's phone is a Pixel 7."], facts["User is on an iPhone 15 now."]
    assert old.superseded_by == new.id  # type: ignore[attr-defined]
    # the new statement's other fact is no change of the phone: it stays
    assert facts["User dropped their Pixel in the canal."].superseded_by is None  # type: ignore[attr-defined]
    history = mem.history(old.id, user_id="a")  # type: ignore[attr-defined]
    events = [h.event for h in history]
    assert "superseded" in events and "supersession" in events
    audit = next(h for h in history if h.event == "supersession")
    assert audit.after["outcome"] == "superseded"
    assert audit.after["closed"]["old"] == "Pixel 7"
    assert audit.after["closed"]["new"] == "iPhone 15"
    # superseded facts leave recall: the old value's fact is no longer a hit
    hits = mem.recall("What phone do I have at the moment?", user_id="a", limit=10).hits
    assert all(h.memory.id != old.id for h in hits)  # type: ignore[attr-defined]
    assert mem.review.count(user_id="a") == 0


def test_controlled_mode_queues_the_change_once_and_approving_supersedes(mem: Memory) -> None:
    _tell(mem, OLD, NEW)
    facts = _facts(mem)
    old, new = facts["User's phone is a Pixel 7."], facts["User is on an iPhone 15 now."]
    assert old.superseded_by is None  # type: ignore[attr-defined]
    [item] = mem.review.list(user_id="a")
    assert item.target_id == old.id  # type: ignore[attr-defined]
    assert item.proposal["content"] == new.content  # type: ignore[attr-defined]
    # the pass run again decides nothing new (the audit row makes it idempotent)
    told = next(m for m in mem.get_all(user_id="a", limit=50) if m.content == NEW)
    again = supersession.supersede_derived(mem._core, told, now=utcnow())
    assert again.compared == 0
    _tell(mem, "My sister is called Marit.")
    assert mem.review.count(user_id="a") == 1
    mem.review.approve(item.id, user_id="a")
    assert _facts(mem)["User's phone is a Pixel 7."].superseded_by is not None  # type: ignore[attr-defined]


def test_no_change_queues_nothing(mem: Memory) -> None:
    # precision first: statements that close nothing leave the queue empty
    _tell(
        mem,
        OLD,
        "My sister is called Marit.",
        "I love my Pixel 7, the camera is great.",
        "I work at Philips as a product designer.",
    )
    assert mem.review.count(user_id="a") == 0
    assert all(m.superseded_by is None for m in _facts(mem).values())  # type: ignore[attr-defined]


def test_a_possessive_new_value_still_names_it(mem: Memory) -> None:
    _mode(mem, full=True)
    _tell(
        mem,
        "My daughter's school is Oakwood Primary.",
        "My daughter changed schools from Oakwood to St Mary's.",
    )
    facts = _facts(mem)
    old = facts["User's daughter's school is Oakwood Primary."]
    new = facts["User's daughter changed schools from Oakwood to St Mary's."]
    assert old.superseded_by == new.id  # type: ignore[attr-defined]


def test_a_change_whose_new_statement_gave_no_fact_is_left_to_recall(mem: Memory) -> None:
    # "We're with Odido ..." gives no fact offline: nothing to supersede with, and the
    # old fact is demoted for a question about now (stale_memories covers derived facts)
    _mode(mem, full=True)
    _tell(mem, "Our internet provider is KPN.")
    _tell(mem, "We're with Odido for internet since the KPN contract ran out.")
    facts = _facts(mem)
    old = facts["User's internet provider is KPN."]
    assert old.superseded_by is None  # type: ignore[attr-defined]
    ns = old.namespace  # type: ignore[attr-defined]
    assert old.id in mem._core.store.graph_counts.stale_memories(ns, [old.id])  # type: ignore[attr-defined]

"""A change told inside one write batch reads its earlier value (batch40): a first
value and its change in one ``add_many``, or as turns of one mined chat, close the old
value as the same two told by two ``add`` calls do, on both backends. Before, the
earlier-memory reader (``change_again.earlier_memories``) asked the keyword index only:
SQLite's reads committed rows, so it found no memory of the batch; PostgreSQL's reads
inside the transaction, where the batch's later memories take places in its ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import change_again
from engram.records import MemoryRecord, utcnow
from engram.store import batch_reads
from engram.store.batch_reads import BatchReads
from engram.store.protocols.graph import Statement
from engram.validate import build_record

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

#: (turns, the first value first and the change last; old; new): frames said again.
STORIES = [
    (["The cat eats Purina.", "She's been sleeping a lot.", "The cat eats Royal Canin now."],
     "Purina", "Royal Canin"),
    (["We order groceries from Tesco.", "Busy week at work.",
      "We order groceries from Ocado now."], "Tesco", "Ocado"),
    (["The boiler is serviced by British Gas.", "It was cold last night.",
      "The boiler is serviced by Octopus now."], "British Gas", "Octopus"),
]  # fmt: skip


def _at(k: int) -> datetime:
    return START + timedelta(days=30 * k)


def _graph(mem: Memory, namespace: str) -> tuple[set[str], set[str]]:
    rows = [
        r
        for r in mem.graph.relations(current_only=False, namespace=namespace)
        if r.relation_type != "talks_about"
    ]
    return (
        {r.target for r in rows if r.valid_to is None},
        {r.target for r in rows if r.valid_to is not None},
    )


def _batch(mem: Memory, namespace: str, turns: list[str]) -> tuple[set[str], set[str]]:
    mem.add_many(
        [{"content": t, "created_at": _at(k)} for k, t in enumerate(turns)], namespace=namespace
    )
    mem.jobs.process_pending()
    return _graph(mem, namespace)


def _chat(mem: Memory, namespace: str, turns: list[str]) -> tuple[set[str], set[str]]:
    messages = []
    for k, text in enumerate(turns):
        messages.append({"role": "user", "content": text, "created_at": _at(k).isoformat()})
        later = (_at(k) + timedelta(minutes=1)).isoformat()
        messages.append({"role": "assistant", "content": "Got it.", "created_at": later})
    mem.palace.mine_conversation(messages, wing="home", namespace=namespace)
    mem.jobs.process_pending()
    return _graph(mem, namespace)


def _one_by_one(mem: Memory, namespace: str, turns: list[str]) -> tuple[set[str], set[str]]:
    for k, text in enumerate(turns):
        mem.add(text, namespace=namespace, created_at=_at(k))
        mem.jobs.process_pending()
    return _graph(mem, namespace)


@pytest.mark.parametrize(("turns", "old", "new"), STORIES)
def test_a_change_in_one_add_many_closes_its_earlier_value(
    mem: Memory, turns: list[str], old: str, new: str
) -> None:
    current, closed = _batch(mem, "batch", turns)
    assert (current, closed) == _one_by_one(mem, "one", turns)
    assert old in closed and old not in current
    assert new in current


@pytest.mark.parametrize(("turns", "old", "new"), STORIES[:2])
def test_a_change_in_one_mined_chat_closes_its_earlier_value(
    mem: Memory, turns: list[str], old: str, new: str
) -> None:
    current, closed = _chat(mem, "chat", turns)
    assert old in closed and old not in current
    assert new in current


def test_the_batch_s_later_memories_do_not_crowd_out_the_earlier_one(mem: Memory) -> None:
    # Six later notes that name the new food: read inside the batch's transaction (as
    # PostgreSQL's keyword index is), they rank above the first statement.
    later = [f"Royal Canin box {k} for the cat arrived." for k in range(6)]
    turns = ["The cat eats Purina.", "The cat eats Royal Canin now.", *later]
    current, closed = _batch(mem, "crowd", turns)
    assert "Purina" in closed and "Royal Canin" in current


@pytest.mark.parametrize(
    ("first", "look_alike"),
    [
        ("We order groceries from Tesco.", "My sister orders her groceries from Waitrose now."),
        ("We order groceries from Tesco.", "We might order groceries from Waitrose next year."),
    ],
)
def test_a_look_alike_in_the_batch_closes_nothing(mem: Memory, first: str, look_alike: str) -> None:
    current, closed = _batch(mem, "look", [first, "Busy week at work.", look_alike])
    assert not closed
    assert (current, closed) == _one_by_one(mem, "one", [first, "Busy week at work.", look_alike])


def _record(text: str, k: int, namespace: str = "ns", role: str | None = None) -> MemoryRecord:
    meta = {} if role is None else {"role": role}
    return build_record(
        text, namespace=namespace, max_chars=10_000, created_at=_at(k), metadata=meta
    )


def test_sharing_reads_the_batch_s_memories_holding_the_query_s_words() -> None:
    first = _record("The cat eats Purina.", 0)
    other = _record("Our bins go out on Tuesdays.", 1)
    elsewhere = _record("The cat eats Whiskas.", 1, namespace="other")
    reads = BatchReads(_NoStore(), [first, other, elsewhere])
    assert reads.sharing("ns", ["cat", "eats", "royal"]) == [(first, 2)]
    assert reads.sharing("ns", ["bin"]) == [(other, 1)]  # "bins": a plural's "s" off
    assert reads.sharing("ns", ["dog"]) == []
    assert batch_reads.written(reads) is reads
    assert batch_reads.written(object()) is None


class _NoStore:
    graph = None
    graph_counts = None


def test_earlier_memories_of_a_batch_are_its_own_earlier_user_turns(mem: Memory) -> None:
    texts = ["The cat eats Purina.", "Noted, the cat eats Purina.", "The cat eats Royal Canin now."]
    records = [_record(t, k, role="assistant" if k == 1 else None) for k, t in enumerate(texts)]
    reads = BatchReads(mem.store, records)
    change = records[2]
    statement = Statement(change.id, [], change.created_at, utcnow())
    found = change_again.earlier_memories(reads, "ns", change.content, statement)
    assert [m.content for m in found] == ["The cat eats Purina."]
    # The same store without the batch: nothing (the records were never written).
    assert change_again.earlier_memories(mem.store, "ns", change.content, statement) == []

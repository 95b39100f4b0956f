"""The closing plans of one ``add_many`` batch read the graph through ``BatchReads``
(issue 29, build25): each read is made once a batch, and forgotten the moment a plan
writes (closes a relation) or calls anything else, so the stored graph is the one
reading every time gives."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engram import Memory, write, write_link
from engram.config import Config
from engram.records import utcnow
from engram.store import Store, batch_reads
from engram.store.batch_reads import BatchReads
from engram.store.protocols.graph import Statement
from engram.store.sql.graph import SqlGraph
from engram.store.sql.graph_counts import SqlGraphCounts
from engram.validate import build_record

NOW = utcnow()

#: Changes of held slots, told over several batches, and the same subjects again: the
#: plans close relations (``graph.invalidate``) in the middle of a batch.
TOLD = [
    "I live in Paris.",
    "I use Todoist for my tasks.",
    "My manager is Lena.",
    "My sister Ana lives in Porto.",
    "I moved to Berlin.",
    "I switched from Todoist to Things.",
    "My manager is Omar now.",
    "Ana moved to Lisbon last month.",
    "I moved to Madrid.",
    "I use Things every day.",
    "My manager is Omar.",
    "I live in Madrid now.",
]


class _Graph:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def entity(self, namespace: str, name: str) -> tuple[str, str]:
        self.calls.append(f"entity {name}")
        return (namespace, name)

    def relations(self, namespace: str, *, limit: int) -> list[int]:
        self.calls.append("relations")
        return list(range(limit))

    def invalidate(self, namespace: str) -> None:
        self.calls.append("invalidate")


class _Counts:
    def relation_cardinality(self, namespace: str, types: list[str]) -> dict[str, int]:
        return dict.fromkeys(types, 1)


class _Store:
    def __init__(self) -> None:
        self.graph = _Graph()
        self.graph_counts = _Counts()
        self.memories = "memories"


def test_a_read_is_made_once_and_forgotten_after_a_write_or_any_other_call() -> None:
    store = _Store()
    reads = BatchReads(store)
    assert reads.graph.entity("ns", "Ana") == ("ns", "Ana")
    assert reads.graph.entity("ns", "Ana") == ("ns", "Ana")
    assert store.graph.calls == ["entity Ana"]
    reads.graph.invalidate("ns")  # a plan closed a relation: read again after it
    reads.graph.entity("ns", "Ana")
    assert store.graph.calls == ["entity Ana", "invalidate", "entity Ana"]
    assert reads.memories == "memories"  # any other part may write: forget too
    reads.graph.entity("ns", "Ana")
    assert store.graph.calls[-1] == "entity Ana" and len(store.graph.calls) == 4
    assert reads.hits == 1


def test_remembered_lists_are_handed_out_as_copies_and_list_arguments_are_keys() -> None:
    reads = BatchReads(_Store())
    first = reads.graph.relations("ns", limit=3)
    first.append(99)
    assert reads.graph.relations("ns", limit=3) == [0, 1, 2]
    assert reads.graph_counts.relation_cardinality("ns", ["lives_in"]) == {"lives_in": 1}
    assert reads.graph_counts.relation_cardinality("ns", ["lives_in"]) == {"lives_in": 1}
    assert reads.hits == 2


def _graph(mem: Memory) -> list[tuple[Any, ...]]:
    rels = mem.store.graph.relations(
        mem.scope().namespace, entity_id=None, current_only=False, at=None, limit=10_000,
        offset=0,
    )  # fmt: skip
    return sorted((r.source, r.relation_type, r.target, r.valid_to is None) for r in rels)


class _Unremembered(BatchReads):
    """``BatchReads`` remembering no read: every plan reads the store (it still holds
    the batch's memories, which the plans read since batch40)."""

    def read(self, key: Any, call: Any) -> Any:
        return call()

    def named(self, namespace: str, name: str) -> bool:
        return True


def test_the_graph_is_the_same_with_and_without_the_batch_reads(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(write, "BATCH", 4)  # several batches, closes inside each
    graphs = []
    for name, reads in (("plain", _Unremembered), ("batch", BatchReads)):
        monkeypatch.setattr(write_link, "BatchReads", reads)
        with Memory(tmp_path / f"{name}.db", config=config, embedder=None) as mem:
            mem.add_many(TOLD)
            graphs.append(_graph(mem))
    assert graphs[0] == graphs[1]
    assert any(not holds for *_, holds in graphs[1])  # the plans did close relations


def test_a_batch_reads_each_entity_once(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: Counter[tuple[str, str]] = Counter()
    entity = SqlGraph.entity

    def counted(self: SqlGraph, namespace: str, name: str) -> Any:
        read[(namespace, name)] += 1
        return entity(self, namespace, name)

    names = SqlGraphCounts.entity_names

    def named(self: SqlGraphCounts, namespace: str, limit: int) -> Any:
        read[(namespace, "names of entities")] += 1
        return names(self, namespace, limit)

    with Memory(tmp_path / "s.db", config=config, embedder=None) as mem:
        mem.add("My sister Ana lives in Porto.")
        monkeypatch.setattr(SqlGraph, "entity", counted)
        monkeypatch.setattr(SqlGraphCounts, "entity_names", named)
        mem.add_many([f"Ana called me about her garden, week {n}." for n in range(40)])
    assert read  # the plans read the graph
    assert max(read.values()) == 1


NAMES = ["Ana", "ana's", "Porto", "porto service", "Nobody", "nobody app", "The team", "ANA"]


def test_a_name_no_entity_has_is_answered_without_reading_it(
    any_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 29 (pgadd26): most of a plan's entity reads are of names no entity has (a
    subject tried with each generic head); one read of the namespace's names answers
    them, and the answers are the store's own."""
    [memory] = any_store.memories.insert(
        [build_record("Ana lives in Porto.", namespace="ns", max_chars=100)]
    )
    said = Statement(memory.record.id, [("Ana", "lives_in", "Porto", 0.8)], NOW, NOW)
    any_store.graph.record("ns", [said], single_valued=())
    expected = [any_store.graph.entity("ns", name) for name in NAMES]
    assert [e is not None for e in expected] == [True, True, True, False] + [False] * 3 + [True]
    read: Counter[str] = Counter()
    entity = SqlGraph.entity

    def counted(self: SqlGraph, namespace: str, name: str) -> Any:
        read[name] += 1
        return entity(self, namespace, name)

    monkeypatch.setattr(SqlGraph, "entity", counted)
    reads = BatchReads(any_store)
    assert [reads.graph.entity("ns", name) for name in NAMES * 2] == expected * 2
    assert read == {"Ana": 1, "ana's": 1, "Porto": 1, "ANA": 1}
    assert reads.graph.entity("other", "Ana") is None  # another namespace: its own names
    # Past ``NAMES_READ`` names, each is read as it is asked.
    monkeypatch.setattr(batch_reads, "NAMES_READ", 1)
    read.clear()
    reads = BatchReads(any_store)
    assert [reads.graph.entity("ns", name) for name in NAMES] == expected
    assert read == Counter(NAMES)

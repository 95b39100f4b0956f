"""``GraphStore.record`` of a batch writes what recording its statements one by one
writes: the same entities, counts, types, aliases, validity windows, running averages
and mentions, on each backend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram.errors import NotFoundError
from engram.store import Store
from engram.store.protocols.graph import SINGLE_VALUED, Statement, Triple
from engram.validate import build_record

T0 = datetime(2024, 1, 1, tzinfo=UTC)

#: (text, triples, entity types, valid_from in days after T0): out-of-order times, so
#: single-valued facts close windows, later-known facts start earlier, and the same
#: memory states something twice.
SCRIPT: list[tuple[str, list[Triple], dict[str, str], int]] = [
    ("a", [("Jon", "lives in", "Paris", 0.75), ("Jon", "talks_about", "Paris", 0.4)], {}, 10),
    ("b", [("Jon", "lives_in", "Berlin", 0.75)], {"Jon": "person"}, 20),
    ("c", [("jon", "lives in", "Oslo", 0.7), ("Jon's", "likes", "dance", 0.6)], {}, 15),
    ("d", [("Jon", "lives_in", "Paris", 0.9)], {"Dr. Smith": "unknown"}, 5),
    ("e", [("Gina", "works at", "Acme", 0.75), ("Gina", "works_at", "Acme", 0.5)], {}, 30),
    ("f", [("Gina", "works_at", "Initech", 0.75)], {"Gina": "person", "Dr Smith": "doctor"}, 25),
    ("g", [("Gina", "works_at", "Acme", 0.6)], {}, 40),
    ("h", [("Jon", "likes", "Dance", 0.8), ("Jon", "talks_about", "Paris", 0.4)], {}, 12),
    ("a", [("Jon", "talks_about", "Paris", 0.4), ("Jon", "talks_about", "Rome", 0.4)], {}, 10),
    ("i", [], {"Caroline's": "unknown", "caroline": "person"}, 3),
    ("j", [("Caroline", "attended", "support group", 0.7)], {}, 2),
    ("k", [("Jon", "lives_in", "Berlin", 0.75), ("Jon", "lives_in", "Rome", 0.75)], {}, 20),
]


def _memories(store: Store, namespace: str) -> dict[str, tuple[str, datetime]]:
    """One memory per letter of the script: id and time."""
    out: dict[str, tuple[str, datetime]] = {}
    for letter in dict.fromkeys(row[0] for row in SCRIPT):
        record = build_record(f"memory {letter}", namespace=namespace, max_chars=100)
        [result] = store.memories.insert([record])
        out[letter] = (result.record.id, T0)
    return out


def _statements(ids: dict[str, tuple[str, datetime]]) -> list[Statement]:
    return [
        Statement(
            ids[letter][0],
            triples,
            T0 + timedelta(days=days),
            T0 + timedelta(days=100, seconds=i),
            types,
        )
        for i, (letter, triples, types, days) in enumerate(SCRIPT)
    ]


def _graph(store: Store, namespace: str, ids: dict[str, tuple[str, datetime]]) -> Any:
    """Everything the graph holds for ``namespace``, memory ids as script letters."""
    letter = {memory_id: name for name, (memory_id, _) in ids.items()}
    entities = store.graph.entities(namespace, limit=1000, offset=0, query=None)
    relations = store.graph.relations(
        namespace, entity_id=None, current_only=False, at=None, limit=1000, offset=0
    )
    return (
        sorted(
            (
                e.name,
                e.canonical_name,
                e.entity_type,
                e.mentions,
                e.updated_at,
                e.aliases,
                [
                    (letter[m.memory_id], m.mention_text, m.confidence)
                    for m in store.graph.mentions(namespace, e.id)
                ],
            )
            for e in entities
        ),
        sorted(
            (
                r.source,
                r.relation_type,
                r.target,
                r.confidence,
                r.mentions,
                r.strength,
                r.valid_from,
                r.valid_to,
                None if r.source_memory_id is None else letter[r.source_memory_id],
                r.created_at,
            )
            for r in relations
        ),
    )


def _summary(results: Any) -> list[tuple[int, int, int, int, int, int]]:
    return [
        (r.new_mentions, r.added, r.reinforced, r.superseded, r.unchanged, len(r.relations))
        for r in results
    ]


@pytest.mark.parametrize("size", [2, 5, len(SCRIPT)])
def test_a_batch_writes_what_one_by_one_writes(any_store: Store, size: int) -> None:
    one, many = _memories(any_store, "one"), _memories(any_store, "many")
    # "a" has stated something before either run: its second statement is checked
    # against what the store holds.
    for ids, namespace in ((one, "one"), (many, "many")):
        first = Statement(ids["a"][0], [("Jon", "talks_about", "Paris", 0.4)], T0, T0)
        any_store.graph.record(namespace, [first], single_valued=SINGLE_VALUED)
    singles = [
        result
        for statement in _statements(one)
        for result in any_store.graph.record("one", [statement], single_valued=SINGLE_VALUED)
    ]
    batched = _statements(many)
    results = [
        result
        for start in range(0, len(batched), size)
        for result in any_store.graph.record(
            "many", batched[start : start + size], single_valued=SINGLE_VALUED
        )
    ]
    assert _summary(results) == _summary(singles)
    assert _graph(any_store, "many", many) == _graph(any_store, "one", one)
    superseded = [row for row in _graph(any_store, "one", one)[1] if row[7] is not None]
    assert superseded, "the script closes windows"


def test_a_batch_result_holds_the_relations_after_the_batch(any_store: Store) -> None:
    ids = _memories(any_store, "default")
    first = Statement(ids["a"][0], [("Jon", "likes", "dance", 0.6)], T0, T0)
    second = Statement(ids["b"][0], [("Jon", "likes", "dance", 0.8)], T0, T0)
    one, two = any_store.graph.record("default", [first, second], single_valued=())
    assert (one.added, two.reinforced) == (1, 1)
    assert one.relations[0].id == two.relations[0].id
    assert one.relations[0].mentions == two.relations[0].mentions == 2
    assert one.relations[0].confidence == pytest.approx(0.7)


def test_a_batch_with_a_missing_memory_writes_nothing(any_store: Store) -> None:
    ids = _memories(any_store, "default")
    good = Statement(ids["a"][0], [("Jon", "likes", "dance", 0.6)], T0, T0)
    missing = Statement("0" * 32, [("Gina", "likes", "tea", 0.6)], T0, T0)
    with pytest.raises(NotFoundError):
        any_store.graph.record("default", [good, missing], single_valued=())
    assert any_store.graph.entities("default", limit=10, offset=0, query=None) == []
    assert any_store.graph.record("default", [], single_valued=()) == []


def _counting(monkeypatch: pytest.MonkeyPatch, store: Store) -> list[str]:
    """Every statement the store's shared SQL sends from now on (both backends)."""
    sent: list[str] = []
    d = store.graph._sql.d  # type: ignore[attr-defined]
    wrap = d.wrap

    class Counted:
        def __init__(self, conn: Any) -> None:
            self.conn = wrap(conn)

        def execute(self, sql: str, params: Any = ()) -> Any:
            sent.append(sql)
            return self.conn.execute(sql, params)

        def executemany(self, sql: str, rows: Any) -> Any:
            sent.append(sql)
            return self.conn.executemany(sql, rows)

    monkeypatch.setattr(d, "wrap", Counted)
    return sent


def test_a_batch_reads_the_windows_its_triples_compete_with_once(
    any_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 29 (pgadd26): restating facts the graph holds costs the same statements
    for 5 triples as for 60; it was a read per triple (two on PostgreSQL's 20k build)."""
    ids = _memories(any_store, "default")
    known = [("Jon", "lives_in", "Paris", 0.7), ("Jon", "likes", "dance", 0.6)]
    known += [("Gina", "works_at", "Acme", 0.8), ("Gina", "talks_about", "Rome", 0.4)]
    first = Statement(ids["a"][0], known, T0, T0)
    any_store.graph.record("default", [first], single_valued=SINGLE_VALUED)
    sent = []
    for count in (5, 60):
        records = [
            build_record(f"restated {count} {n}", namespace="default", max_chars=100)
            for n in range(count)
        ]
        fresh = [r.record.id for r in any_store.memories.insert(records)]
        statements = [
            Statement(
                fresh[n],
                [known[n % len(known)]],
                T0 + timedelta(days=n % 7),
                T0 + timedelta(days=50, seconds=n),
            )
            for n in range(count)
        ]
        counted = _counting(monkeypatch, any_store)
        results = any_store.graph.record("default", statements, single_valued=SINGLE_VALUED)
        monkeypatch.undo()
        assert sum(r.reinforced for r in results) == count  # every triple restated
        sent.append(len(counted))
    assert sent[0] == sent[1], sent
    relations = any_store.graph.relations(
        "default", entity_id=None, current_only=False, at=None, limit=100, offset=0
    )
    assert sorted((r.source, r.target, r.mentions, r.valid_from) for r in relations) == [
        ("Gina", "Acme", 17, T0),
        ("Gina", "Rome", 17, T0),
        ("Jon", "Paris", 18, T0),
        ("Jon", "dance", 17, T0),
    ]

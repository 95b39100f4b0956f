"""``mem.graph``: the temporal knowledge graph on both backends (FEATURES G1, G2).

Time is the tests': memories carry ``created_at`` and facts an explicit ``valid_from``,
so every validity window below is exact.
"""

from __future__ import annotations

import asyncio
import inspect
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from typing import Any

import pytest

from conftest import record_battery
from engram import AsyncMemory, Config, Memory
from engram.aio import AsyncGraph, Awaitable
from engram.errors import InvalidInputError, NotFoundError
from engram.graph import Graph
from engram.records import MemoryRecord
from engram.store.protocols import Relation

JAN = datetime(2024, 1, 10, 9, 0, tzinfo=UTC)
JUN = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
NOW = datetime(2024, 7, 1, tzinfo=UTC)


@pytest.fixture
def config(tmp_path: Any) -> Config:
    """The shared config without the write-time linker (G3, tests/test_linker.py):
    these tests state every fact themselves, so the windows and counts are exact."""
    return Config.load(env={"ENGRAM_PIPELINE_LINKER": "false"}, home=str(tmp_path / "home"))


def told(mem: Memory, content: str, when: datetime, **scope: Any) -> MemoryRecord:
    """A memory written at ``when``."""
    return mem.add(content, created_at=when, **scope)


def window(rel: Relation) -> tuple[str, str, str, datetime, datetime | None]:
    return (rel.source, rel.relation_type, rel.target, rel.valid_from, rel.valid_to)


def battery_story(mem: Memory) -> tuple[MemoryRecord, MemoryRecord]:
    """Issue 12's scripted story: the battery is swapped in June."""
    first = told(mem, "Derek owns an efoil with a 12V20Ah battery", JAN)
    later = told(mem, "Derek swapped the battery for a 48V one", JUN)
    record_battery(mem, first.id, later.id, times=(JAN, JUN))
    return first, later


def test_the_battery_story_keeps_both_facts_with_their_windows(mem: Memory) -> None:
    battery_story(mem)
    assert [window(r) for r in mem.graph.timeline("efoil")] == [
        ("Derek", "owns", "efoil", JAN, None),
        ("efoil", "has_battery", "12V20Ah battery", JAN, JUN),
        ("efoil", "has_battery", "48V battery", JUN, None),
    ]
    before = mem.graph.as_of(datetime(2024, 3, 1, tzinfo=UTC), entity="efoil")
    after = mem.graph.as_of(datetime(2024, 6, 2, tzinfo=UTC), entity="efoil")
    assert [r.target for r in before] == ["efoil", "12V20Ah battery"]
    assert [r.target for r in after] == ["efoil", "48V battery"]
    # valid_to is exclusive: at the very moment of the swap the new battery holds
    assert [r.target for r in mem.graph.as_of(JUN, entity="efoil")][-1] == "48V battery"
    # a date means the whole day: the swap on June 1 is in "as of June 1"
    assert [r.target for r in mem.graph.as_of(date(2024, 6, 1))][-1] == "48V battery"
    assert [r.target for r in mem.graph.as_of("2024-05-31")][-1] == "12V20Ah battery"
    current = mem.graph.relations("efoil")
    assert [(r.target, r.current) for r in current] == [("efoil", True), ("48V battery", True)]
    assert len(mem.graph.relations("efoil", current_only=False)) == 3


def test_recording_the_same_memory_twice_changes_nothing(mem: Memory) -> None:
    first, later = battery_story(mem)
    entities = mem.graph.entities()
    timeline = mem.graph.timeline("efoil")
    again = mem.graph.record(
        first.id,
        [("Derek", "owns", "efoil", 0.9), ("efoil", "has battery", "12V20Ah battery", 0.8)],
        entity_types={"Derek": "person", "efoil": "item"},
        now=NOW,
    )
    twice = mem.graph.record(later.id, [("efoil", "has_battery", "48V battery", 0.9)], now=NOW)
    assert (again.new_mentions, again.added, again.reinforced, again.unchanged) == (0, 0, 0, 2)
    assert (twice.new_mentions, twice.superseded, twice.unchanged) == (0, 0, 1)
    assert mem.graph.entities() == entities
    assert mem.graph.timeline("efoil") == timeline
    assert mem.graph.memories_of("efoil") == [first.id, later.id]


def test_entity_mentions_count_once_per_memory(mem: Memory) -> None:
    one = told(mem, "Derek owns an efoil and a kayak", JAN)
    two = told(mem, "Derek rides the efoil", JUN)
    mem.graph.record(one.id, [("Derek", "owns", "efoil", 1.0), ("DEREK", "owns", "kayak", 1.0)])
    result = mem.graph.record(two.id, [("derek", "rides", "efoil", 1.0)])
    assert result.new_mentions == 2
    derek = mem.graph.entity("  derek ")
    assert (derek.name, derek.canonical_name, derek.mentions) == ("Derek", "derek", 2)
    assert [e.canonical_name for e in mem.graph.entities()] == ["derek", "efoil", "kayak"]


def test_confidence_is_a_running_average_over_memories(mem: Memory) -> None:
    ids = [told(mem, f"Derek owns an efoil ({n})", JAN).id for n in range(3)]
    for memory_id, confidence in zip(ids, (0.9, 0.6, 0.3), strict=True):
        mem.graph.record(memory_id, [("Derek", "owns", "efoil", confidence)], valid_from=JAN)
    mem.graph.record(ids[2], [("Derek", "owns", "efoil", 0.3)], valid_from=JAN)  # again
    [owns] = mem.graph.relations("Derek")
    # seed 004: (old_avg * n + new) / (n + 1), one step per memory
    assert owns.mentions == 3
    assert owns.confidence == pytest.approx((0.9 + 0.6 + 0.3) / 3)
    assert owns.strength == 1.0
    assert owns.source_memory_id == ids[0]


def test_concurrent_records_count_every_memory_once(mem: Memory) -> None:
    notes = [told(mem, f"Derek owns an efoil, note {n}", JAN) for n in range(8)]
    confidences = [0.1 * (n + 1) for n in range(8)]

    def state(n: int) -> None:
        mem.graph.record(notes[n].id, [("Derek", "owns", "efoil", confidences[n])])

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(state, [*range(8), *range(8)]))  # each memory twice, at once
    [owns] = mem.graph.timeline("Derek")
    assert owns.mentions == 8
    assert owns.confidence == pytest.approx(sum(confidences) / 8)
    assert mem.graph.entity("efoil").mentions == 8


def test_multi_valued_relations_accumulate(mem: Memory) -> None:
    one = told(mem, "Derek owns an efoil", JAN)
    two = told(mem, "Derek bought a kayak", JUN)
    mem.graph.record(one.id, [("Derek", "owns", "efoil", 1.0)])
    result = mem.graph.record(two.id, [("Derek", "owns", "kayak", 1.0)])
    assert (result.added, result.superseded) == (1, 0)
    assert [(r.target, r.valid_to) for r in mem.graph.relations("Derek")] == [
        ("efoil", None),
        ("kayak", None),
    ]


def test_supersede_closes_the_fact_that_held(mem: Memory) -> None:
    one = told(mem, "Derek drives a van", JAN)
    two = told(mem, "Derek sold the van and drives a bike now", JUN)
    mem.graph.record(one.id, [("Derek", "drives", "van", 1.0)])
    new = mem.graph.supersede("Derek", "drives", "bike", valid_from=JUN, memory_id=two.id)
    assert (new.target, new.valid_from, new.valid_to) == ("bike", JUN, None)
    assert (
        mem.graph.supersede("Derek", "drives", "bike", valid_from=JUN, memory_id=two.id)
        == mem.graph.relations("Derek")[0]
    )
    assert [window(r) for r in mem.graph.timeline("Derek")] == [
        ("Derek", "drives", "van", JAN, JUN),
        ("Derek", "drives", "bike", JUN, None),
    ]


def test_single_valued_types_are_configurable(mem: Memory) -> None:
    one = told(mem, "Derek drives a van", JAN)
    two = told(mem, "Derek drives a bike", JUN)
    mem.graph.single_valued = mem.graph.single_valued | {"drives"}
    mem.graph.record(one.id, [("Derek", "drives", "van", 1.0)])
    result = mem.graph.record(two.id, [("Derek", "drives", "bike", 1.0)])
    assert result.superseded == 1
    assert [r.target for r in mem.graph.relations("Derek")] == ["bike"]
    # and per call: "lives in" is single-valued by default, not here
    three = told(mem, "Derek lives in Oslo", JAN)
    four = told(mem, "Derek also lives in Lisbon", JUN)
    mem.graph.record(three.id, [("Derek", "lives in", "Oslo", 1.0)], single_valued=())
    mem.graph.record(four.id, [("Derek", "Lives-In", "Lisbon", 1.0)], single_valued=())
    assert {r.target for r in mem.graph.relations("Derek")} == {"bike", "Oslo", "Lisbon"}


def test_an_older_memory_processed_late_slots_into_the_past(mem: Memory) -> None:
    old = told(mem, "Derek's efoil has a 12V battery", JAN)
    new = told(mem, "Derek's efoil has a 48V battery", JUN)
    mem.graph.record(new.id, [("efoil", "has_battery", "48V battery", 1.0)])
    result = mem.graph.record(old.id, [("efoil", "has_battery", "12V battery", 1.0)])
    assert result.added == 1
    assert [window(r) for r in mem.graph.timeline("efoil")] == [
        ("efoil", "has_battery", "12V battery", JAN, JUN),
        ("efoil", "has_battery", "48V battery", JUN, None),
    ]


def test_an_older_memory_restating_a_fact_moves_its_start(mem: Memory) -> None:
    old = told(mem, "Derek works at Acme", JAN)
    new = told(mem, "Derek still works at Acme", JUN)
    mem.graph.record(new.id, [("Derek", "works at", "Acme", 0.8)])
    result = mem.graph.record(old.id, [("Derek", "works at", "Acme", 0.4)])
    assert result.reinforced == 1
    [works] = mem.graph.timeline("Derek")
    assert (works.valid_from, works.valid_to, works.mentions) == (JAN, None, 2)
    assert works.confidence == pytest.approx(0.6)


def chain(mem: Memory) -> None:
    """alice - bob - carol - dave, plus carol -> alice (a cycle) and a closed link."""
    note = told(mem, "a chain of friends", JAN)
    mem.graph.record(
        note.id,
        [
            ("alice", "knows", "bob", 1.0),
            ("bob", "knows", "carol", 1.0),
            ("dave", "knows", "carol", 1.0),
            ("erin", "works with", "dave", 1.0),
        ],
        valid_from=JAN,
    )
    later = told(mem, "erin now works with frank", JUN)
    mem.graph.supersede("erin", "works with", "frank", valid_from=JUN, memory_id=later.id)


def test_neighbors_at_one_and_two_hops(mem: Memory) -> None:
    chain(mem)
    one = mem.graph.neighbors("bob")
    assert [(n.entity.name, n.hops) for n in one] == [("alice", 1), ("carol", 1)]
    two = mem.graph.neighbors("bob", hops=2)
    assert [(n.entity.name, n.hops) for n in two] == [("alice", 1), ("carol", 1), ("dave", 2)]
    # relations are walked in both directions; the start is never its own neighbour
    assert [(n.entity.name, n.hops) for n in mem.graph.neighbors("dave", 3)] == [
        ("carol", 1),
        ("bob", 2),
        ("alice", 3),
    ]
    # erin's link to dave was closed in June: it is a neighbour only as of before
    assert [n.entity.name for n in mem.graph.neighbors("erin")] == ["frank"]
    assert [n.entity.name for n in mem.graph.neighbors("erin", at=date(2024, 3, 1))] == ["dave"]


def test_neighbors_end_at_the_depth_bound_on_a_cycle(mem: Memory) -> None:
    note = told(mem, "a triangle", JAN)
    mem.graph.record(
        note.id,
        [("a", "r", "b", 1.0), ("b", "r", "c", 1.0), ("c", "r", "a", 1.0)],
    )
    around = mem.graph.neighbors("a", hops=4)
    assert [(n.entity.name, n.hops) for n in around] == [("b", 1), ("c", 1)]


def test_namespaces_never_see_each_other(mem: Memory) -> None:
    mine = told(mem, "Derek owns an efoil", JAN, user_id="alice")
    theirs = told(mem, "Derek owns a sailboat", JAN, user_id="bob")
    mem.graph.record(mine.id, [("Derek", "owns", "efoil", 1.0)], user_id="alice")
    mem.graph.record(theirs.id, [("Derek", "owns", "sailboat", 1.0)], user_id="bob")
    alice = mem.graph.entity("derek", user_id="alice")
    bob = mem.graph.entity("derek", user_id="bob")
    assert alice.id != bob.id
    assert alice.mentions == bob.mentions == 1
    assert [r.target for r in mem.graph.timeline("Derek", user_id="alice")] == ["efoil"]
    assert [n.entity.name for n in mem.graph.neighbors("Derek", user_id="bob")] == ["sailboat"]
    assert mem.graph.memories_of("Derek", user_id="bob") == [theirs.id]
    assert [e.name for e in mem.graph.entities(user_id="alice")] == ["Derek", "efoil"]
    assert [r.target for r in mem.graph.as_of(NOW, user_id="bob")] == ["sailboat"]
    with pytest.raises(NotFoundError):
        mem.graph.entity("sailboat", user_id="alice")
    with pytest.raises(NotFoundError):  # bob's memory cannot feed alice's graph
        mem.graph.record(theirs.id, [("x", "r", "y", 1.0)], user_id="alice")
    assert mem.graph.entities() == []


def test_purging_a_memory_removes_its_mentions(mem: Memory) -> None:
    first, later = battery_story(mem)
    mem.graph.add_attribute("efoil", "came with a 12V battery", memory_id=first.id)
    assert mem.graph.memories_of("efoil") == [first.id, later.id]
    mem.delete(first.id)
    assert mem.graph.memories_of("efoil") == [later.id]  # a tombstone is not a source
    assert mem.purge() == 1
    assert mem.graph.memories_of("efoil") == [later.id]
    assert mention_rows(mem) == 1  # 48V battery's, from the memory that is left
    assert mem.graph.attributes("efoil") == []
    # the facts themselves stay, their first source forgotten
    assert [r.source_memory_id for r in mem.graph.timeline("efoil")] == [None, None, later.id]


def mention_rows(mem: Memory) -> int:
    """Rows of ``memory_entity_mentions`` for the efoil: what purge must have removed.

    Read through the backend's own connection, as no verb shows a purged memory's row.
    """
    efoil = mem.graph.entity("efoil").id
    with mem.store._db.read() as conn:  # type: ignore[attr-defined]
        rows = conn.execute("SELECT entity_id FROM memory_entity_mentions").fetchall()
    return sum(1 for r in rows if r[0] == efoil)


def test_aliases_resolve_to_their_entity(mem: Memory) -> None:
    note = told(mem, "Derek owns an efoil", JAN)
    mem.graph.record(note.id, [("Derek", "owns", "efoil", 1.0)])
    derek = mem.graph.add_alias("derek", "D.  Smith")
    assert derek.aliases == ("d. smith",)
    assert mem.graph.add_alias("Derek", "d. smith") == derek  # already there
    assert mem.graph.entity("d. SMITH").id == derek.id
    other = told(mem, "D. Smith rides the efoil", JUN)
    mem.graph.record(other.id, [("D. Smith", "rides", "efoil", 1.0)])
    assert mem.graph.entity("derek").mentions == 2
    assert {r.source for r in mem.graph.relations("d. smith")} == {"Derek"}
    with pytest.raises(InvalidInputError, match="another entity"):
        mem.graph.add_alias("derek", "efoil")


def test_aspects_and_attributes(mem: Memory) -> None:
    note = told(mem, "The efoil battery is 48V and must stay dry", JAN)
    mem.graph.record(note.id, [], entity_types={"efoil": "item"})
    assert mem.graph.entity("efoil").entity_type == "item"
    battery = mem.graph.upsert_aspect("efoil", "Battery", weight=0.7, now=JAN)
    assert mem.graph.upsert_aspect("efoil", " battery ", weight=0.2, now=NOW) == battery
    unsorted = mem.graph.add_attribute("efoil", "battery is 48V", memory_id=note.id, now=JAN)
    assert (unsorted.aspect_id, unsorted.kind) == (None, "attribute")
    sorted_ = mem.graph.add_attribute(
        "efoil", "battery is 48V", memory_id=note.id, aspect="battery", importance=0.9
    )
    assert (sorted_.id, sorted_.aspect_id, sorted_.importance) == (unsorted.id, battery.id, 0.9)
    rule = mem.graph.add_attribute(
        "efoil", "must stay dry", memory_id=note.id, aspect="care", kind="constraint"
    )
    assert [a.content for a in mem.graph.attributes("efoil")] == ["battery is 48V", rule.content]
    assert [(a.name, a.weight) for a in mem.graph.aspects("efoil")] == [
        ("Battery", 0.7),
        ("care", 0.5),
    ]
    with pytest.raises(InvalidInputError, match="kind"):
        mem.graph.add_attribute("efoil", "x", memory_id=note.id, kind="opinion")


def test_entities_page_and_filter(mem: Memory) -> None:
    note = told(mem, "many things", JAN)
    mem.graph.record(
        note.id,
        [("Ann", "likes", "green_tea", 1.0), ("Ann", "likes", "green tea 100%", 1.0)],
    )
    assert [e.name for e in mem.graph.entities(limit=1)] == ["Ann"]
    assert [e.name for e in mem.graph.entities(limit=1, offset=1)] == ["green tea 100%"]
    # LIKE wildcards in the query are plain characters
    assert [e.name for e in mem.graph.entities(query="N_T")] == ["green_tea"]
    assert [e.name for e in mem.graph.entities(query="0%")] == ["green tea 100%"]
    assert mem.graph.entities(query="zebra") == []


@pytest.mark.parametrize(
    ("triples", "message"),
    [
        ("Derek owns efoil", "list of triples"),
        ([("Derek", "owns")], "source, relationship, target"),
        ([("Derek", "owns", "efoil", 1.5)], "confidence"),
        ([("", "owns", "efoil", 1.0)], "source"),
        ([("Derek", " - ", "efoil", 1.0)], "relation type"),
        ([("Derek", "owns", "x" * 201, 1.0)], "over 200"),
    ],
)
def test_bad_triples_are_refused(mem: Memory, triples: Any, message: str) -> None:
    note = told(mem, "Derek owns an efoil", JAN)
    with pytest.raises(InvalidInputError, match=message):
        mem.graph.record(note.id, triples)
    assert mem.graph.entities() == []


def test_unknown_things_are_not_found_and_bounds_hold(mem: Memory) -> None:
    with pytest.raises(NotFoundError):
        mem.graph.record("no-such-memory", [("a", "r", "b", 1.0)])
    with pytest.raises(NotFoundError):
        mem.graph.timeline("nobody")
    with pytest.raises(NotFoundError):
        mem.graph.relations("nobody")
    note = told(mem, "a knows b", JAN)
    mem.graph.record(note.id, [("a", "knows", "b", 1.0)])
    with pytest.raises(InvalidInputError, match="hops"):
        mem.graph.neighbors("a", hops=0)
    with pytest.raises(InvalidInputError, match="hops"):
        mem.graph.neighbors("a", hops=99)
    with pytest.raises(InvalidInputError, match="when"):
        mem.graph.as_of("yesterday")


def test_three_element_triples_default_to_full_confidence(mem: Memory) -> None:
    note = told(mem, "a knows b", JAN)
    [rel] = mem.graph.record(note.id, [("a", "knows", "b")], now=JAN).relations
    assert (rel.confidence, rel.created_at, rel.valid_from) == (1.0, JAN, JAN)
    assert rel.to_dict()["valid_from"] == "2024-01-10T09:00:00Z"


def test_every_graph_verb_has_an_async_twin() -> None:
    def public(cls: type) -> set[str]:
        # Graph's reads are inherited from GraphReads: walk the class's own MRO.
        own = [k for k in cls.__mro__ if k.__module__.startswith(("engram.graph", "engram.aio"))]
        return {n for k in own for n, v in vars(k).items() if not n.startswith("_") and callable(v)}

    assert public(Graph) == public(AsyncGraph)
    assert {"entities", "count_entities", "count_relations", "record"} <= public(Graph)
    for name in public(Graph):
        assert inspect.iscoroutinefunction(getattr(AsyncGraph, name)), name
        assert inspect.signature(getattr(AsyncGraph, name)) == inspect.signature(
            getattr(Graph, name)
        )


def test_async_graph_runs_the_same_part(config: Config) -> None:
    amem = AsyncMemory(":memory:", config=config, embedder=None)

    async def story() -> list[Relation]:
        note = await amem.add("a knows b", created_at=JAN)
        await amem.graph.record(note.id, [("a", "knows", "b", 1.0)])
        return await amem.graph.timeline("a")

    try:
        assert isinstance(amem.graph, Awaitable)
        assert amem.graph.sync is amem.sync.graph
        assert [r.target for r in asyncio.run(story())] == ["b"]
    finally:
        amem.sync.close()

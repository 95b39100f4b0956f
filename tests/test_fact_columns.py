"""Recall's facts as columns (``FactColumns``): gathered from a namespace's arrays
(``fact_block``) they equal the facts made one memory at a time, a changed row still
wins and a memory no longer live is left out; ``update`` is ``dict.update``; and the
columns recall reads (sessions, lengths, openings, creation times) give what reading
each ``MemoryFacts`` gave."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from engram.config import RecallConfig
from engram.recall import context
from engram.recall.directives import directive_ids, is_directive
from engram.recall.length import long_ids
from engram.store.protocols.memories import FactColumns, MemoryFacts
from engram.store.sqlite import fact_block
from engram.store.sqlite.fact_block import FactBlock

AT = "2026-11-29T12:00:00.123456+00:00"


def _block(n: int) -> FactBlock:
    rows = [
        (
            seq,
            f"m{seq:03d}",
            AT,
            None if seq % 3 == 0 else f"s{seq % 2}",
            10 + seq,
            f"head {seq}",
            None,
        )
        for seq in range(1, n + 1)
    ]
    return FactBlock.of_rows(rows)


def test_gathered_columns_equal_the_facts_of_each_memory() -> None:
    block = _block(20)
    got = block.facts(["m005", "m001", "m020", "m003", "missing"])
    assert isinstance(got, FactColumns)
    assert set(got) == {"m005", "m001", "m020", "m003"} and "missing" not in got
    assert got["m005"] == MemoryFacts(
        datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=UTC), "s1", 15, "head 5"
    )
    assert got.created_at("m020") == datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=UTC)
    assert got["m003"].session_id is None and got["m020"].chars == 30
    assert got.session_ids() == {"s0", "s1"}
    assert got.without_session() == frozenset({"m003"})
    assert got.longer_than(20) == frozenset({"m020"})
    assert dict(got.openings())["m001"] == "head 1"
    assert block.facts([]) == {} and FactBlock.of_rows([]).facts(["m001"]) == {}


def test_a_changed_row_wins_over_the_arrays() -> None:
    block = _block(6)
    assert block.facts(["m002", "m004"])["m002"].chars == 12
    changed = (2, "m002", "2026-11-30T00:00:00+00:00", "s9", 99, "new head", None)
    block.apply([2, 4], [changed])  # m002 rewritten, m004 no longer live
    now = block.facts(["m002", "m004", "m005"])
    assert set(now) == {"m002", "m005"}
    assert now["m002"].chars == 99 and now["m002"].session_id == "s9"
    assert now.created_at("m002") == datetime(2026, 11, 30, tzinfo=UTC)
    assert now.session_ids() == {"s9", "s1"}


def test_update_is_dict_update() -> None:
    day = datetime(2026, 1, 1, tzinfo=UTC)
    a = {"x": MemoryFacts(day, "s", 1, "a"), "y": MemoryFacts(day, None, 2, "b")}
    later = day + timedelta(days=1)
    b = {"y": MemoryFacts(later, "t", 3, "c"), "z": MemoryFacts(day, None, 4, "d")}
    columns = FactColumns.of(a)
    columns.update(FactColumns.of(b))
    expected = {**a, **b}
    assert columns == expected and list(columns) == list(expected)
    assert columns.created_at("y") == day + timedelta(days=1)
    # microseconds since the epoch (the SQLite arrays' form) read as the same time
    micros = int((day - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds()) * 1_000_000
    assert FactColumns(["x"], [micros], ["s"], [1], ["a"]) == {"x": a["x"]}


def test_the_columns_recall_reads_give_what_each_memory_gave() -> None:
    rng = random.Random(7)
    heads = ["always include versions", "never mind", "from now on, cite", "hello", ""]
    facts = {
        f"m{i}": MemoryFacts(
            datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=i),
            rng.choice([None, "s1", "s2"]),
            rng.randrange(0, 4000),
            rng.choice(heads),
        )
        for i in range(200)
    }
    columns = FactColumns.of(facts)
    cfg = RecallConfig()
    assert long_ids(columns, cfg) and directive_ids(columns, cfg)  # the tests can fail
    assert long_ids(columns, cfg) == frozenset(
        i for i, f in facts.items() if f.chars > cfg.long_chars
    )
    assert directive_ids(columns, cfg) == frozenset(
        i for i, f in facts.items() if is_directive(f.head)
    )
    assert context.sessionless(columns) == frozenset(
        i for i, f in facts.items() if f.session_id is None
    )
    assert columns.session_ids() == {f.session_id for f in facts.values() if f.session_id}


def test_the_block_says_which_memories_derive_from_which() -> None:
    rows = [
        (1, "m001", AT, None, 5, "a", None),
        (2, "m002", AT, None, 5, "b", "m001"),
        (3, "m003", AT, "s1", 5, "c", "m001"),
        (4, "m004", AT, None, 5, "d", "m009"),
    ]
    block = FactBlock.of_rows(rows)
    assert block.derived(["m004", "m001", "m002", "zzz"]) == (
        {"m004": "m009", "m002": "m001"},
        ["zzz"],
    )
    block.apply(
        [2, 3, 5], [(3, "m003", AT, "s1", 5, "c", None), (5, "m005", AT, None, 1, "e", "m003")]
    )
    sources, absent = block.derived(["m002", "m003", "m005", "m004"])
    assert sources == {"m005": "m003", "m004": "m009"} and absent == ["m002"]


def test_rows_met_before_are_kept_and_dropped_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fact_block, "MADE_LIMIT", 5)
    block = _block(12)
    first = block.facts(["m001", "m002", "m003"])
    assert set(block._made) == {"m001", "m002", "m003"}
    again = block.facts(["m004", "m002", "m001"])  # two kept, one gathered
    assert again == {i: first[i] for i in ("m002", "m001")} | {
        "m004": block.facts(["m004"])["m004"]
    }
    block.facts(["m005", "m006", "m007"])  # 4 + 3 > 5: the kept rows are dropped first
    assert set(block._made) == {"m005", "m006", "m007"}
    assert block.facts(["m001", "m006"]) == {
        "m001": first["m001"],
        "m006": block.facts(["m006"])["m006"],
    }

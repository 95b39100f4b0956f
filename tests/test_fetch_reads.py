"""Recall's reads around fusion on SQLite (docs/benchmarks.md, "The fuse stage's cold
reads"): the pool's rows read by the seq the fact block kept (``SQLiteMemories.
get_many``), the keyword leg's top ids' facts read on its worker
(``completion.facts_ahead``), and a row decoded by position (``codec.from_row``); each
gives what the reads before it gave."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from engram.config import Config
from engram.errors import StoreError
from engram.memory import Memory
from engram.recall import completion
from engram.store.sql import codec
from engram.store.sql.memories import SqlMemories
from engram.store.sqlite.dialect import SQLiteDialect
from engram.store.sqlite.facts import SQLiteMemories
from test_fact_index import NS, _ready, _small_blocks  # noqa: F401 (an autouse fixture)

SIZE = 40


@pytest.fixture
def mem(tmp_path: Path, config: Config) -> Memory:
    with Memory(tmp_path / "m.db", config=config, embedder=None) as opened:
        for i in range(SIZE):
            opened.add(f"memory number {i} about topic {i % 5}", namespace=NS)
        opened.add("another namespace's memory", namespace="other")
        yield opened


def _ids(mem: Memory) -> list[str]:
    return sorted(r.id for r in mem.get_all(namespace=NS, limit=1_000))


def _statements(memories: SQLiteMemories) -> list[str]:
    seen: list[str] = []
    with memories._db.read() as conn:
        conn.set_trace_callback(seen.append)
    return seen


def _untraced(memories: SQLiteMemories) -> None:
    with memories._db.read() as conn:
        conn.set_trace_callback(None)


def test_the_rows_of_memories_met_are_read_by_seq_and_equal_the_id_reads(mem: Memory) -> None:
    memories = _ready(mem)
    ids = _ids(mem)
    memories.facts(NS, ids[:25])  # met: the block keeps where their rows are
    asked = [*reversed(ids[:30]), "no-such-id", ids[3]]
    seen = _statements(memories)
    try:
        got = memories.get_many(NS, asked)
    finally:
        _untraced(memories)
    assert any("m.seq IN" in s for s in seen), "the met ids' rows were read by seq"
    expected = SqlMemories.get_many(memories, NS, asked)
    assert list(got.items()) == list(expected.items())  # the same records, in the same order
    assert len(got) == 30


def test_a_seq_that_no_longer_holds_the_memory_falls_back_to_its_id(mem: Memory) -> None:
    memories = _ready(mem)
    ids = _ids(mem)
    memories.facts(NS, ids)
    mem.delete(ids[0], namespace=NS)  # its row stays, tombstoned
    block = memories.blocks._entries[NS].block
    assert block is not None
    # A kept seq that points at another memory's row (as after a row moved): the row
    # read there is not the one asked for, so the id is read by id.
    created, session, chars, head, _ = block._made[ids[1]]
    block._made[ids[1]] = (created, session, chars, head, block._made[ids[2]][4])
    other = mem.get_all(namespace="other", limit=1)[0].id
    asked = [ids[0], ids[1], ids[2], other]
    got = memories.get_many(NS, asked)
    assert list(got.items()) == list(SqlMemories.get_many(memories, NS, asked).items())
    assert set(got) == {ids[1], ids[2]}  # deleted and foreign ids are not answered


def test_random_asks_answer_as_the_id_reads_do(mem: Memory) -> None:
    memories = _ready(mem)
    ids = _ids(mem)
    mem.delete(ids[5], namespace=NS)
    rng = random.Random(3)
    for _ in range(40):
        memories.facts(NS, rng.sample(ids, rng.randint(0, SIZE)))
        asked = [*rng.sample(ids, rng.randint(1, SIZE)), "missing"]
        got = memories.get_many(NS, asked)
        assert list(got.items()) == list(SqlMemories.get_many(memories, NS, asked).items())


def test_the_keyword_legs_top_ids_facts_are_read_on_its_worker() -> None:
    asked: list[tuple[str, list[str]]] = []
    ranking = [(f"m{i}", 10.0 - i) for i in range(8)]

    def search(namespace: str, match: str, depth: int) -> list[tuple[str, float]]:
        return ranking

    def facts(namespace: str, ids: Sequence[str]) -> None:
        asked.append((namespace, list(ids)))

    leg = completion.leg(search, None, None, 5, facts)
    assert leg("ns", "words", 50) == ranking
    assert asked == [("ns", ["m0", "m1", "m2", "m3", "m4"])]
    assert completion.leg(search, None, None, 5) is search  # no reader: the search alone


def test_a_failed_read_ahead_leaves_the_ranking_to_the_recall() -> None:
    def facts(namespace: str, ids: Sequence[str]) -> None:
        raise StoreError("the store is busy")

    leg = completion.leg(lambda n, m, d: [("m1", 1.0)], None, None, 5, facts)
    assert leg("ns", "words", 50) == [("m1", 1.0)]


def test_recall_reads_the_keyword_legs_facts_ahead_on_sqlite(
    tmp_path: Path, config: Config
) -> None:
    with Memory(tmp_path / "m.db", config=config) as mem:
        for i in range(SIZE):
            mem.add(f"the gardener planted tulips in bed {i}", namespace=NS)
        memories = _ready(mem)
        read: list[list[str]] = []
        facts = memories.facts

        def spy(namespace: str, ids: Sequence[str]) -> object:
            read.append(list(ids))
            return facts(namespace, ids)

        memories.facts = spy  # type: ignore[method-assign]
        found = mem.recall("tulips gardener", namespace=NS)
        assert found.hits
        top = config.recall.bm25_top_n
        keyword = mem.store.keyword.search(NS, "tulips OR gardener", top)
        assert read[0] == [i for i, _ in keyword[:top]]  # the leg's top ids, first
        assert len(read) == 2  # then every candidate's, as before


def test_a_row_decodes_by_position_as_by_name() -> None:
    conn = sqlite3.connect(":memory:")
    columns = ", ".join(codec.COLUMNS)
    conn.execute(f"CREATE TABLE m ({columns})")
    values = {c: None for c in codec.COLUMNS}
    values.update(
        id="a",
        namespace="n",
        content="c",
        normalized="c",
        content_hash="h",
        type="fact",
        facts='["x"]',
        tags="[]",
        metadata='{"role": "user"}',
        quality=1,
        created_at="2026-11-30T10:00:00+00:00",
        updated_at="2026-11-30T11:00:00+00:00",
    )
    row = tuple(values[c] for c in codec.COLUMNS)
    record = codec.from_row(SQLiteDialect(), row)
    assert record.facts == ("x",) and record.tags == () and record.metadata == {"role": "user"}
    assert record.deleted_at is None and record.category is None and record.quality == 1
    assert record.updated_at.hour == 11 and record.content_hash == "h"
    with pytest.raises(ValueError, match="columns"):
        codec.from_row(SQLiteDialect(), row[:-1])

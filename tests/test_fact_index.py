"""Recall's facts of large SQLite namespaces from arrays (``store/sqlite/fact_index.py``,
``fact_block.py``): the same answers as the rows, a snapshot beside the store that is
caught up, dropped when damaged, and never brings a deleted memory back, and another
process's writes seen."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engram.config import Config
from engram.memory import Memory
from engram.store.protocols.memories import ListQuery
from engram.store.sql.memories import SqlMemories
from engram.store.sqlite import fact_index
from engram.store.sqlite.backend import SQLiteStore
from engram.store.sqlite.facts import SQLiteMemories
from test_ann_snapshot import other_process

NS = "big"
SIZE = 30


@pytest.fixture(autouse=True)
def _small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fact_index, "MIN_MEMORIES", 20)


def _memories(mem: Memory) -> SQLiteMemories:
    memories = mem.store.memories
    assert isinstance(memories, SQLiteMemories)
    return memories


def _ready(mem: Memory) -> SQLiteMemories:
    """The store's memories once the namespace's block has loaded or been made."""
    memories = _memories(mem)
    memories.facts(NS, ["none"])  # the first recall after an open starts nothing
    memories.blocks.wait(60)
    assert NS not in memories.blocks.state()["namespaces"]  # type: ignore[operator]
    memories.facts(NS, ["none"])
    memories.blocks.wait(60)
    assert NS in memories.blocks.state()["namespaces"]  # type: ignore[operator]
    return memories


def _rows(memories: SQLiteMemories, ids: list[str]) -> dict[str, object]:
    return dict(SqlMemories.facts(memories, NS, ids))


def _texts() -> list[str]:
    # Long, non-ASCII and short openings; some in sessions.
    return [f"Mémoire numéro {i}: " + "ünïcode words " * (i % 7) for i in range(SIZE)]


@pytest.fixture
def saved(tmp_path: Path, config: Config) -> Path:
    """A store with one large namespace whose block was made and saved."""
    path = tmp_path / "m.db"
    with Memory(path, config=config, embedder=None) as mem:
        for i, text in enumerate(_texts()):
            mem.add(text, namespace=NS, session_id=f"s{i % 4}" if i % 3 else None)
        memories = _ready(mem)
        assert memories.blocks.state()["made"] == 1
    return path


def _all_ids(mem: Memory) -> list[str]:
    return [r.id for r in mem.get_all(namespace=NS, limit=10_000)]


def test_a_large_namespace_answers_from_its_block_as_the_rows_do(
    saved: Path, config: Config
) -> None:
    with Memory(saved, config=config, embedder=None) as mem:
        memories = _ready(mem)
        assert memories.blocks.state()["loaded_from_disk"] == 1
        ids = [*_all_ids(mem), "no-such-id"]
        before = memories.misses
        answered = memories.facts(NS, ids)
        assert memories.misses == before  # no row was read
        assert answered == _rows(memories, ids) and len(answered) == SIZE
        assert {f.session_id for f in answered.values()} == {None, "s0", "s1", "s2", "s3"}


def test_a_small_namespace_reads_rows(tmp_path: Path, config: Config) -> None:
    with Memory(tmp_path / "m.db", config=config, embedder=None) as mem:
        a = mem.add("only a few memories here", namespace="small")
        memories = _memories(mem)
        assert a.id in memories.facts("small", [a.id])
        memories.blocks.wait(60)
        assert memories.blocks.state()["namespaces"] == {} and memories.misses == 1


def test_writes_in_this_process_show_at_once(saved: Path, config: Config) -> None:
    with Memory(saved, config=config, embedder=None) as mem:
        memories = _ready(mem)
        first, second, third = _all_ids(mem)[:3]
        mem.update(first, "now a different and much longer text", namespace=NS)
        mem.delete(second, namespace=NS)
        added = mem.add("a new memory in the namespace", namespace=NS)
        mem.store.memories.update(NS, third, {"session_id": "moved"})
        ids = [first, second, third, added.id]
        answered = memories.facts(NS, ids)
        assert answered == _rows(memories, ids) and second not in answered
        assert answered[third].session_id == "moved" and added.id in answered
        assert answered[first].chars == len("now a different and much longer text")


def test_a_stale_snapshot_is_caught_up_and_a_delete_never_comes_back(
    saved: Path, config: Config
) -> None:
    other = SQLiteStore(saved)  # writes after the snapshot, as another process would
    try:
        ids = [r.id for r in other.memories.select(NS, ListQuery(limit=100))]
        other.memories.delete(NS, ids[0])
        other.memories.update(NS, ids[1], {"session_id": "elsewhere"})
    finally:
        other.close()
    with Memory(saved, config=config, embedder=None) as mem:
        memories = _ready(mem)
        assert memories.blocks.state()["loaded_from_disk"] == 1
        answered = memories.facts(NS, ids)
        assert ids[0] not in answered and answered[ids[1]].session_id == "elsewhere"
        assert answered == _rows(memories, ids)


@pytest.mark.parametrize(
    "damage", ["truncated manifest", "corrupt ids", "no manifest (crash before it)"]
)
def test_a_snapshot_broken_mid_write_is_dropped_and_made_again(
    saved: Path, config: Config, damage: str
) -> None:
    folder = Path(f"{saved}.vindex")
    manifest = next(folder.glob("facts-*.json"))
    if damage == "truncated manifest":
        manifest.write_text(manifest.read_text()[:40])
    elif damage == "corrupt ids":
        ids = next(folder.glob("facts-*.ids"))
        raw = bytearray(ids.read_bytes())
        raw[-5] ^= 0xFF
        ids.write_bytes(bytes(raw))
    else:
        manifest.unlink()
    with Memory(saved, config=config, embedder=None) as mem:
        memories = _ready(mem)
        state = memories.blocks.state()
        assert state["loaded_from_disk"] == 0 and state["made"] == 1
        if damage != "no manifest (crash before it)":
            assert "dropped" in str(state["failures"])
        ids = _all_ids(mem)
        assert memories.facts(NS, ids) == _rows(memories, ids)
    generations = {p.name.split(".")[1] for p in folder.glob("facts-*.*.*")}
    assert len(generations) == 1
    with Memory(saved, config=config, embedder=None) as mem:
        assert _ready(mem).blocks.state()["loaded_from_disk"] == 1


def test_a_pruned_change_log_makes_the_block_again(saved: Path, config: Config) -> None:
    with Memory(saved, config=config, embedder=None) as mem:
        memories = _ready(mem)
        victim, last = _all_ids(mem)[3:5]
        mem.delete(victim, namespace=NS)
        mem.delete(last, namespace=NS)  # its log row stays, the victim's is pruned
        with sqlite3.connect(saved) as conn:  # pruned past the block's row
            (head,) = conn.execute("SELECT max(id) FROM fts_log").fetchone()
            conn.execute("DELETE FROM fts_log WHERE id < ?", (head,))
        memories.blocks.forget()
        memories.facts(NS, [victim])
        memories.blocks.wait(60)
        assert memories.facts(NS, [victim]) == {}  # rows meanwhile, then the new block
        memories.facts(NS, [victim])
        memories.blocks.wait(60)
        assert memories.facts(NS, [victim]) == {}
        assert memories.blocks.state()["made"] == 1


def test_two_processes_share_one_store(saved: Path, config: Config) -> None:
    with Memory(saved, config=config, embedder=None) as mem:
        memories = _ready(mem)
        target, moved = _all_ids(mem)[5:7]
        assert target in memories.facts(NS, [target])
        script = (
            "import sys\n"
            "from engram import Config, Memory\n"
            "config = Config.load(env={}, home=sys.argv[2])\n"
            "with Memory(sys.argv[1], config=config, embedder=None) as m:\n"
            f"    m.delete({target!r}, namespace={NS!r})\n"
            f"    added = m.add('written by the other process', namespace={NS!r})\n"
            f"    m.store.memories.update({NS!r}, {moved!r}, {{'session_id': 'theirs'}})\n"
            "    print(added.id)\n"
        )
        added = other_process(script, str(saved), str(config.home_path))
        before = memories.misses
        answered = memories.facts(NS, [target, added, moved])
        assert target not in answered and added in answered
        assert answered[moved].session_id == "theirs"
        assert memories.misses == before  # the block answered, caught up from the log


def test_which_candidates_derive_from_a_closed_fact_comes_from_the_block(
    saved: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 28's demotion asks which candidates a pipeline derived from a memory that
    # stated a closed fact: the block's source column answers as reading the ids' rows
    # does, for rows it was made with and rows written since, and reads no row.
    from engram.store.sqlite import stale as stale_module
    from engram.store.sqlite.stale import SQLiteGraphCounts

    with Memory(saved, config=config, embedder=None) as mem:
        ids = _all_ids(mem)
        source, other = ids[0], ids[1]
        store = mem.store
        assert isinstance(store, SQLiteStore)
        memories = _ready(mem)  # loaded from its snapshot: the updates are logged
        for memory_id, derived_from in ((ids[2], source), (ids[3], source), (ids[5], other)):
            memories.update(NS, memory_id, {"source_memory_id": derived_from})
        with store._db.tx() as conn:  # a derived row written by another writer
            conn.execute("UPDATE memories SET source_memory_id = ? WHERE id = ?", (source, ids[4]))
            conn.execute(
                "INSERT INTO fts_log(namespace, seq) "
                "SELECT namespace, seq FROM memories WHERE id = ?",
                (ids[4],),
            )
        late = mem.add("a fact written after the block", namespace=NS).id
        memories.update(NS, late, {"source_memory_id": source})
        asked = [*ids, late, "no-such-id"]
        plain = SQLiteGraphCounts(store._sql, store._db)
        blocked = SQLiteGraphCounts(store._sql, store._db, blocks=memories.blocks)
        for counts in (plain, blocked):
            monkeypatch.setattr(counts, "_read", lambda namespace: frozenset({source}))
        expected = plain.stale_memories(NS, asked)
        assert expected == {source, ids[2], ids[3], ids[4], late}
        reads: list[list[str]] = []
        real = stale_module.derived_stale

        def counted(conn: object, d: object, rest: list[str], closed: object) -> set[str]:
            reads.append(list(rest))
            return real(conn, d, rest, closed)  # type: ignore[arg-type]

        monkeypatch.setattr(stale_module, "derived_stale", counted)
        assert blocked.stale_memories(NS, asked) == expected
        assert reads == [["no-such-id"]]  # only the id the block does not hold


def test_the_demotions_read_never_starts_a_block(
    saved: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first recall after an open leaves the block's load to the second (issue 29's
    # cold start); its demotion read, made after the facts, must not start it either.
    from engram.store.sqlite.stale import SQLiteGraphCounts

    with Memory(saved, config=config, embedder=None) as mem:
        ids = _all_ids(mem)
        memories = _memories(mem)
        memories.update(NS, ids[1], {"source_memory_id": ids[0]})
        memories.facts(NS, ids)  # the first recall's facts: nothing starts
        store = mem.store
        assert isinstance(store, SQLiteStore)
        counts = SQLiteGraphCounts(store._sql, store._db, blocks=memories.blocks)
        monkeypatch.setattr(counts, "_read", lambda namespace: frozenset({ids[0]}))
        assert counts.stale_memories(NS, ids) == {ids[0], ids[1]}  # read from the rows
        memories.blocks.wait(60)
        assert memories.blocks.state()["namespaces"] == {}
        memories.facts(NS, ["none"])  # the second recall's facts start the block
        memories.blocks.wait(60)
        assert NS in memories.blocks.state()["namespaces"]  # type: ignore[operator]
        assert counts.stale_memories(NS, ids) == {ids[0], ids[1]}  # from the block

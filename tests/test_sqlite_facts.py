"""Recall's facts kept in memory on SQLite (``store/sqlite/facts.py``): answered from
memory while the database is unchanged, read again after any write, in this process
or another."""

from __future__ import annotations

from pathlib import Path

from engram.config import Config
from engram.memory import Memory
from engram.store.sqlite.backend import SQLiteStore
from engram.store.sqlite.facts import SQLiteMemories


def _memories(mem: Memory) -> SQLiteMemories:
    memories = mem.store.memories
    assert isinstance(memories, SQLiteMemories)
    return memories


def test_facts_are_read_once_while_nothing_changes(tmp_path: Path, config: Config) -> None:
    with Memory(tmp_path / "m.db", config=config, embedder=None) as mem:
        a, b = mem.add("Alice moved to Lisbon in May"), mem.add("Bob keeps two cats")
        ns = mem.config.default_namespace
        facts = _memories(mem)
        first = facts.facts(ns, [a.id, b.id, "gone", a.id])
        assert list(first) == [a.id, b.id] and facts.misses == 3 and facts.hits == 0
        assert facts.facts(ns, [b.id, a.id]) == {b.id: first[b.id], a.id: first[a.id]}
        assert facts.hits == 2
        assert facts.facts("elsewhere", [a.id]) == {}  # kept per namespace


def test_a_write_in_this_process_reads_them_again(tmp_path: Path, config: Config) -> None:
    with Memory(tmp_path / "m.db", config=config, embedder=None) as mem:
        a, b = mem.add("short"), mem.add("Bob keeps two cats")
        ns = mem.config.default_namespace
        facts = _memories(mem)
        assert facts.facts(ns, [a.id])[a.id].chars == len("short")
        mem.update(a.id, "a much longer text than before")
        assert facts.facts(ns, [a.id])[a.id].chars == len("a much longer text than before")
        mem.delete(b.id)
        assert facts.facts(ns, [a.id, b.id]).keys() == {a.id}


def test_a_write_by_another_connection_reads_them_again(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "m.db"
    with Memory(path, config=config, embedder=None) as mem:
        a = mem.add("Alice moved to Lisbon in May")
        ns = mem.config.default_namespace
        facts = _memories(mem)
        assert a.id in facts.facts(ns, [a.id])
        other = SQLiteStore(path)  # another process's store, as far as SQLite knows
        try:
            other.memories.delete(ns, a.id)
        finally:
            other.close()
        assert facts.facts(ns, [a.id]) == {}


def test_inside_a_transaction_the_store_is_read(tmp_path: Path, config: Config) -> None:
    with Memory(tmp_path / "m.db", config=config, embedder=None) as mem:
        a = mem.add("Alice moved to Lisbon in May")
        ns = mem.config.default_namespace
        facts = _memories(mem)
        facts.facts(ns, [a.id])
        with mem.store.transaction():
            assert a.id in facts.facts(ns, [a.id])
        assert facts.hits == 0 and facts.misses == 1  # the read inside went to the store


def test_a_full_cache_starts_again(tmp_path: Path, config: Config) -> None:
    with Memory(tmp_path / "m.db", config=config, embedder=None) as mem:
        ids = [mem.add(f"memory number {i} about topic {i}").id for i in range(5)]
        ns = mem.config.default_namespace
        memories = mem.store.memories
        assert isinstance(memories, SQLiteMemories)
        small = SQLiteMemories(memories._sql, memories._db, limit=3)
        small.facts(ns, ids[:3])
        small.facts(ns, ids[3:])  # 3 + 2 > 3: emptied, then these two kept
        small.facts(ns, ids)
        assert small.hits == 2 and small.misses == 8

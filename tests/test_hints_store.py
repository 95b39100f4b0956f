"""The hints part of a store (seed 004's prospective index) on both backends: put
replaces, search ranks a memory by its best hint, namespaces are isolated, tombstoned
memories never match, purging a memory removes its hints."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engram import Config, Memory
from engram.errors import NotFoundError
from engram.store.protocols import HintStore, clean_hints
from engram.store.protocols.hints import MAX_HINTS
from engram.store.sql import migrations
from engram.store.sqlite.dialect import SQLITE
from engram.text import fts_query

NS = "user:alice"


def q(text: str) -> str:
    match = fts_query(text)
    assert match is not None
    return match


def add(mem: Memory, content: str, namespace: str = NS) -> str:
    return mem.add(content, namespace=namespace).id


def filler(mem: Memory, namespace: str = NS, n: int = 6) -> None:
    """Memories whose hints share no word with the queries below, so BM25's IDF of a
    query term is that of a rare term (FTS5 floors the IDF of a term held by more than
    half the documents)."""
    for i in range(n):
        memory_id = add(mem, f"filler note number {i} about gardening", namespace)
        mem.store.hints.put(namespace, memory_id, [f"How tall is plant {i}?"], model="t")


def test_every_backend_has_a_hint_store(mem: Memory) -> None:
    assert isinstance(mem.store.hints, HintStore)


def test_put_then_get_returns_the_hints_in_order(mem: Memory) -> None:
    memory_id = add(mem, "Caroline went to a support group yesterday")
    stored = mem.store.hints.put(
        NS,
        memory_id,
        ["When did Caroline go to a support group?", "Who did Caroline meet?"],
        model="template",
    )
    got = mem.store.hints.get(NS, memory_id)
    assert got is not None
    assert (
        got.hints
        == stored.hints
        == (
            "When did Caroline go to a support group?",
            "Who did Caroline meet?",
        )
    )
    assert got.model == "template"
    assert got.to_dict()["created_at"].endswith("Z")
    assert mem.store.hints.count(NS) == 1


def test_put_replaces_and_is_idempotent(mem: Memory) -> None:
    memory_id = add(mem, "Jon lives in Paris")
    filler(mem)
    hints = mem.store.hints
    hints.put(NS, memory_id, ["Where does Jon live?"], model="template")
    hints.put(NS, memory_id, ["What city is Jon's home?"], model="qwen3:4b")
    got = hints.get(NS, memory_id)
    assert got is not None and got.hints == ("What city is Jon's home?",)
    assert got.model == "qwen3:4b"
    assert hints.search(NS, q("Where does he live"), 10) == []  # the old hint is gone
    assert [m for m, _ in hints.search(NS, q("Jon home city"), 10)] == [memory_id]
    first = hints.search(NS, q("Jon home city"), 10)
    hints.put(NS, memory_id, ["What city is Jon's home?"], model="qwen3:4b")
    assert hints.search(NS, q("Jon home city"), 10) == first
    assert hints.count(NS) == 1 + 6


def test_an_empty_put_removes_the_hints(mem: Memory) -> None:
    memory_id = add(mem, "Jon lives in Paris")
    mem.store.hints.put(NS, memory_id, ["Where does Jon live?"], model="template")
    mem.store.hints.put(NS, memory_id, [], model="template")
    assert mem.store.hints.get(NS, memory_id) is None
    assert mem.store.hints.search(NS, q("Jon live"), 10) == []


def test_hints_are_cleaned_the_same_on_every_backend(mem: Memory) -> None:
    memory_id = add(mem, "Jon lives in Paris")
    raw = ["  Where does   Jon live? ", "where does jon live", "", "bad\x00hint", "x" * 500]
    raw += [f"Question {i}?" for i in range(40)]
    stored = mem.store.hints.put(NS, memory_id, raw, model="template")
    assert stored.hints == tuple(clean_hints(raw))
    assert stored.hints[0] == "Where does Jon live?"
    assert len(stored.hints) == MAX_HINTS
    assert all(len(h) <= 300 and "\x00" not in h for h in stored.hints)
    got = mem.store.hints.get(NS, memory_id)
    assert got is not None and got.hints == stored.hints


def test_put_needs_a_live_memory_of_that_namespace(mem: Memory) -> None:
    memory_id = add(mem, "Jon lives in Paris")
    with pytest.raises(NotFoundError):
        mem.store.hints.put("user:bob", memory_id, ["Where does Jon live?"], model="t")
    with pytest.raises(NotFoundError):
        mem.store.hints.put(NS, "no-such-memory", ["Where does Jon live?"], model="t")
    mem.delete(memory_id, namespace=NS)
    with pytest.raises(NotFoundError):
        mem.store.hints.put(NS, memory_id, ["Where does Jon live?"], model="t")
    assert mem.store.hints.count() == 0


def test_search_scores_a_memory_once_by_its_best_hint(mem: Memory) -> None:
    filler(mem)
    one = add(mem, "Melanie ran a charity race")
    two = add(mem, "Melanie signed up for pottery")
    hints = mem.store.hints
    hints.put(
        NS,
        one,
        ["When did Melanie run a charity race?", "What charity race did Melanie run?"],
        model="t",
    )
    hints.put(NS, two, ["When did Melanie sign up for a pottery class?"], model="t")
    found = hints.search(NS, q("charity race pottery"), 10)
    assert sorted(m for m, _ in found) == sorted([one, two])  # each memory once
    assert all(score > 0 for _, score in found)
    scores = [score for _, score in found]
    assert scores == sorted(scores, reverse=True)
    only_one = dict(hints.search(NS, q("charity race"), 10))
    assert set(only_one) == {one}


def test_search_limit_and_no_hints_namespace(mem: Memory) -> None:
    filler(mem)
    assert mem.store.hints.search("user:nobody", q("plant tall"), 10) == []
    assert len(mem.store.hints.search(NS, q("plant tall"), 2)) == 2
    assert mem.store.hints.search(NS, q("plant tall"), 0) == []


def test_namespaces_are_isolated_down_to_the_statistics(mem: Memory) -> None:
    filler(mem, NS)
    mine = add(mem, "Jon plays the violin", NS)
    mem.store.hints.put(NS, mine, ["What instrument does Jon play?"], model="t")
    before = mem.store.hints.search(NS, q("instrument Jon play"), 10)
    assert [m for m, _ in before] == [mine]
    # Another tenant writes the same words many times over: nothing of it is seen here,
    # and the scores here do not move (BM25 statistics are per namespace).
    for i in range(8):
        other = add(mem, f"Bob plays instrument {i}", "user:bob")
        mem.store.hints.put("user:bob", other, ["What instrument does Jon play?"], model="t")
    assert mem.store.hints.search(NS, q("instrument Jon play"), 10) == before
    assert all(
        m != mine for m, _ in mem.store.hints.search("user:bob", q("instrument Jon play"), 20)
    )
    assert mem.store.hints.get("user:bob", mine) is None
    assert mem.store.hints.count(NS) == 7 and mem.store.hints.count("user:bob") == 8


def test_tombstoned_memories_do_not_match(mem: Memory) -> None:
    filler(mem)
    memory_id = add(mem, "Jon plays the violin")
    mem.store.hints.put(NS, memory_id, ["What instrument does Jon play?"], model="t")
    assert mem.store.hints.search(NS, q("instrument"), 10)
    mem.delete(memory_id, namespace=NS)
    assert mem.store.hints.search(NS, q("instrument"), 10) == []
    assert memory_id not in mem.store.hints.missing(NS)


def test_purge_removes_the_hints(mem: Memory) -> None:
    filler(mem)
    gone = add(mem, "Jon plays the violin")
    kept = add(mem, "Jon plays the cello")
    mem.store.hints.put(NS, gone, ["What instrument does Jon play?"], model="t")
    mem.store.hints.put(NS, kept, ["Which cello does Jon play?"], model="t")
    mem.delete(gone, namespace=NS)
    assert mem.admin.purge(namespace=NS) == 1
    assert mem.store.hints.get(NS, gone) is None
    assert mem.store.hints.count(NS) == 7
    assert [m for m, _ in mem.store.hints.search(NS, q("instrument cello Jon"), 10)] == [kept]
    # The next hint write tidies the purged entries out of the index; nothing changes.
    mem.store.hints.put(NS, kept, ["Which cello does Jon play?"], model="t")
    assert [m for m, _ in mem.store.hints.search(NS, q("instrument cello Jon"), 10)] == [kept]


def test_delete_removes_one_memorys_hints(mem: Memory) -> None:
    memory_id = add(mem, "Jon plays the violin")
    mem.store.hints.put(NS, memory_id, ["What does Jon play?", "Who plays violin?"], model="t")
    assert mem.store.hints.delete("user:bob", memory_id) == 0
    assert mem.store.hints.delete(NS, memory_id) == 2
    assert mem.store.hints.get(NS, memory_id) is None
    assert mem.store.hints.search(NS, q("violin"), 10) == []


def test_missing_lists_live_memories_without_hints_oldest_first(mem: Memory) -> None:
    first = add(mem, "first memory about tea")
    second = add(mem, "second memory about coffee")
    third = add(mem, "third memory about water")
    mem.store.hints.put(NS, second, ["What about coffee?"], model="t")
    mem.delete(third, namespace=NS)
    assert mem.store.hints.missing(NS) == [first]
    assert mem.store.hints.missing(NS, 0) == []
    assert mem.store.hints.missing("user:bob") == []


def test_a_store_from_before_hints_upgrades(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        names = [name for name, _ in migrations.named(SQLITE)]
        migrations.migrate(conn, SQLITE, upto=names[names.index("011_hints") - 1])
        assert "memory_hints" not in {
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    finally:
        conn.close()
    with Memory(path, config=config, embedder=None) as mem:
        memory_id = add(mem, "Jon lives in Paris")
        mem.store.hints.put(NS, memory_id, ["Where does Jon live?"], model="t")
        assert mem.store.hints.count(NS) == 1
    conn = sqlite3.connect(path)
    try:
        assert "011_hints" in migrations.applied(conn, SQLITE)
    finally:
        conn.close()

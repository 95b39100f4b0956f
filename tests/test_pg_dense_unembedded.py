"""PostgreSQL's dense search reads the namespace's not-yet-embedded count in its own
round trip; the same thread's next ``unembedded`` of that namespace takes it once, and
recall still warns about memories dense search cannot see."""

from __future__ import annotations

import pytest

from conftest import FailingEmbedder, HashEmbedder
from engram import Config, Memory
from engram.store.postgres import PgVectorSearch
from engram.store.postgres import vectors as pg_vectors
from engram.store.sql.vector_reads import VectorReads
from engram.validate import build_record

pytestmark = pytest.mark.postgres


def test_the_count_rides_with_the_search_and_is_taken_once(
    pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as pg_mem:
        taken_once(pg_mem, monkeypatch)


def taken_once(pg_mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    pg_mem.add("Caroline paints sunsets", namespace="a")
    store = pg_mem.store
    # A memory written without its vector (the store's own insert, no embedding).
    store.memories.insert([build_record("Melanie runs", namespace="a", max_chars=100)])
    counted: list[str] = []
    original = VectorReads.unembedded

    def spy(self: VectorReads, namespace: str) -> int:
        counted.append(namespace)
        return original(self, namespace)

    monkeypatch.setattr(VectorReads, "unembedded", spy)
    search = pg_mem.index
    assert isinstance(search, PgVectorSearch)
    assert isinstance(store.vectors, pg_vectors.PgVectors)
    search.search("a", pg_mem.embedder.embed("sunsets"), 5)  # type: ignore[union-attr]
    assert store.vectors.unembedded("a") == 1  # from the search's round trip
    assert counted == []
    assert store.vectors.unembedded("a") == 1  # taken: this one counts
    assert counted == ["a"]
    search.search("a", pg_mem.embedder.embed("sunsets"), 5)  # type: ignore[union-attr]
    assert store.vectors.unembedded("b") == 0  # another namespace: counts afresh
    assert counted == ["a", "b"]


def test_recall_still_warns_about_memories_without_a_vector(pg_url: str, config: Config) -> None:
    with Memory(pg_url, config=config, embedder=FailingEmbedder()) as mem:
        mem.add("Caroline paints sunsets", namespace="a")
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        result = mem.recall("What does Caroline paint?", namespace="a")
        assert any("1 memories of this namespace have no vector yet" in w for w in result.warnings)

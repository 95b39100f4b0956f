"""Recall's fuse stage at 100k (docs/benchmarks.md, "Recall's fuse stage at 100k"): on
SQLite the keyword leg's top ids' vectors are gathered on its worker while the model
runs (``VectorsAhead.gather``), the shared space's count and the policy block are read
on workers then too, and the keyword match is tokenized once a recall. Each gives the
answers the reads after the model gave."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from conftest import FailingEmbedder
from engram import Config, Memory
from engram.errors import StoreError
from engram.recall import completion, ranking
from engram.recall.request import Legs
from engram.records import Recall
from engram.store.protocols.vectors import Gathered, VectorsAhead
from engram.store.sqlite import keyword as sqlite_keyword
from engram.store.sqlite import term_search
from engram.store.sqlite.vector_index import VectorIndex
from hashembed import HashEmbedder

NS = "ns"
WORDS = ["garden", "tulips", "hiking", "piano", "recipe", "train", "novel", "harbor"]
TEXTS = [
    f"the {WORDS[i % 8]} story {i}: {WORDS[(i * 3) % 8]} and {WORDS[(i * 5 + 1) % 8]}"
    for i in range(60)
]
QUERIES = ["garden tulips", "piano recipe", "train to the harbor", "novel hiking story 7"]
FROZEN = datetime.fromisoformat("2026-12-01T00:00:00+00:00")


def _config(config: Config) -> Config:
    # The term index from a few memories, so the keyword leg is exact and its top ids
    # are read ahead as at 100k; a keyword leg as deep as the dense one (50 of the 60), so
    # some candidates are the keyword leg's alone.
    return config.with_overrides(
        recall={"keyword_index_min": 5, "keyword_index_background": False, "bm25_top_n": 50}
    )


@pytest.fixture
def mem(tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch) -> Memory:
    monkeypatch.setattr(ranking, "utcnow", lambda: FROZEN)  # recency does not move
    with Memory(tmp_path / "m.db", config=_config(config), embedder=HashEmbedder()) as opened:
        opened.add_many(TEXTS, namespace=NS)
        yield opened


def _index(mem: Memory) -> VectorIndex:
    index = mem._core.retriever.index
    assert isinstance(index, VectorIndex)
    return index


def _answer(found: Recall) -> list[object]:
    return [found.context, [h.to_dict() for h in found.hits], list(found.shown)]


def test_gathered_vectors_score_as_the_index_does(mem: Memory) -> None:
    index = _index(mem)
    ids = [r.id for r in mem.get_all(namespace=NS, limit=100)]
    gone = ids[3]
    mem.delete(gone, namespace=NS)
    query = HashEmbedder().embed("garden tulips")
    asked = [*ids[:40], "unknown"]
    gathered = index.gather(NS, asked)
    assert gathered.asked == frozenset(asked) and gathered.current()
    assert gone not in gathered.ids and "unknown" not in gathered.ids
    for wanted in (asked, asked[::-1], asked[5:17], [gone, "unknown"]):
        # the same rows in the same order: the same floats, not merely close ones
        assert gathered.scores(query, wanted) == index.scores(NS, query, wanted)


def test_a_write_after_the_gather_makes_it_stale(mem: Memory) -> None:
    index = _index(mem)
    ids = [r.id for r in mem.get_all(namespace=NS, limit=10)]
    gathered = index.gather(NS, ids)
    assert gathered.current()
    mem.add("a new memory about the garden", namespace=NS)
    assert not gathered.current()
    again = index.gather(NS, ids)
    mem.delete(ids[0], namespace=NS)
    assert not again.current()


def test_stale_gathered_vectors_are_not_used() -> None:
    legs = Legs(windows=[], query_vector=np.ones(4, np.float32))
    legs.gathered = Gathered(frozenset({"a"}), ["a"], np.ones((1, 4), np.float32), lambda: False)
    dense: dict[str, float] = {}
    assert completion.cosines(legs, ["a"], dense) == set()
    assert dense == {}  # the recall reads "a" itself
    rows = np.ones((1, 4), np.float32)
    legs.gathered = Gathered(frozenset({"a", "b"}), ["a"], rows, lambda: True)
    assert completion.cosines(legs, ["a", "b", "c"], dense) == {"a", "b"}
    assert dense == {"a": 4.0}  # "b" was asked and has no vector: it needs no read
    legs.query_vector = None  # the dense leg failed: no cosines are used
    assert completion.cosines(legs, ["a"], {}) == set()


def test_a_failed_gather_is_dropped() -> None:
    def gather(namespace: str, ids: Sequence[str]) -> Gathered:
        raise StoreError("the index is closed")

    def facts(namespace: str, ids: Sequence[str]) -> object:
        return {}

    leg = completion.leg(lambda n, m, d: [("m1", 1.0)], None, None, 5, facts)
    assert leg("ns", "words", 50) == [("m1", 1.0)]  # nothing to gather with: as before
    answer = completion.facts_ahead(
        lambda n, m, d: [("m1", 1.0)], facts, "ns", "words", 50, top=5, gather=gather
    )
    assert answer == ([("m1", 1.0)], None)


def test_recall_answers_the_same_with_the_vectors_gathered(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = _index(mem)
    asked: list[list[str]] = []
    scores = index.scores

    def spy(namespace: str, query: np.ndarray, ids: Sequence[str]) -> dict[str, float]:
        asked.append(list(ids))
        return scores(namespace, query, ids)

    monkeypatch.setattr(index, "scores", spy)
    gathered = [_answer(mem.recall(q, namespace=NS)) for q in QUERIES]
    ahead = list(asked)
    asked.clear()
    with monkeypatch.context() as off:
        off.setattr(completion, "_gathers", lambda scorer: False)  # the reads after the model
        read = [_answer(mem.recall(q, namespace=NS)) for q in QUERIES]
    assert gathered == read
    assert any(asked) and not any(ahead)  # the keyword-only candidates needed no read


def test_a_recall_tokenizes_its_match_once(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    mem.recall("warm the term index up", namespace=NS)
    calls: list[str] = []
    tokenized: list[str] = []
    read, tokenize = sqlite_keyword.match_terms, term_search.terms

    def spy(match: str) -> list[str]:
        calls.append(match)
        return read(match)

    def spy_terms(text: str) -> list[str]:
        tokenized.append(text)
        return tokenize(text)

    monkeypatch.setattr(sqlite_keyword, "match_terms", spy)
    monkeypatch.setattr(term_search, "terms", spy_terms)
    sqlite_keyword._query.cache_clear()
    first = mem.recall("tulips in the garden", namespace=NS)
    # the leg's search reads the match and tokenizes each keyword; the other
    # candidates' scores reuse both through the one cache, keyed on the match
    assert len(calls) == 1 and sorted(tokenized) == ["garden", "tulips"]
    sqlite_keyword._query.cache_clear()
    assert _answer(mem.recall("tulips in the garden", namespace=NS)) == _answer(first)


def test_the_term_index_takes_the_terms_read_once(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The match is read into terms in one place (``keyword._query``, cached per match):
    the term index ranks the terms it is handed and tokenizes nothing itself, so no
    second cache keyed on the keywords is needed behind the first."""
    keyword = mem._core.store.keyword
    assert isinstance(keyword, sqlite_keyword.SQLiteKeyword)
    match, ids = "garden OR harbor", [r.id for r in mem.get_all(namespace=NS, limit=100)]
    want = keyword.search(NS, match, 10), keyword.scores(NS, match, ids)
    query = sqlite_keyword._query(match)
    assert query == ("garden", "harbor") and want[0]

    def refuse(text: str) -> list[str]:
        raise AssertionError(f"the term index tokenized {text!r} again")

    monkeypatch.setattr(term_search, "terms", refuse)
    with keyword._db.search() as conn:
        assert keyword.terms.search(conn, NS, query, 10) == want[0]
        assert keyword.terms.scores(conn, NS, query, ids) == want[1]


def test_the_shared_count_and_policy_block_are_read_while_the_model_runs(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    published = "the harbor train leaves at noon, published for every agent"
    mem.shared.publish("bob", published)
    retriever = mem._core.retriever
    threads: dict[str, str] = {}
    count = retriever.memories.count

    def counted(namespace: str, **options: object) -> int:
        threads["count"] = threading.current_thread().name
        return count(namespace, **options)  # type: ignore[arg-type]

    def block() -> str:
        threads["block"] = threading.current_thread().name
        return "Policy: be brief."

    monkeypatch.setattr(retriever.memories, "count", counted)
    retriever.preamble = block
    found = mem.recall("harbor train noon", namespace="default", abstain=False)
    assert published in [h.memory.content for h in found.hits]
    assert found.context.startswith("Policy: be brief.")
    main = threading.current_thread().name
    assert threads["count"] != main and threads["block"] != main
    # One task on one worker (lat28): two threads beside the model, not three.
    assert threads["count"] == threads["block"]
    # Without the model, nothing hides them: read on the calling thread, as before.
    with Memory(":memory:", config=mem.config, embedder=None) as plain:
        plain.shared.publish("bob", published)
        plain_retriever = plain._core.retriever
        monkeypatch.setattr(plain_retriever.memories, "count", counted)
        plain_retriever.preamble = block
        again = plain.recall("harbor train noon", namespace="default", abstain=False)
        assert published in [h.memory.content for h in again.hits]
        assert threads["count"] == main and threads["block"] == main


def test_whether_the_dense_leg_gathers_is_asked_once_per_class(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A protocol's isinstance walks its members on every call (~18 us a recall at 100k):
    # the class answers once, as the protocol (methods only) would for each instance.
    index = _index(mem)
    assert completion._gathers(index) is isinstance(index, VectorsAhead) is True
    assert completion._gathers(object()) is False
    asked: list[type] = []

    def counted(kind: type, protocol: type) -> bool:
        asked.append(kind)
        return issubclass(kind, protocol)

    monkeypatch.setattr(completion, "_GATHERS", {})
    monkeypatch.setattr(completion, "issubclass", counted, raising=False)
    for q in QUERIES:
        mem.recall(q, namespace=NS)
    assert asked == [VectorIndex]  # once, not once a recall
    assert completion._GATHERS[VectorIndex] is True and len(completion._GATHERS) == 1


def test_the_count_of_memories_without_a_vector_is_read_while_the_model_runs(
    tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bare.db"
    with Memory(path, config=config, embedder=FailingEmbedder()) as broken:
        broken.add("the zebra migration is in march", namespace=NS)  # stored, no vector
    with Memory(path, config=config, embedder=HashEmbedder()) as mem:
        mem.add("zebras cross the river at dawn", namespace=NS)
        vectors = mem._core.retriever.vectors
        threads: list[str] = []
        unembedded = vectors.unembedded

        def counted(namespace: str) -> int:
            threads.append(threading.current_thread().name)
            return unembedded(namespace)

        monkeypatch.setattr(vectors, "unembedded", counted)
        found = mem.recall("zebra migration", namespace=NS)
        dense = mem.recall("zebra river dawn", namespace=NS, strategy="dense")
    warned = "1 memories of this namespace have no vector yet"
    assert any(warned in w for w in found.warnings)
    assert any(warned in w for w in dense.warnings)
    # Read beside the model with the other reads ahead (one task on a worker), not on
    # the calling thread after the dense search.
    assert len(threads) == 2 and threading.current_thread().name not in threads

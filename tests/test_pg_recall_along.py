"""Recall's reads after the dense leg on PostgreSQL (issue 29, round 11): the keyword
leg's top ids' cosines and facts are read where they are found (``recall/completion``):
by the keyword leg's worker right after its search when the query vector came first,
or in the dense search's round trip (``FactsAlong``) when the keyword leg ended first.
Either way the recall makes no read of its own for them after the join, and answers
as the reads in turn did.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.embed.cache import QueryVectorCache
from engram.errors import StoreError
from engram.recall import completion, ranking
from engram.records import Recall
from engram.store.postgres.db import Database
from engram.store.postgres.dense import PgVectorSearch
from engram.store.postgres.keyword import PgKeyword
from engram.store.protocols import ListQuery
from engram.store.protocols.vectors import FactsAlong

pytestmark = pytest.mark.postgres

NS = "ops"
TEXTS = [
    "The billing service moved to Postgres in March",
    "Invoices go out after the billing job ends",
    "Caroline kayaked across the lake at dawn",
    "Melanie paints the lake house in watercolour",
    "Deploys wait for the backups to finish",
    "Backups of the billing database run nightly",
    "Billing runs on the first of the month, after the backups",
    "The lake house has a billing address in May",
]
SESSION = [
    {"content": "Did the billing job run?", "session_id": "s1", "tags": ["ops"]},
    {"content": "Yes, the billing job ran at two", "session_id": "s1", "tags": ["ops"]},
    {"content": "And the lake trip?", "session_id": "s1"},
]
#: More memories than the dense leg reads (30 at limit 10), so the keyword leg finds
#: candidates the dense leg did not rank: their cosines are the completion's.
FILLER = [
    f"Note {i}: the {w} of week {i}"
    for i, w in enumerate(["billing", "lake", "backups", "deploy", "paints", "job"] * 40)
]
QUERIES = ["billing database", "who paints at the lake", "when do backups run", "billing job"]
FROZEN = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture
def mem(pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    # One clock for every recall, so two recalls that rank alike give equal scores.
    monkeypatch.setattr(ranking, "utcnow", lambda: FROZEN)
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as m:
        m.add_many([*TEXTS, *FILLER], namespace=NS)
        m.add("The billing service in another namespace", namespace="elsewhere")
        gone = m.add("Billing notes that were deleted", namespace=NS)
        m.delete(gone.id, namespace=NS)
        m.recall("billing", namespace=NS)  # warm: the vector index exists
        yield m


def _answer(got: Recall) -> tuple[Any, ...]:
    return (
        [(h.memory.id, h.score, h.breakdown) for h in got.hits],
        got.context,
        got.shown,
        got.warnings,
        got.abstain_reason,
        got.low_confidence,
    )


def _in_turn(mem: Memory, query: str, **kw: Any) -> Recall:
    """The recall with every read made after the legs, one after another."""
    retriever = mem._core.retriever
    retriever.overlap_reads = False
    try:
        return mem.recall(query, namespace=NS, **kw)
    finally:
        retriever.overlap_reads = True


@contextmanager
def _reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """Every read (a connection checkout) as (thread, what): "main" for the calling
    thread, "worker" for another."""
    made: list[tuple[str, str]] = []
    me = threading.current_thread()
    read = Database.read

    @contextmanager
    def counted(self: Database, what: str = "read") -> Iterator[Any]:
        made.append(("main" if threading.current_thread() is me else "worker", what))
        with read(self, what) as conn:
            yield conn

    monkeypatch.setattr(Database, "read", counted)
    yield made


def _expected(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, tuple[Any, ...]], set[str]]:
    """Each query's answer with the reads in turn, and the queries whose candidates
    held some the dense leg did not rank (their cosines were read after the join)."""
    expected, needs = {}, set()
    for query in QUERIES:
        with _reads(monkeypatch) as made:
            expected[query] = _answer(_in_turn(mem, query))
        if ("main", "vector scores") in made:
            needs.add(query)
    assert len(needs) >= 3  # the completion has work to do
    return expected, needs


def test_the_dense_search_reads_other_ids_cosines_and_facts_in_its_round_trip(
    mem: Memory,
) -> None:
    index = mem.index
    assert isinstance(index, PgVectorSearch) and isinstance(index, FactsAlong)
    store = mem.store.memories
    every = [r.id for r in store.select(NS, ListQuery(limit=100))]
    [elsewhere] = store.select("elsewhere", ListQuery())
    gone = [r.id for r in store.select(NS, ListQuery(include_deleted=True)) if r.deleted_at]
    assert gone
    others = [*every[:4], "no-such-id", elsewhere.id, *gone]
    for query in QUERIES:
        vector = HashEmbedder().embed_batch([query])[0]
        for k in (1, 3, 50):
            found, near, facts = index.search_facts(NS, vector, k, others)
            assert found == index.search(NS, vector, k)
            assert near == index.scores(NS, vector, others)
            assert facts == store.facts(NS, others)
            assert not set(facts) & {"no-such-id", elsewhere.id, *gone}
        near, facts = index.scores_facts(NS, vector, others)
        assert (near, facts) == (index.scores(NS, vector, others), store.facts(NS, others))
    assert index.search_facts(NS, vector, 0, []) == ([], {}, {})


def test_the_handoff_gives_the_ids_to_exactly_one_thread() -> None:
    vector = np.ones(4, dtype=np.float32)
    first = completion.Handoff()
    assert first.vector(vector) is None  # the keyword leg has not answered
    got = first.ranked(["a", "b"])
    assert got is vector  # so its worker completes them
    assert first.vector(vector) is None and first.ranked(["a"]) is None  # once
    second = completion.Handoff()
    assert second.ranked(["a", "b"]) is None  # the query is not embedded yet
    assert second.vector(vector) == ["a", "b"]  # so the dense search completes them
    assert second.ranked(["a"]) is None
    empty = completion.Handoff()
    assert empty.ranked([]) is None and empty.vector(vector) is None  # nothing to complete


def _force_keyword_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The query is embedded only once the keyword leg gave its ids to the handoff."""
    ranked = threading.Event()
    handed = completion.Handoff.ranked
    embed = QueryVectorCache.embed

    def ranked_then(self: completion.Handoff, ids: list[str]) -> Any:
        try:
            return handed(self, ids)
        finally:
            ranked.set()

    def embed_after(self: QueryVectorCache, embedder: Any, text: str) -> Any:
        assert ranked.wait(10)
        ranked.clear()
        return embed(self, embedder, text)

    monkeypatch.setattr(completion.Handoff, "ranked", ranked_then)
    monkeypatch.setattr(QueryVectorCache, "embed", embed_after)


def _force_vector_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keyword leg searches only once the query vector was given to the handoff."""
    given = threading.Event()
    handed = completion.Handoff.vector
    search = PgKeyword.search

    def vector_then(self: completion.Handoff, vector: Any) -> Any:
        try:
            return handed(self, vector)
        finally:
            given.set()

    def search_after(self: PgKeyword, namespace: str, match: str, limit: int) -> Any:
        assert given.wait(10)
        given.clear()
        return search(self, namespace, match, limit)

    monkeypatch.setattr(completion.Handoff, "vector", vector_then)
    monkeypatch.setattr(PgKeyword, "search", search_after)


@pytest.mark.parametrize("first", ["keyword", "vector"])
def test_the_keyword_legs_ids_are_completed_by_the_thread_that_comes_second(
    mem: Memory, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    expected, _ = _expected(mem, monkeypatch)
    if first == "keyword":
        _force_keyword_first(monkeypatch)
        # The dense search reads the keyword leg's top ids' cosines and facts in its
        # round trip; then its hits' facts, then the fetch.
        calling, worker = ["vector search", "read", "read"], 0
    else:
        _force_vector_first(monkeypatch)
        # The keyword leg's worker reads its top ids' cosines and facts right after
        # its search; the calling thread: the dense search, its hits' facts while the
        # keyword leg runs, the fetch.
        calling, worker = ["vector search", "read", "read"], 1
    for query in QUERIES:
        with _reads(monkeypatch) as made:
            got = mem.recall(query, namespace=NS)
        assert _answer(got) == expected[query], query
        assert got.hits
        # No read of cosines after the join, on any thread.
        assert made.count(("worker", "vector scores")) == worker, query
        assert [w for t, w in made if t == "main"] == calling, query


def test_a_completion_that_fails_on_the_worker_is_read_again_by_the_recall(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected, needs = _expected(mem, monkeypatch)
    _force_vector_first(monkeypatch)
    again = set()

    def broken(*args: Any) -> Any:
        raise StoreError("the completion read failed")

    monkeypatch.setattr(PgVectorSearch, "scores_facts", broken)
    for query in QUERIES:
        with _reads(monkeypatch) as made:
            got = mem.recall(query, namespace=NS)
        assert _answer(got) == expected[query], query
        # The recall read the keyword-only candidates' cosines itself, as before.
        if ("worker", "vector scores") in made:
            again.add(query)
    assert again == needs


@pytest.mark.parametrize("strategy", ["hybrid", "dense", "bm25"])
def test_every_strategy_and_filter_answers_as_the_reads_in_turn(mem: Memory, strategy: str) -> None:
    mem.add_many(SESSION, namespace=NS)  # a session: its members' reads follow fusion's
    for query in QUERIES:
        for kw in ({}, {"filters": {"tags": ["ops"]}}, {"limit": 2}):
            got = mem.recall(query, namespace=NS, strategy=strategy, **kw)
            assert _answer(got) == _answer(_in_turn(mem, query, strategy=strategy, **kw))

"""Recall's own cost on PostgreSQL (issue 29, session twelve; docs/benchmarks.md,
"Recall's own cost"): the keyword leg ranks a keyword only in the rows that hold it,
and the reads that need no keyword answer (the time leg, the dense candidates' facts)
run while the keyword leg is read. Each must give exactly the recall it replaced; a
failing keyword leg fails the recall with its own error, as before; and a pool of one
connection still answers, never deadlocks."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest

from conftest import HashEmbedder
from engram import Config, Memory, RetrievalError
from engram.errors import StoreError
from engram.recall import ranking
from engram.records import Recall
from engram.store.postgres import keyword
from engram.text import fts_query

pytestmark = pytest.mark.postgres

NS = "speed"
TEXTS = [
    "Caroline went to the LGBTQ support group on Monday and felt accepted",
    "Melanie ran a charity race for mental health in May",
    "Caroline is thinking about a career in counseling or mental health",
    "Melanie painted a sunrise over the lake last summer",
    "The adoption agency supports LGBTQ individuals, Caroline said",
    "Jon lost his job as a banker and opened a dance studio",
    "Gina's e-mail said the dance festival is in June",
    "Melanie's kids love the beach; they went camping in the mountains",
    "Caroline's e-mail to the agency asked about adoption for single parents",
    "Jon and Gina decided to collaborate to create dance content",
]
QUESTIONS = [
    "When did Melanie run a charity race?",
    "What career path has Caroline decided to pursue?",
    "What did Gina's e-mail say about the dance festival?",
    "What is Caroline's job now?",  # asks about now: the stale-fact read runs
    "What did Melanie paint in May?",  # names a time: the time leg runs
    "Which adoption agency supports LGBTQ individuals?",
]
SLOW = 0.15  # seconds the keyword leg holds its connection in the slowed tests
WAIT = 60.0  # seconds before a recall counts as hung


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recency at one instant, so two recalls' scores can be compared exactly."""
    at = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(ranking, "utcnow", lambda: at)


@pytest.fixture
def slow_keyword(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keyword leg holds its pooled connection ``SLOW`` seconds longer, so the dense
    leg always ends first and the reads of the wait run."""
    search = keyword.search

    def slowed(conn: psycopg.Connection[Any], *args: Any, **kwargs: Any) -> Any:
        time.sleep(SLOW)
        return search(conn, *args, **kwargs)

    monkeypatch.setattr(keyword, "search", slowed)


def _seeded(pg_url: str, config: Config) -> Memory:
    mem = Memory(pg_url, config=config, embedder=HashEmbedder())
    mem.add_many(TEXTS, namespace=NS)
    return mem


def _answer(got: Recall) -> tuple[Any, ...]:
    return (
        got.mode,
        [(h.memory.id, h.score, h.breakdown) for h in got.hits],
        got.context,
        got.warnings,
    )


def _both(mem: Memory, question: str) -> tuple[Recall, Recall]:
    """The recall with the reads overlapped, and the one made in turn."""
    retriever = mem._core.retriever
    retriever.overlap_reads = True
    overlapped = mem.recall(question, namespace=NS, limit=5, abstain=False)
    retriever.overlap_reads = False
    try:
        in_turn = mem.recall(question, namespace=NS, limit=5, abstain=False)
    finally:
        retriever.overlap_reads = True
    return overlapped, in_turn


def test_the_keyword_lookup_guard_keeps_every_score(
    pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _seeded(pg_url, config) as mem:
        index = mem._core.retriever.keyword
        guarded: dict[str, list[tuple[str, float]]] = {}
        looked_up: list[set[str]] = []
        real = keyword.looked_up

        def spy(terms: Any, stats: Any) -> set[str]:
            looked_up.append(real(terms, stats))
            return looked_up[-1]

        monkeypatch.setattr(keyword, "looked_up", spy)
        for question in QUESTIONS:
            match = fts_query(question)
            assert match is not None
            guarded[question] = index.search(NS, match, 1000)
        # Every keyword ranked in every candidate row, as before the guard.
        monkeypatch.setattr(keyword, "looked_up", lambda terms, stats: set())
        for question in QUESTIONS:
            match = fts_query(question)
            assert match is not None
            assert index.search(NS, match, 1000) == guarded[question], question
        assert all(guarded.values())
        # The guard ran, and a phrase ("e-mail": two lexemes) was ranked everywhere.
        assert any(looked_up)
        assert not any("e-mail" in terms for terms in looked_up)


@pytest.mark.usefixtures("frozen", "slow_keyword")
def test_reads_in_the_keyword_wait_give_the_recall_made_in_turn(
    pg_url: str, config: Config
) -> None:
    with _seeded(pg_url, config) as mem:
        mem.recall("warm the vector index", namespace=NS)
        for question in QUESTIONS:
            overlapped, in_turn = _both(mem, question)
            assert "facts" in overlapped.timings, question  # read in the wait
            assert "facts" not in in_turn.timings
            assert overlapped.hits, question
            assert _answer(overlapped) == _answer(in_turn), question


@pytest.mark.usefixtures("slow_keyword")
def test_a_failing_keyword_leg_fails_the_recall_with_its_own_error(
    pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _seeded(pg_url, config) as mem:
        retriever = mem._core.retriever
        search = keyword.search

        def failing(*args: Any, **kwargs: Any) -> Any:
            search(*args, **kwargs)  # slowed: the dense leg ends first
            raise StoreError("keyword search failed: the ranking broke")

        monkeypatch.setattr(keyword, "search", failing)
        # A read made in the wait fails too: the keyword leg's error still wins.
        monkeypatch.setattr(
            retriever.memories,
            "facts",
            lambda *a, **k: (_ for _ in ()).throw(StoreError("facts failed")),
        )
        errors = []
        for overlap in (True, False):
            retriever.overlap_reads = overlap
            with pytest.raises(RetrievalError) as caught:
                mem.recall(QUESTIONS[0], namespace=NS)
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1]
        assert "the ranking broke" in errors[0][1]


@pytest.mark.usefixtures("frozen", "slow_keyword")
def test_a_pool_of_one_connection_answers_and_never_deadlocks(pg_url: str, config: Config) -> None:
    one = config.with_overrides(
        postgres={"pool_min_size": 1, "pool_max_size": 1, "pool_timeout": WAIT}
    )
    with _seeded(pg_url, one) as mem:
        answers: dict[str, tuple[Recall, Recall]] = {}

        def run() -> None:
            for question in QUESTIONS:
                answers[question] = _both(mem, question)

        worker = threading.Thread(target=run)
        worker.start()
        worker.join(WAIT)
        assert not worker.is_alive(), "recall hung on a pool of one connection"
        assert set(answers) == set(QUESTIONS)
        # (The dense leg waits for the one connection the keyword leg holds, so which
        # leg ends first varies: either way the answer is the one made in turn.)
        for question, (overlapped, in_turn) in answers.items():
            assert overlapped.hits, question
            assert _answer(overlapped) == _answer(in_turn), question

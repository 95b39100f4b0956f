"""A long memory without its neighbours' context (issue 24, C3: ``recall.context_alone_chars``).

The dense leg of a memory longer than the setting blends its own cosine with its session's
mean only; shorter memories, and every memory when a thread question is asked, keep their
neighbours. Runs on both backends (the ``mem`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram.config import RecallConfig
from engram.memory import Memory

QUERY = "which libraries does the budget project depend on"
THREAD = "Can you summarize how the budget project developed across our sessions?"
LONG = (
    "user: the budget project depends on Flask for the web layer, SQLAlchemy for the "
    "database, and a small charting library for the monthly reports; "
    + "the rest of this note lists how each one is configured and why it was chosen. "
    * 4
)


def dense_legs(mem: Memory, query: str, **settings: object) -> dict[str, float | None]:
    found = mem.recall(query, limit=10, min_relevance=0.0, abstain=False, **settings)
    return {h.memory.id: h.breakdown.dense for h in found.hits}


@pytest.fixture
def session(mem: Memory) -> tuple[str, str]:
    """(the long memory, a short one), in one session between unrelated turns."""
    start = datetime(2024, 3, 1, tzinfo=UTC)
    turns = (
        "user: the garden needs watering twice a week in summer",
        LONG,
        "user: my sister visits in May and brings her two cats",
        "user: the budget project uses libraries for charts and parsing",
        "user: the vet said the cats should eat less in winter",
    )
    stored = mem.add_many(
        [
            {"content": t, "session_id": "s1", "created_at": start + timedelta(minutes=n)}
            for n, t in enumerate(turns)
        ]
    )
    ids = [m.id for m in stored]
    assert len(ids) == len(turns)
    assert len(LONG) > 400
    return ids[1], ids[3]


def test_off_by_default(mem: Memory, session: tuple[str, str]) -> None:
    assert RecallConfig().context_alone_chars == 0
    assert dense_legs(mem, QUERY) == dense_legs(mem, QUERY, context_alone_chars=0)


def test_a_long_memory_leaves_its_neighbours_out(mem: Memory, session: tuple[str, str]) -> None:
    long, short = session
    plain = dense_legs(mem, QUERY)
    alone = dense_legs(mem, QUERY, context_alone_chars=400)
    # no neighbour context anywhere: the long memory's leg under the setting is exactly
    # this (its own cosine and its session's mean, equally weighted) ...
    without = dense_legs(mem, QUERY, context_dense=0.0)
    assert alone[long] == pytest.approx(without[long])
    assert alone[long] != pytest.approx(plain[long])
    # ... while a shorter memory keeps its neighbours
    assert alone[short] == pytest.approx(plain[short])
    # a threshold above its length leaves it as it was
    assert dense_legs(mem, QUERY, context_alone_chars=len(LONG) + 1) == plain


def test_a_thread_question_keeps_every_neighbour(mem: Memory, session: tuple[str, str]) -> None:
    # a summary asks for the episode, which the neighbours carry
    assert dense_legs(mem, THREAD, context_alone_chars=400) == dense_legs(mem, THREAD)

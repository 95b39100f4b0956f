"""Once a fact is closed, recall answers a user's own question with the new one (issue
28, FEATURES G2; session nineteen, now20): the old statement told in a mined chat, a
question opening with "when", an old statement that shares the question's words, and
a question about the past that keeps the old answer. Both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from engram import Memory
from engram.recall import context

JAN = datetime(2025, 1, 6, 9, tzinfo=UTC)
FEB = datetime(2025, 2, 5, 9, tzinfo=UTC)


def _mined(mem: Memory, text: str, namespace: str) -> str:
    """``text`` as the user's turn of a chat mined with ``--graph``, an assistant's
    acknowledgement after it; the user's turn's memory id."""
    at = JAN.isoformat()
    messages = [
        {"role": "user", "content": text, "created_at": at},
        {"role": "assistant", "content": "Got it, thanks for telling me.", "created_at": at},
    ]
    mined = mem.palace.mine_conversation(
        messages, wing="chats", session="january", graph=True, namespace=namespace
    )
    return mined.added[0].memory_id


def _first(mem: Memory, query: str, namespace: str) -> str:
    return mem.recall(query, namespace=namespace).hits[0].memory.id


def test_a_mined_chats_reply_does_not_carry_the_old_fact_past_the_new(mem: Memory) -> None:
    # The old statement's reply ("Got it") has none of the question's words, but its
    # session context carried the old statement's, and it was not demoted: it ranked
    # first, above the new fact.
    old = _mined(mem, "The platform team uses Jenkins.", "ci")
    new = mem.add("The platform team migrated to GitHub Actions.", created_at=FEB, namespace="ci")
    assert [r.target for r in mem.graph.relations(namespace="ci") if r.target != "user"] == [
        "GitHub Actions"
    ]
    assert old != new
    assert _first(mem, "Which CI does the platform team use?", "ci") == new.id
    # Asked about the past, the chat keeps its context and the old statement answers.
    assert _first(mem, "Which CI did the platform team use before?", "ci") == old


def test_a_when_question_answers_the_moved_deadline(mem: Memory) -> None:
    old = mem.add("The deadline for the thesis draft is April 12.", created_at=JAN, namespace="t")
    new = mem.add(
        "The deadline for the thesis draft moved to April 26.", created_at=FEB, namespace="t"
    )
    assert _first(mem, "When is the thesis draft due?", "t") == new.id
    assert old.id in [
        h.memory.id for h in mem.recall("When was the thesis draft due before?", namespace="t").hits
    ]


def test_an_old_statement_sharing_the_questions_words_ranks_below_the_new(mem: Memory) -> None:
    # "work" and "company"-like words are only in the old statement: demoted by a fixed
    # fifth (the factor before now20) it still won.
    old = mem.add("I work at Acme Corp doing QA.", created_at=JAN, namespace="job")
    new = mem.add(
        "I've been at Initech since March, the QA team there is way better",
        created_at=FEB,
        namespace="job",
    )
    assert _first(mem, "what company do I work for currently?", "job") == new.id
    assert _first(mem, "Where did I work before?", "job") == old.id


def test_sessions_without_members_close_the_gap() -> None:
    sessions = context.Sessions.from_members({"s": ["a", "b", "c"], "t": ["d"]})
    left = sessions.without(frozenset({"b", "d"}))
    assert left.neighbours("a") == (None, "c")
    assert left.neighbours("b") == (None, None)
    assert left.all_ids() == ["a", "c"]
    assert sessions.without(frozenset({"x"})) is sessions

"""A note's keyword leg scaled by the share of the question's keywords it holds
(issue 24, round 11, recall/keyword_share.py): a note sharing one common word with a
longer question no longer outranks the note nearer it by meaning; a name asked alone
keeps its whole weight; a session's turns keep their leg."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engram import Memory
from engram.config import Config
from hashembed import PlannedEmbedder

QUERY = "who does the story session for little kids"
#: Shares one word of the question ("sessions"), far from it by meaning.
ONE_WORD = "Public PCs: 8 in total, 1-hour sessions, booked at the desk."
#: What the question is about: nearer by cosine, no word in common.
ABOUT = "The Tuesday toddler rhyme time is run by Gwen, a volunteer since 2019."
FILLER = [f"Weekly shopping list number {n}: apples and bread." for n in range(6)]


def _planned(query: str = QUERY) -> PlannedEmbedder:
    return PlannedEmbedder(query, {ONE_WORD: 0.12, ABOUT: 0.28})


def _first(mem: Memory, query: str = QUERY, **settings: object) -> str:
    return mem.recall(query, abstain=False, **settings).hits[0].memory.content


@pytest.fixture
def notes(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        mem.add_many([{"content": t} for t in [ONE_WORD, ABOUT, *FILLER]])
        yield mem


def test_one_shared_word_no_longer_outranks_the_note_the_question_is_about(
    notes: Memory,
) -> None:
    # The lone match keeps the keyword leg's whole weight (spread 1): 0.7 x 0.12 + 0.3
    # beats 0.7 x 0.28. Held at a quarter (1 of the question's 4 keywords), it does not.
    assert _first(notes, keyword_share=False) == ONE_WORD
    assert _first(notes) == ABOUT
    hits = notes.recall(QUERY, abstain=False).hits
    one = next(h for h in hits if h.memory.content == ONE_WORD)
    assert one.breakdown.fused == pytest.approx(0.7 * 0.12 + 0.3 * 0.25, abs=1e-3)


def test_a_name_asked_alone_keeps_its_whole_weight(config: Config, store_location: str) -> None:
    query = "desk PCs"
    with Memory(store_location, config=config, embedder=_planned(query)) as mem:
        mem.add_many([{"content": t} for t in [ONE_WORD, ABOUT, *FILLER]])
        hits = mem.recall(query, abstain=False).hits
        assert hits[0].memory.content == ONE_WORD
        assert hits[0].breakdown.fused == pytest.approx(0.7 * 0.12 + 0.3, abs=1e-3)


def test_a_note_holding_two_of_the_questions_words_keeps_its_whole_weight(
    config: Config, store_location: str
) -> None:
    # The quickstart's case (the lead, session thirty-three): a note holding two of the
    # question's keywords is about it; only a note holding one is scaled.
    two = "Story session for kids: Gwen's Tuesday rhyme time."
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        mem.add_many([{"content": t} for t in [two, ABOUT, *FILLER]])
        hits = mem.recall(QUERY, abstain=False).hits
        held = next(h for h in hits if h.memory.content == two)
        off = mem.recall(QUERY, abstain=False, keyword_share=False).hits
        assert held.breakdown.fused == pytest.approx(
            next(h for h in off if h.memory.content == two).breakdown.fused, abs=1e-9
        )


def test_a_sessions_turns_keep_their_keyword_leg(config: Config, store_location: str) -> None:
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        texts = [ONE_WORD, ABOUT, *FILLER]
        mem.add_many([{"content": t, "session_id": f"s{n}"} for n, t in enumerate(texts)])
        on = [(h.memory.content, h.breakdown.fused) for h in mem.recall(QUERY, abstain=False).hits]
        off = mem.recall(QUERY, abstain=False, keyword_share=False).hits
        assert on == [(h.memory.content, h.breakdown.fused) for h in off]


#: A chat turn sharing one word of the question, in a session of its own.
TURN = "Alex: the last session ran long, we stayed until nine."


def test_in_a_mixed_store_turns_are_held_to_their_share_when_a_note_is_nearest(
    config: Config, store_location: str
) -> None:
    # Round 10 scales the turns' keyword leg like the notes' when a note is clearly the
    # nearest; held to their share too, a turn's one shared word no longer counts for
    # more than a note's.
    embedder = PlannedEmbedder(QUERY, {TURN: 0.10, ABOUT: 0.28, ONE_WORD: 0.05})
    with Memory(store_location, config=config, embedder=embedder) as mem:
        mem.add_many([{"content": t} for t in [ABOUT, ONE_WORD, *FILLER]])
        mem.add_many([{"content": TURN, "session_id": "chat-1"}])
        assert _first(mem, keyword_share=False) == TURN
        assert _first(mem) == ABOUT


def test_in_a_mixed_store_turns_keep_their_leg_when_a_turn_is_nearest(
    config: Config, store_location: str
) -> None:
    embedder = PlannedEmbedder(QUERY, {TURN: 0.30, ABOUT: 0.28, ONE_WORD: 0.05})
    with Memory(store_location, config=config, embedder=embedder) as mem:
        mem.add_many([{"content": t} for t in [ABOUT, ONE_WORD, *FILLER]])
        mem.add_many([{"content": TURN, "session_id": "chat-1"}])
        hits = mem.recall(QUERY, abstain=False).hits
        turn = next(h for h in hits if h.memory.content == TURN)
        off = mem.recall(QUERY, abstain=False, keyword_share=False).hits
        assert (
            turn.breakdown.fused == next(h for h in off if h.memory.content == TURN).breakdown.fused
        )

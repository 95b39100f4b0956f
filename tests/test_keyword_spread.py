"""The keyword leg of memories outside any session, scaled by how far its best match
stands out (issue 24, round 9): common words that match many agent notes about equally
stop outranking the dense leg's nearest note, a match that stands alone keeps its
whole weight, and a session's turns (LoCoMo's, BEAM's, a chat's) keep the whole leg,
which through their session context finds the gold there (round 8)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from engram import Memory
from engram.config import Config
from engram.recall.fusion import keyword_spread, spread_scale
from hashembed import PlannedEmbedder


def test_the_spread_is_the_best_over_the_kth_best() -> None:
    assert keyword_spread({"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0, "e": 0.5}, 4) == 0.75
    # Four or more as good as the best: the leg cannot pick the context.
    assert keyword_spread({"a": 2.0, "b": 2.0, "c": 2.0, "d": 2.0, "e": 1.0}, 4) == 0.0
    # Fewer than k matches: the k-th is no match at all, the whole weight stays.
    assert keyword_spread({"a": 3.0, "b": 3.0, "c": 3.0, "z": 0.0}, 4) == 1.0
    assert keyword_spread({"a": 3.0}, 1) == 0.0
    assert keyword_spread({"a": 4.0, "b": 1.0}, 2) == 0.75


def test_no_matches_or_rank_zero_keep_the_whole_weight() -> None:
    assert keyword_spread({}, 4) == 1.0
    assert keyword_spread({"a": 0.0}, 4) == 1.0
    assert keyword_spread({"a": 2.0, "b": 2.0, "c": 2.0, "d": 2.0}, 0) == 1.0


QUERY = "Which gate code opens the hangar?"
#: The one memory that names the hangar: a middling cosine, the only keyword match.
NAMED = "Hangar gate code: 4471."
#: Nearer the query by cosine, no word in common with it.
NEARER = "Airships are kept in the big shed by the river."
#: Eight notes that match the query's words equally and are far from it by cosine.
CROWD = [f"Gate checklist number {n}: the code is on the clipboard." for n in range(8)]
FILLER = [f"Weekly shopping list number {n}: apples and bread." for n in range(8)]


def _planned() -> PlannedEmbedder:
    return PlannedEmbedder(QUERY, {NAMED: 0.30, NEARER: 0.40, **dict.fromkeys(CROWD, 0.05)})


def _contents(mem: Memory, rank: int) -> list[str]:
    return [content for content, _ in _scored(mem, rank)]


def _scored(mem: Memory, rank: int) -> list[tuple[str, float]]:
    """Each hit's content and fused relevance, the decision off (the spread alone:
    round 11's share of the query, tests/test_keyword_share.py, off)."""
    hits = mem.recall(QUERY, abstain=False, keyword_spread_rank=rank, keyword_share=False).hits
    return [(h.memory.content, h.breakdown.fused) for h in hits]


@pytest.fixture
def named(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        mem.add_many([{"content": text} for text in [NAMED, NEARER, *FILLER]])
        yield mem


def test_a_lone_keyword_match_keeps_its_weight(named: Memory) -> None:
    # One memory names what the query asks for: the keyword leg stands out (spread 1)
    # and its match ranks above the memory nearer by cosine, with the spread on or off.
    for rank in (4, 0):
        hits = named.recall(
            QUERY, abstain=False, keyword_spread_rank=rank, keyword_share=False
        ).hits
        assert [h.memory.content for h in hits[:2]] == [NAMED, NEARER]
        assert hits[0].breakdown.fused == pytest.approx(0.7 * 0.30 + 0.3, abs=1e-3)


@pytest.fixture
def notes(config: Config, store_location: str) -> Iterator[Memory]:
    """Agent notes, outside any session: a crowd of equal keyword matches and the
    nearest memory, which shares no word with the query."""
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        mem.add_many([{"content": text} for text in [NEARER, *CROWD, *FILLER]])
        yield mem


def test_a_crowd_of_equal_keyword_matches_no_longer_buries_the_nearest_note(
    notes: Memory,
) -> None:
    # With the keyword leg's full weight the crowd fills the context of four; scaled by
    # its spread (eight matches as good as the best: 0), the nearest note ranks first.
    _the_crowd_buries_the_note_only_with_the_spread_off(notes)


def _the_crowd_buries_the_note_only_with_the_spread_off(mem: Memory) -> None:
    assert NEARER not in _contents(mem, 0)[:4]
    assert _contents(mem, 4)[0] == NEARER
    assert mem.recall(QUERY).hits[0].memory.content == NEARER  # the defaults, answered


@pytest.fixture
def turns(config: Config, store_location: str) -> Iterator[Memory]:
    """The same texts as turns of a conversation, each in a session."""
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        texts = [NEARER, *CROWD, *FILLER]
        mem.add_many(
            [{"content": t, "session_id": f"s{n % 3}"} for n, t in enumerate(texts)],
        )
        yield mem


def test_a_sessions_turns_keep_the_whole_keyword_leg(turns: Memory) -> None:
    # In sessions the keyword leg, through its context, is what finds the gold
    # (LoCoMo, BEAM): the spread leaves their scores, not just their order, unchanged.
    # (Outside sessions the same crowd's keyword leg scales to nothing: above.)
    assert _scored(turns, 4) == _scored(turns, 0)


def test_the_scale_reaches_turns_only_when_a_note_is_nearest_in_a_mixed_pool() -> None:
    outside = np.array([True, False, False])
    has = np.array([True, True, True])
    # The nearest by cosine is the note, clearly: every candidate's leg is scaled
    # (round 10).
    assert spread_scale(outside, has, np.array([0.4, 0.1, 0.05]), 0.25, 0.02) == 0.25
    # Nearer than every turn by less than the margin: a tie, the turns keep their leg.
    tie = spread_scale(outside, has, np.array([0.4, 0.39, 0.05]), 0.25, 0.02)
    assert np.array_equal(tie, [0.25, 1.0, 1.0])
    # The nearest is a turn: the turns keep their leg, the note is scaled (round 9).
    turn_nearest = spread_scale(outside, has, np.array([0.1, 0.4, 0.05]), 0.25, 0.0)
    assert np.array_equal(turn_nearest, [0.25, 1.0, 1.0])
    # A memory without a vector is never the nearest.
    no_vector = np.array([False, True, True])
    scaled = spread_scale(outside, no_vector, np.zeros(3) + 0.9, 0.25, 0.0)
    assert np.array_equal(scaled, [0.25, 1.0, 1.0])
    # Notes alone, or turns alone, are scaled as before.
    both = np.ones(2, bool)
    notes_only = spread_scale(both, both, np.array([0.4, 0.1]), 0.5, 0.0)
    assert np.array_equal(notes_only, [0.5, 0.5])
    turns_only = spread_scale(~both, both, np.array([0.4, 0.1]), 0.5, 0.0)
    assert np.array_equal(turns_only, [1.0, 1.0])


#: A turn of the chat nearer the query than any note.
TURN_NEARER = "We parked the airships by the river after the flight."


def _mixed(mem: Memory, note: str, chat: list[str]) -> None:
    """``note`` and the fillers as agent notes (no session), ``chat`` as the turns of
    one conversation (as ``engram mine`` or ``add_many`` with a session stores them)."""
    mem.add_many([{"content": text} for text in [note, *FILLER]])
    mem.add_many([{"content": text, "session_id": "chat-1"} for text in chat])


@pytest.fixture
def mixed(config: Config, store_location: str) -> Iterator[Memory]:
    """A store of both kinds: the nearest memory is a note, the crowd chat turns."""
    with Memory(store_location, config=config, embedder=_planned()) as mem:
        _mixed(mem, NEARER, CROWD)
        yield mem


def test_in_a_mixed_store_a_crowd_of_turns_no_longer_buries_the_nearest_note(
    mixed: Memory,
) -> None:
    # The turns' keyword leg, carried by each other as neighbours and by their
    # session, fills the context with the spread off; round 9 scaled the notes alone,
    # so the crowd still buried the note. With the nearest memory a note, every
    # candidate's leg is scaled by the spread (eight equal matches: 0).
    _the_crowd_buries_the_note_only_with_the_spread_off(mixed)


@pytest.fixture
def chatty(config: Config, store_location: str) -> Iterator[Memory]:
    """A store of both kinds whose nearest memory is a turn of the chat."""
    embedder = PlannedEmbedder(
        QUERY, {TURN_NEARER: 0.5, NEARER: 0.40, **dict.fromkeys(CROWD, 0.05)}
    )
    with Memory(store_location, config=config, embedder=embedder) as mem:
        _mixed(mem, NEARER, [TURN_NEARER, *CROWD])
        yield mem


def test_in_a_mixed_store_turns_keep_their_leg_when_a_turn_is_nearest(chatty: Memory) -> None:
    # A question about the conversation (its nearest memory a turn): the turns keep
    # the whole keyword leg, as in a store of turns alone (LoCoMo's and BEAM's rankings
    # unchanged with notes beside them, round 10); no note matches a keyword here, so
    # every score is the spread-off one.
    assert _scored(chatty, 4) == _scored(chatty, 0)
    top = _contents(chatty, 4)[:4]
    assert top[0] == TURN_NEARER and set(top[1:]) <= set(CROWD)

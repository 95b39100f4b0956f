"""Session context: each leg's score blended with a memory's neighbours and session."""

from __future__ import annotations

import math

import numpy as np

from engram.recall.context import Sessions, best_is_one, blend, dense_context, keyword_context

SESSIONS = Sessions.from_members({"s1": ["a", "b", "c"], "s2": ["d"]})


def test_structure() -> None:
    assert SESSIONS.neighbours("a") == (None, "b")
    assert SESSIONS.neighbours("b") == ("a", "c")
    assert SESSIONS.neighbours("d") == (None, None)
    assert SESSIONS.neighbours("unknown") == (None, None)
    assert set(SESSIONS.all_ids()) == {"a", "b", "c", "d"}
    assert Sessions.empty().neighbours("a") == (None, None)


def test_dense_context_by_hand() -> None:
    sims = {"a": 0.2, "b": 0.8, "c": -0.4, "d": 0.5, "x": 0.6}
    ctx, sess = dense_context(["a", "b", "d", "x"], sims, SESSIONS)
    # b: (0.8 + ½·0.2 + ½·0) / (1 + ½ + ½); negative similarity counts as 0.
    assert math.isclose(ctx["b"], 0.9 / 2.0)
    # a has one neighbour: (0.2 + ½·0.8) / 1.5.
    assert math.isclose(ctx["a"], 0.6 / 1.5)
    # Session mean of clipped similarities: (0.2 + 0.8 + 0) / 3.
    assert math.isclose(sess["a"], 1.0 / 3) and math.isclose(sess["b"], 1.0 / 3)
    # A memory alone, or without a session, is its own context.
    assert ctx["d"] == sess["d"] == 0.5
    assert ctx["x"] == sess["x"] == 0.6


def test_dense_context_weighs_the_previous_turn_by_the_setting() -> None:
    sims = {"a": 0.2, "b": 0.8, "c": 0.6}
    ctx, _ = dense_context(["b", "c"], sims, SESSIONS, previous=0.0)
    # b without its previous turn a: (0.8 + ½·0.6) / (1 + ½); c has only a previous one.
    assert math.isclose(ctx["b"], 1.1 / 1.5)
    assert ctx["c"] == 0.6
    ctx, _ = dense_context(["b"], sims, SESSIONS, previous=0.25)
    assert math.isclose(ctx["b"], (0.8 + 0.25 * 0.2 + 0.5 * 0.6) / 1.75)


def test_keyword_context_by_hand() -> None:
    scores = {"a": 1.0, "c": 0.5, "d": 0.5}
    ctx, sess = keyword_context(["a", "b", "d"], scores, SESSIONS)
    # b has no match of its own but sits between two: 0 + 1.0 + 0.5 = 1.5, the best.
    assert ctx["b"] == 1.0
    assert math.isclose(ctx["a"], 1.0 / 1.5)
    assert math.isclose(ctx["d"], 0.5 / 1.5)
    # Session sums of squares: s1 = 1 + 0.25, s2 = 0.25; scaled by the best.
    assert sess["a"] == sess["b"] == 1.0
    assert math.isclose(sess["d"], 0.25 / 1.25)


def test_keyword_context_without_matches_is_zero() -> None:
    ctx, sess = keyword_context(["a"], {}, SESSIONS)
    assert ctx == {"a": 0.0} and sess == {"a": 0.0}


def test_blend_stays_in_unit_interval() -> None:
    ctx, sess = np.array([1.0, 1.0, 0.9]), np.array([1.0, 0.0, 0.9])
    assert blend(np.array([1.0]), ctx[:1], sess[:1], 2.0, 1.0).tolist() == [1.0]
    assert math.isclose(blend(np.array([0.5]), ctx[1:2], sess[1:2], 1.0, 1.0)[0], 0.5)
    own = np.array([1.0, 0.5, 0.3])  # weights of 0 leave a score as it was
    assert blend(own, ctx, sess, 0.0, 0.0).tolist() == own.tolist()


def test_best_is_one() -> None:
    assert best_is_one(np.array([0.5, 2.0, 0.0])).tolist() == [0.25, 1.0, 0.0]
    assert best_is_one(np.array([0.0, 0.0])).tolist() == [0.0, 0.0]
    assert best_is_one(np.zeros(0)).tolist() == []


def test_context_without_sessions_is_each_candidate_alone() -> None:
    """No candidate in a session (the fast path): the same values the neighbour walk
    gives a memory without a session."""
    sims = {"a": 0.8, "b": -0.2, "c": 0.4}
    alone = Sessions.from_members({"s": ["z"]})  # a session none of them is in
    assert dense_context(["a", "b", "c", "d"], sims, Sessions.empty()) == dense_context(
        ["a", "b", "c", "d"], sims, alone
    )
    scores = {"a": 1.0, "c": 0.5}
    empty = keyword_context(["a", "b", "c"], scores, Sessions.empty())
    assert empty == keyword_context(["a", "b", "c"], scores, alone)
    assert empty == ({"a": 1.0, "b": 0.0, "c": 0.5}, {"a": 1.0, "b": 0.0, "c": 0.25})

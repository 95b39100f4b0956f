"""Questions about a whole thread (issue 24, beam22): the shape detector and the spread of
the ranked head over sessions or days."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from conftest import HashEmbedder, ranked_hit
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import coverage
from engram.recall.coverage import Shape
from engram.records import Hit


def hit(memory_id: str, score: float, session: str | None = None, **kw: Any) -> Hit:
    return ranked_hit(memory_id, score, session=session, **kw)


def order(hits: list[Hit]) -> list[str]:
    return [h.id for h in hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # a summary, an overview, a trajectory
        ("Can you summarize what we decided about the kitchen remodel?", Shape.SUMMARY),
        ("Give me a quick summary of my marathon training", Shape.SUMMARY),
        ("an overview of the hiring discussions, please", Shape.SUMMARY),
        ("Sum up where the thesis stands", Shape.SUMMARY),
        ("catch me up on the lawsuit", Shape.SUMMARY),
        ("How has my sourdough technique developed?", Shape.SUMMARY),
        ("how did the band's sound evolve over the tour", Shape.SUMMARY),
        # an order of events
        ("In what order did I try the three diets?", Shape.ORDER),
        ("List the cities I visited in chronological order", Shape.ORDER),
        ("walk me through the timeline of the move", Shape.ORDER),
        ("what was the sequence in which we fixed the bugs", Shape.ORDER),
        # a total over every mention
        ("How many books have I read in total?", Shape.TOTAL),
        ("How much did I spend on the car altogether?", Shape.TOTAL),
        ("how many runs have I logged so far", Shape.TOTAL),
        ("How many bugs did I report across our sessions?", Shape.TOTAL),
        # ordinary questions
        ("When do the written summaries go up online?", None),
        ("How did you recommend I fix the leak?", None),
        ("How much did my score improve after the course?", None),
        ("How should I sequence my resume updates?", None),
        ("Which came first, the job offer or the move?", None),
        ("What is the combined impact of the two changes?", None),
        ("How many people came to the party?", None),
        ("Where does Caroline live?", None),
        ("Always order the results by date", None),
    ],
)
def test_shape_reads_general_english(query: str, expected: Shape | None) -> None:
    assert coverage.shape(query) is expected


def test_each_session_gives_its_best_hit_round_by_round() -> None:
    hits = [
        hit("a1", 0.90, "a"),
        hit("a2", 0.88, "a"),
        hit("a3", 0.86, "a"),
        hit("b1", 0.80, "b"),
        hit("a4", 0.78, "a"),
        hit("c1", 0.70, "c"),
        hit("b2", 0.65, "b"),
    ]
    spread = coverage.spread(hits, Shape.SUMMARY, top_n=50)
    assert order(spread) == ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]
    # Only the head is reordered; what follows keeps its place.
    assert order(coverage.spread(hits, Shape.SUMMARY, top_n=4)) == [
        "a1",
        "b1",
        "a2",
        "a3",
        "a4",
        "c1",
        "b2",
    ]


def test_weak_hits_wait_until_after_the_rounds() -> None:
    hits = [hit("a1", 0.9, "a"), hit("a2", 0.8, "a"), hit("b1", 0.3, "b"), hit("c1", 0.5, "c")]
    # b1 scores under half the best: the spread does not lift it over a2.
    assert order(coverage.spread(hits, Shape.TOTAL, top_n=10)) == ["a1", "c1", "a2", "b1"]


def test_without_sessions_the_days_are_the_buckets() -> None:
    def on(memory_id: str, score: float, day: int) -> Hit:
        h = hit(memory_id, score)
        memory = h.memory.with_changes(created_at=datetime(2026, 3, day, 9, tzinfo=UTC))
        return Hit(memory=memory, score=h.score, breakdown=h.breakdown)

    hits = [on("m1", 0.9, 1), on("m2", 0.85, 1), on("m3", 0.8, 1), on("m4", 0.7, 5)]
    assert order(coverage.spread(hits, Shape.SUMMARY, top_n=10)) == ["m1", "m4", "m2", "m3"]
    # One day, one bucket: the ranking stays.
    same = [on("m1", 0.9, 1), on("m2", 0.85, 1), on("m3", 0.8, 1)]
    assert order(coverage.spread(same, Shape.SUMMARY, top_n=10)) == ["m1", "m2", "m3"]


def test_an_order_question_prefers_the_users_own_words() -> None:
    hits = [
        hit("ans", 0.9, "a", content="assistant: Here is a long plan for the move"),
        hit("said", 0.7, "a", content="user: I booked the movers for May"),
        hit("role", 0.85, "a", role="assistant"),
    ]
    assert coverage.users(hits[1].memory) and not coverage.users(hits[0].memory)
    assert not coverage.users(hits[2].memory)
    assert order(coverage.spread(hits, Shape.ORDER, top_n=10)) == ["said", "ans", "role"]
    # Only an order question: a summary keeps the assistant's answers where they rank.
    assert order(coverage.spread(hits, Shape.SUMMARY, top_n=10)) == ["ans", "role", "said"]


def test_apply_and_depth_follow_the_setting() -> None:
    hits = [hit("a1", 0.9, "a"), hit("a2", 0.8, "a"), hit("b1", 0.7, "b")]
    on, off = RecallConfig(), RecallConfig(coverage_top_n=0)
    assert on.coverage_top_n == 50
    assert order(coverage.apply("summarize the trip", on, hits)) == ["a1", "b1", "a2"]
    assert coverage.apply("summarize the trip", off, hits) == hits
    assert coverage.apply("where is the hotel?", on, hits) == hits
    assert coverage.depth("summarize the trip", on) == 50
    assert coverage.depth("where is the hotel?", on) == 0
    assert coverage.depth("summarize the trip", off) == 0


def test_coverage_is_a_recall_setting() -> None:
    assert Config.load(env={"ENGRAM_RECALL_COVERAGE_TOP_N": "0"}).recall.coverage_top_n == 0
    with pytest.raises(Exception, match="coverage_top_n"):
        Config.load(env={"ENGRAM_RECALL_COVERAGE_TOP_N": "-1"})


def test_a_summary_question_covers_every_session(mem: Memory) -> None:
    # The first session talks about the garden at length; two later ones add to it.
    for n in range(14):
        mem.add(
            f"garden plan note {n}: garden beds, garden soil, garden tools",
            namespace="g",
            session_id="spring",
        )
    mem.add("the garden tomatoes finally ripened", namespace="g", session_id="summer")
    mem.add("we closed the garden for winter", namespace="g", session_id="autumn")
    asked = "Can you summarize how my garden went?"
    kept = mem.recall(asked, namespace="g", limit=4, abstain=False)
    plain = mem.recall(asked, namespace="g", limit=4, abstain=False, coverage_top_n=0)
    assert {h.memory.session_id for h in plain.hits} == {"spring"}
    assert {h.memory.session_id for h in kept.hits} == {"spring", "summer", "autumn"}
    # An ordinary question about the same thread keeps the ordinary ranking.
    other = "which garden tools do I have?"
    assert order(list(mem.recall(other, namespace="g", limit=4, abstain=False).hits)) == order(
        list(mem.recall(other, namespace="g", limit=4, abstain=False, coverage_top_n=0).hits)
    )


def test_the_floor_judges_a_thread_per_session() -> None:
    # "b" holds the thread (its best passes the floor against the best overall), and
    # its second hit is weak only next to "a"; "c"'s best fails, so "c" stays out.
    hits = [hit("a1", 0.9, "a"), hit("a2", 0.8, "a"), hit("b1", 0.6, "b")]
    hits += [hit("b2", 0.4, "b"), hit("c1", 0.3, "c"), hit("a3", 0.2, "a")]
    assert order(coverage.floor(hits, 0.6)) == ["a1", "a2", "b1", "b2"]
    on, off = RecallConfig(), RecallConfig(coverage_top_n=0)
    assert order(coverage.relative_floor("summarize the trip", on, hits, 0.6)) == [
        "a1",
        "a2",
        "b1",
        "b2",
    ]
    # An ordinary question, or the spread off: the floor against the best alone.
    assert order(coverage.relative_floor("where is b?", on, hits, 0.6)) == ["a1", "a2", "b1"]
    assert order(coverage.relative_floor("summarize the trip", off, hits, 0.6)) == [
        "a1",
        "a2",
        "b1",
    ]
    # One bucket: the ordinary floor; nothing to keep: nothing.
    alone = [hit("x1", 0.9, "x"), hit("x2", 0.4, "x")]
    assert order(coverage.floor(alone, 0.6)) == ["x1"]
    assert coverage.floor([], 0.6) == []


def test_a_thread_question_keeps_each_sessions_part_with_the_decision_on(
    config: Config, store_location: str
) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        for n in range(6):
            mem.add(
                f"garden plan {n}: garden beds garden soil garden tools garden",
                namespace="g",
                session_id="spring",
            )
        mem.add(
            "spring garden: bought seeds and a watering can", namespace="g", session_id="spring"
        )
        mem.add(
            "my garden went well: garden tomatoes ripened in the garden",
            namespace="g",
            session_id="summer",
        )
        mem.add(
            "summer in the garden: watered twice, long dry weeks, beans and peppers",
            namespace="g",
            session_id="summer",
        )
        mem.add("we closed the garden for winter", namespace="g", session_id="autumn")
        mem.add("bought a new bike helmet", namespace="g", session_id="other")
        asked = "Can you summarize how my garden went?"

        def shown(**kw: Any) -> str:
            found = mem.recall(asked, namespace="g", limit=20, relative_floor=0.6, **kw)
            assert not found.abstained
            return " | ".join(h.memory.content for h in found.hits)

        # The seeds are weak next to the summer's best, not next to the spring's.
        assert "seeds" in shown()
        assert "winter" not in shown() and "helmet" not in shown()  # sessions left out
        assert "seeds" not in shown(coverage_top_n=0)  # the floor against the best alone
        assert "winter" in shown(abstain=False)  # the floor is the decision's

"""A later statement told as a change answers before the earlier one (``recall/restated``;
the lead's change check, session thirty-two): in a mined chat, "They put it up, it's 44
pounds from January." closed nothing (its slot is only "it") and the old price ranked
first. Asked about now, a later hit of the head that says a change, is about as related
to the question and shares a content word with an earlier hit goes just above it.

Every sentence is written for these tests. The store tests run on both backends
(``mem``), through ``mine_conversation`` or ``mem.add`` and the job queue.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from conftest import ranked_hit
from engram import Memory
from engram.config import RecallConfig
from engram.recall import restated
from engram.records import Hit

NS = "restated"
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _hit(n: int, content: str, score: float, sim: float, minutes: int) -> Hit:
    hit = ranked_hit(f"m{n}", score, content=content)
    memory = replace(hit.memory, created_at=T0 + timedelta(minutes=minutes))
    return replace(hit, memory=memory, breakdown=replace(hit.breakdown, sim=sim))


OLD = "The climbing wall membership costs 38 pounds a month."
NEW = "Update: the climbing membership went up, it's 44 pounds a month."
OTHER = "Lena goes bouldering on Wednesdays."
NOW = "how much is the climbing membership?"


def _order(hits: list[Hit], query: str = NOW, cfg: RecallConfig | None = None) -> list[str]:
    return [h.id for h in restated.ordered(query, hits, cfg or RecallConfig())]


def test_a_later_change_of_the_same_slot_goes_above_the_earlier() -> None:
    hits = [_hit(0, OLD, 0.9, 0.62, 0), _hit(1, OTHER, 0.7, 0.5, 5), _hit(2, NEW, 0.6, 0.55, 9)]
    moved = restated.ordered(NOW, hits, RecallConfig())
    assert [h.id for h in moved] == ["m2", "m0", "m1"]
    # Scores stay in order, so a later merge by score keeps it; `final` is the pipeline's.
    assert [h.score for h in moved] == sorted((h.score for h in moved), reverse=True)
    assert moved[0].breakdown.final == 0.6


def test_the_order_holds_without_the_cue_the_word_the_time_or_the_relevance() -> None:
    plain = "The climbing membership is 44 pounds a month."
    unrelated = "We moved the sofa into the spare room."
    cases = [
        [_hit(0, OLD, 0.9, 0.62, 0), _hit(1, plain, 0.6, 0.55, 9)],  # says no change
        [_hit(0, OLD, 0.9, 0.62, 0), _hit(1, unrelated, 0.6, 0.55, 9)],  # no shared word
        [_hit(0, OLD, 0.9, 0.62, 9), _hit(1, NEW, 0.6, 0.55, 0)],  # told before, not after
        [_hit(0, OLD, 0.9, 0.62, 0), _hit(1, NEW, 0.6, 0.40, 9)],  # far less related
        # what a thing does instead of something else is no change of it
        [
            _hit(0, OLD, 0.9, 0.62, 0),
            _hit(1, OLD + " It bills monthly instead of failing.", 0.6, 0.55, 9),
        ],
    ]
    for hits in cases:
        assert _order(hits) == ["m0", "m1"], [h.memory.content for h in hits]


def test_a_question_about_the_past_and_the_setting_leave_the_order() -> None:
    hits = [_hit(0, OLD, 0.9, 0.62, 0), _hit(1, NEW, 0.6, 0.55, 9)]
    assert _order(hits, "how much was the climbing membership last year?") == ["m0", "m1"]
    assert _order(hits, cfg=RecallConfig(stale_fact_factor=1.0)) == ["m0", "m1"]
    assert _order(hits) == ["m1", "m0"]


def test_a_moved_time_answers_a_time_question_only() -> None:
    # "Which vet do we see?" is answered by the vet's name, which the later statement,
    # a new time for the same appointment, does not change (as current.untimed).
    first = "Booked: the cat's checkup on Monday the 3rd at 10am, with Dr. Varga."
    moved = "Update: the cat's checkup moved to Wednesday the 5th, same time."
    hits = [_hit(0, first, 0.9, 0.6, 0), _hit(1, moved, 0.6, 0.58, 9)]
    assert _order(hits, "which vet does the cat see?") == ["m0", "m1"]
    assert _order(hits, "when is the cat's checkup?") == ["m1", "m0"]


def test_a_moved_day_with_a_noun_of_the_thing_is_still_a_time_only() -> None:
    # New-user week D: "Mia's ballet class got moved to Thursdays" named the class again
    # ("class") and a day; asked where, the venue's statement stays first.
    first = "Mia's ballet: Tuesdays at 4pm at Rivergate."
    moved = "Mia's ballet class got moved to Thursdays."
    hits = [_hit(0, first, 0.9, 0.6, 0), _hit(1, moved, 0.6, 0.58, 9)]
    assert _order(hits, "where does Mia do ballet?") == ["m0", "m1"]
    assert _order(hits, "what day is Mia's ballet now?") == ["m1", "m0"]


def test_a_moved_venue_does_not_answer_a_time_question() -> None:
    # New-user week C: the dinner's new venue says nothing of its time.
    first = "Team dinner at Bellini, Friday the 18th at 7pm."
    moved = "Updated: the team dinner is at Rosa's Kitchen."
    hits = [_hit(0, first, 0.9, 0.6, 0), _hit(1, moved, 0.6, 0.58, 9)]
    assert _order(hits, "what time is the team dinner?") == ["m0", "m1"]
    assert _order(hits, "where is the team dinner?") == ["m1", "m0"]
    # "May" is the month here, and a date's number a time.
    dated = [
        _hit(0, "The grant deadline is April 20.", 0.9, 0.6, 0),
        _hit(1, "The grant deadline moved to May 3.", 0.8, 0.58, 9),
    ]
    assert _order(dated, "when is the grant deadline now?") == ["m1", "m0"]


def test_a_change_of_another_kind_goes_below_the_statement_that_answers() -> None:
    # The lead's check (session thirty-three): the day's change ranked first for a "where"
    # question, above the only statement that names the place.
    first = "Pottery class: Wednesdays at 6pm at the Clay Barn."
    moved = "Pottery class moved to Thursdays."
    hits = [_hit(1, moved, 0.9, 0.62, 9), _hit(0, first, 0.7, 0.58, 0)]
    assert _order(hits, "where is pottery class?") == ["m0", "m1"]
    assert _order(hits, "what day is pottery class?") == ["m1", "m0"]
    # A time question and a moved venue: the statement with the time goes first.
    venue = "Book group moved to Priya's place."
    timed = [_hit(1, venue, 0.9, 0.6, 9), _hit(0, "Book group is at 8pm at the Fox.", 0.7, 0.6, 0)]
    assert _order(timed, "what time is book group?") == ["m0", "m1"]
    # Not when the earlier one holds nothing of the kind asked, nor is far less related.
    bare = [_hit(1, moved, 0.9, 0.62, 9), _hit(0, "Pottery class on Wednesdays.", 0.7, 0.6, 0)]
    assert _order(bare, "where is pottery class?") == ["m1", "m0"]
    far = [_hit(1, moved, 0.9, 0.62, 9), _hit(0, first, 0.7, 0.40, 0)]
    assert _order(far, "where is pottery class?") == ["m1", "m0"]


def test_only_the_head_is_reordered_and_no_hit_comes_or_goes() -> None:
    fillers = [_hit(n, f"note {n} about ropes", 0.8 - n / 100, 0.5, n) for n in range(1, 6)]
    late = _hit(9, NEW, 0.3, 0.6, 60)  # sixth: outside the head
    hits = [_hit(0, OLD, 0.9, 0.62, 0), *fillers, late]
    assert _order(hits) == [h.id for h in hits]
    inside = [_hit(0, OLD, 0.9, 0.62, 0), *fillers[:3], late]
    assert sorted(_order(inside)) == sorted(h.id for h in inside)
    assert _order(inside)[0] == "m9"


CHAT = [
    ("user", "Our climbing wall membership is 38 pounds a month."),
    ("assistant", "Noted: climbing wall membership 38 pounds a month."),
    ("user", "Can you remind me to renew my car insurance on Friday?"),
    ("assistant", "Sure, reminder set for Friday."),
    ("user", "The climbing wall put it up, it's 44 pounds a month now."),
    ("assistant", "Got it, 44 pounds a month from now on."),
]


def test_a_change_told_in_a_mined_chat_answers_first(mem: Memory) -> None:
    turns = [{"role": role, "content": content} for role, content in CHAT]
    mem.palace.mine_conversation(turns, wing="gym", session="s1", graph=True, namespace=NS)
    mem.jobs.process_pending()
    now = mem.recall("what does the climbing wall membership cost?", namespace=NS, limit=4)
    assert now.hits and "44" in now.hits[0].memory.content, [h.memory.content for h in now.hits]
    before = mem.recall("what did the climbing wall membership cost before?", namespace=NS, limit=4)
    assert [h.id for h in before.hits] == [
        h.id
        for h in mem.recall(
            "what did the climbing wall membership cost before?",
            namespace=NS,
            limit=4,
            stale_fact_factor=1.0,
        ).hits
    ]


@pytest.mark.parametrize(
    ("first", "change", "question", "new"),
    [
        (
            "The book swap happens at the Anchor café.",
            "The book swap moved to the community hall, the café closed.",
            "where is the book swap?",
            "community hall",
        ),
        (
            "Our printer toner is ordered from Inkwell Supplies.",
            "We switched toner orders to OfficeHub, Inkwell kept missing deliveries.",
            "where do we order printer toner from?",
            "OfficeHub",
        ),
    ],
)
def test_a_change_added_later_answers_first(
    mem: Memory, first: str, change: str, question: str, new: str
) -> None:
    for text in (first, change):
        mem.add(text, namespace=NS)
        mem.jobs.process_pending()
    hits = mem.recall(question, namespace=NS, limit=4).hits
    assert hits and new in hits[0].memory.content, [h.memory.content for h in hits]


def test_a_stem_held_by_lookups_is_a_stem_held_pair_by_pair() -> None:
    # ``_held`` answers by set and sorted lookups what ``_one`` answers pair by pair.
    import random

    rng = random.Random(7)
    words = ["swim", "swimm", "swims", "car", "cars", "card", "climb", "climbing", "clim"]
    words += ["".join(rng.choice("abcs") for _ in range(rng.randint(1, 7))) for _ in range(300)]
    for _ in range(2000):
        held = set(rng.sample(words, rng.randint(0, 6)))
        stems = (frozenset(held), tuple(sorted(held)))
        word = rng.choice(words)
        assert restated._held(word, stems) == any(restated._one(word, s) for s in held)


BUDGET_CHAT = [
    ("user", "We're redoing the bathroom. Budget is about 9k and the plumber is Keane & Co."),
    ("assistant", "Noted: bathroom refit, budget around 9k, plumber Keane & Co."),
    ("user", "The tiles will be slate grey from Topps."),
    ("assistant", "Noted: slate grey tiles from Topps."),
    ("user", "Also the budget went up to 11k because of the new pipework."),
    ("assistant", "Updated the budget to 11k to cover the pipework."),
    ("user", "Our cat Pip will stay with my sister that week."),
    ("assistant", "Noted: Pip stays with your sister."),
]


def test_a_terse_change_in_a_chat_answers_though_its_cosine_is_low(mem: Memory) -> None:
    # "budget went up to 11k" holds one of the question's words, the first statement
    # both: its cosine is far below, and five hits of a chat hold two statements and
    # their replies (the lead's mined-chat check, session thirty-four).
    turns = [{"role": role, "content": content} for role, content in BUDGET_CHAT]
    mem.palace.mine_conversation(turns, wing="home", session="s1", namespace=NS)
    mem.jobs.process_pending()
    now = mem.recall("what's the bathroom budget?", namespace=NS, limit=4)
    shown = [h.memory.content for h in now.hits]
    assert shown and "11k" in shown[0], shown
    assert now.hits[0].breakdown.restates is not None
    # A place question takes no amount: "where" is not answered by a new budget.
    assert not restated._of_kind(["11k"], ["11k"], restated.PLACE)

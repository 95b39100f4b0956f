"""New-user round twenty-three: fold C's leftovers of changes said in passing
(docs/benchmarks.md, "2026-12-02, round twenty-three"):

- "They rescheduled my physio to 2pm", "the vet pushed Biscuit's check-up to Friday":
  the event is the object, moved by someone else, with verbs no move rule read;
- "Biscuit's check-up at the vet is on Monday the 14th": no first day to close;
- "The team dinner is at Bellini", then "... at Rosa's Kitchen now, not Bellini": no
  venue relation was kept, and the old venue ranked above the new;
- "kieran.brennan@gmail.com" cut at its dots (``Kieran uses_email k``);
- "I'm flying to Lisbon on January 14", then "Change of plan: ... January 13 instead".

Every sentence is written for these tests (none is a fold's). The store tests run on
both backends (``mem``), through a mined chat as the proxy mines it.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_signals, change_words, triples
from test_week22_changes import _rows
from test_week22_changes import _said as said

USER = "sam"


def _said(mem: Memory, *turns: str) -> None:
    """Each user turn mined as the chat proxy mines it (a plain reply), its jobs run."""
    said(mem, *((text, "Noted.") for text in turns))


def _hits(mem: Memory, question: str) -> list[str]:
    return [h.memory.content for h in mem.recall(question, user_id=USER).hits]


def _new_above_old(hits: list[str], new: str, old: str) -> bool:
    at = next(k for k, text in enumerate(hits) if new in text)
    return all(at < k for k, text in enumerate(hits) if old in text and new not in text)


#: (first statement, the move, the event, its old and new value, a question, the words
#: of the new and the old statement that answer it).
MOVES = [
    (
        "My osteopath appointment with Farid is on Tuesday at 10am.",
        "They rescheduled my osteopath to 3pm on Tuesday.",
        ("osteopath appointment", "Tuesday", "3pm on Tuesday"),
        ("What time is my osteopath?", "3pm", "10am"),
    ),
    (
        "Pepper's grooming session at the salon is on Monday the 7th at 1pm.",
        "Oh, the groomer pushed Pepper's grooming session to Thursday the 10th.",
        ("Pepper's grooming session", "Monday the 7th", "Thursday the 10th"),
        (
            "Is Pepper's grooming session at the salon still on Monday?",
            "Thursday the 10th",
            "Monday the 7th",
        ),
    ),
]


@pytest.mark.parametrize(("first", "moved", "closed", "asked"), MOVES)
def test_someone_moved_an_event_and_its_old_time_closed(
    mem: Memory, first: str, moved: str, closed: tuple[str, str, str], asked: object
) -> None:
    # "They rescheduled my physio to 2pm", "the vet pushed Biscuit's check-up to ...":
    # the event is the object, moved by someone else; the check-up's first day, said with
    # where it is ("at the vet"), was not recorded either.
    _said(mem, first, moved)
    event, old, new = closed
    rows = _rows(mem)
    assert rows == {(event, "scheduled", old): False, (event, "scheduled", new): True}, rows


@pytest.mark.parametrize(("first", "moved", "closed", "asked"), MOVES)
def test_the_moved_time_ranks_above_the_old_one(
    mem: Memory, first: str, moved: str, closed: object, asked: tuple[str, str, str]
) -> None:
    _said(mem, first, moved)
    question, new, old = asked
    hits = _hits(mem, question)
    assert _new_above_old(hits, new, old), hits


@pytest.mark.parametrize(
    ("text", "source", "when"),
    [
        ("They bumped my eye test to the 21st.", "eye test", "the 21st"),
        ("The garage has moved my MOT appointment to Friday.", "MOT appointment", "Friday"),
        ("The school brought forward the concert to December 9.", "concert", "December 9"),
        ("Our lunch has been postponed to 1:30.", "lunch", "1:30"),
    ],
)
def test_a_reschedule_is_read_of_the_event(text: str, source: str, when: str) -> None:
    claims = [(c.source, c.relation, c.target) for c in change_signals.read(text)]
    assert claims == [(source, "scheduled", when)], claims


@pytest.mark.parametrize(
    "text",
    [
        "I moved my notes to Monday's folder.",  # no time, no event
        "We pushed the budget to 400 pounds.",  # an amount, no time
        "They might move my physio to 2pm.",  # a maybe
    ],
)
def test_no_reschedule_without_an_event_and_a_time(text: str) -> None:
    assert not any(c.relation == "scheduled" for c in change_signals.read(text))


DINNER = "The office summer party is at Marlowe's on Saturday the 20th at 8pm."
DINNER_MOVED = "Scratch that, the summer party is at The Boathouse now, not Marlowe's."


def test_an_events_venue_is_kept_and_a_new_one_closes_it(mem: Memory) -> None:
    _said(mem, DINNER, DINNER_MOVED)
    rows = _rows(mem)
    venues = {(t, now) for (_, kind, t), now in rows.items() if kind == "venue"}
    assert venues == {("Marlowe", False), ("Boathouse", True)}, rows


def test_the_new_venue_ranks_above_the_old_one(mem: Memory) -> None:
    _said(mem, DINNER, DINNER_MOVED)
    hits = _hits(mem, "Is the office summer party still at Marlowe's?")
    assert _new_above_old(hits, "Boathouse", "Marlowe's"), hits


def test_what_still_holds_of_a_moved_party_is_not_demoted(mem: Memory) -> None:
    # A guard of this round's venue closes (it passes on the base, which closes none):
    # only the venue changed, so the first statement still answers "what time".
    _said(mem, DINNER, DINNER_MOVED)
    hits = _hits(mem, "What time does the office summer party start on Saturday?")
    assert "8pm" in hits[0], hits


def test_a_closed_venue_demotes_only_for_a_question_about_a_place(mem: Memory) -> None:
    _said(mem, DINNER, DINNER_MOVED)
    ns = f"user:{USER}"
    every = mem.get_all(user_id=USER, limit=100)
    texts = {m.id: m.content for m in every}
    counts = mem._core.store.graph_counts
    stale = counts.stale_memories(ns, sorted(texts))
    placed = counts.retimed_memories(ns, sorted(stale), frozenset(("venue",)))
    assert any("Marlowe's on Saturday" in texts[i] for i in placed), [texts[i] for i in stale]
    assert not counts.retimed_memories(ns, sorted(stale)), [texts[i] for i in stale]


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("Our landlord's email is m.okoro@landlords.co.uk.", "m.okoro@landlords.co.uk"),
        ("Jo's new email is jo.ann.lee@proton.me, the old one is dead.", "jo.ann.lee@proton.me"),
        (
            "The booking page is https://book.example.org/swim?lane=2.",
            "https://book.example.org/swim?lane=2",
        ),
    ],
)
def test_an_address_is_one_value(text: str, whole: str) -> None:
    said = text.split(" is ", 1)[1]
    assert triples.noun_phrase(said) == whole
    assert change_words.phrase(said) == whole


@pytest.mark.parametrize(
    ("first", "changed", "relation", "old", "new"),
    [
        # A new e-mail address closes the old and leaves no pieces of either.
        (
            "Marta Ruiz's email is marta.ruiz@outlook.com.",
            "Marta's new email is m.ruiz@posteo.de, the outlook one is dead.",
            "uses_email",
            "marta.ruiz@outlook.com",
            "m.ruiz@posteo.de",
        ),
        # A trip's day, changed with "Change of plan: ... instead".
        (
            "I'm flying to Porto on March 3 for the conference.",
            "Change of plan: I'm flying to Porto on March 2 instead.",
            "scheduled",
            "March 3",
            "March 2",
        ),
    ],
)
def test_the_new_value_closes_the_old(
    mem: Memory, first: str, changed: str, relation: str, old: str, new: str
) -> None:
    _said(mem, first, changed)
    rows = _rows(mem)
    held = {(t, now) for (_, kind, t), now in rows.items() if kind == relation}
    assert held == {(old, False), (new, True)}, rows

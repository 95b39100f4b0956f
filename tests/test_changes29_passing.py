"""Change reading round eleven (changes29): changes said in passing (docs/benchmarks.md,
"2026-12-01, change reading round eleven").

A change told inside a longer turn, with a reason or a complaint around it: the slot
said by a plural after a verb of changing ("switched dentists", "changed schools"), a
person said first in the sentence ("Ottilie had to fly home, so payments on-call went
to Casimir instead"), "started going to X instead of Y", a date that moves, a budget
raised, the way to work; and the look-alikes that must close nothing (another person's
thing changed, a cover for a day, a request, a value for next week, a question).

Every sentence is written for these tests (none is a fold's, a tune set's or the
probe's). Each test through ``mem.add`` runs on both backends (``mem``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.pipeline import change_passing
from engram.store.protocols.graph import Relation
from test_changes27_plain import closes_and_replaces, keeps, records

#: (the first statement, the change, the owner and slot, the old value, the new one).
CHANGES = [
    ("My dentist is Dr. Ferreira.", "I switched dentists last month, I go to Dr. Nakagawa now.",
     "user/dentist", "Dr Ferreira", "Dr. Nakagawa"),
    ("My son Ravi attends the Beukenhof primary school.",
     "Ravi changed schools after the summer; he's at the Jenaplan school near the river now.",
     "Ravi/has_school", "Beukenhof primary school", "Jenaplan"),
    ("The office party is set for 12 December.",
     "The venue double-booked, so the office party moved to 19 December.",
     "office party/date", "12 December", "19 December"),
    ("We budgeted 4,000 euros for the new kitchen.",
     "The worktop alone cost more than we thought, so the kitchen budget is 5,200 euros now.",
     "user/kitchen_budget", "4,000 euros", "5,200 euros"),
    ("Ottilie is the on-call engineer for the payments team.",
     "Ottilie had to fly home, so payments on-call went to Casimir instead.",
     "payments team/on_call_engineer", "Ottilie", "Casimir"),
    ("I drive to work most days.", "Nowadays I cycle to work, the car went back to the lease firm.",
     "user/commutes_by", "drive", "cycle"),
    ("My barber is Yusuf on the high street.",
     "I've started going to Teodor by the market instead of Yusuf.",
     "user/barber", "Yusuf", "Teodor"),
    ("The Thursday retro is at 15:30.",
     "The Thursday retro clashed with the board meeting, so it's at 11:00 from next week.",
     "Thursday retro/scheduled", "15:30", "11:00"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "change", "slot", "old", "new"), CHANGES)
def test_a_change_said_in_passing_closes_the_held_value(
    mem: Memory, first: str, change: str, slot: str, old: str, new: str
) -> None:
    """The first value is read, then closed by the change, the new one holding (a
    function of its own: a mark put on round nine's shared one would stack with round
    ten's in one session)."""
    closes_and_replaces(mem, first, change, slot, old, new)


#: First statements and what they record.
FIRSTS = [
    ("The product demo is scheduled for 3 April.", ("product demo", "date", "3 April")),
    ("The plumber starts on the 9th of May.", ("plumber", "starts_on", "9th of May")),
    ("We set aside 800 pounds for the garden shed.", ("user", "garden_shed_budget", "800 pounds")),
    ("My daughter Ines goes to the Westpark academy.", ("Ines", "studies_at", "Westpark academy")),
    ("I take the train to work.", ("user", "commutes_by", "take the train")),
]


@pytest.mark.parametrize(("first", "held"), FIRSTS)
def test_a_first_statement_records_its_value(
    mem: Memory, first: str, held: tuple[str, str, str]
) -> None:
    records(mem, first, held)


#: Look-alikes: the first value is read, and nothing closes.
LOOKALIKES = [
    ("We keep our docs in Confluence.", "My brother's company ditched Confluence for Notion."),
    ("Anselm is the on-call engineer for the search team.",
     "Anselm is at a funeral on Friday, so Brigitta covers the pager that day only."),
    ("Radomir owns the billing service.", "Radomir asked Zsofia to look at the billing retry bug."),
    ("Margarethe is on call this week.", "Leopold is on call next week."),
    ("The office party is set for 12 December.",
     "Someone asked if the office party could move to 19 December."),
    ("I cycle to work most days.", "It was snowing, so I drove to work today."),
    ("My daughter Elif goes to the Noorderlicht school.",
     "Elif's best friend changed schools; she's at the Dalton school now."),
    ("The Thursday retro is at 15:30.", "The Thursday retro ran until 17:00 today."),
    ("Wendelin is the on-call engineer for the data team.",
     "Wendelin has a dentist appointment, so Agathe covers for him that day only."),
]  # fmt: skip


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, first: str, lookalike: str) -> None:
    keeps(mem, first, lookalike)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("The launch is pencilled in for 2 June", [("launch", "date", "2 June")]),
        ("The new hire begins on 14 July", [("new hire", "begins_on", "14 July")]),
        ("I earmarked $300 for the bike repair", [("user", "bike_repair_budget", "$300")]),
        ("These days I walk to the office", [("user", "commutes_by", "walk")]),
        ("I walk to the office for once today", []),
        ("The launch is probably in June", []),
        ("My sister Ana goes to the gym", []),
    ],
)
def test_first_readings(text: str, found: list[tuple[str, str, str]]) -> None:
    assert change_passing.firsts(text) == found


def _held(source: str, relation: str, target: str) -> Relation:
    when = datetime(2026, 1, 5, tzinfo=UTC)
    return Relation(
        id=1, namespace="n", source=source, relation_type=relation, target=target,
        confidence=0.7, mentions=1, strength=1.0, valid_from=when, valid_to=None,
        source_memory_id=None, created_at=when, source_entity_id=1, target_entity_id=2,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        ("Legal wants another pass, so the demo slipped to 10 April.", "10 April"),
        ("The demo is now on the 17th of April.", "17th of April"),
        ("Could the demo move to 10 April?", None),
        ("The demo stays on 3 April, the workshop moved to 10 April.", None),
        ("The workshop moved to 10 April.", None),
        ("The demo moved from 3 April to 10 April, then to 17 April.", None),
    ],
)
def test_a_date_that_moves(text: str, moved: str | None) -> None:
    found = change_passing.date_changes(text, [_held("product demo", "date", "3 April")])
    assert [f.target for f in found] == ([moved] if moved else [])


def test_the_slot_said_by_its_noun_after_a_verb_of_changing() -> None:
    assert change_passing.switched("I switched physios in May", ["physiotherapist"])
    assert change_passing.switched("we've changed venue", ["wedding", "venue"])
    assert change_passing.switched("Lotte changed schools", ["school"])
    assert not change_passing.switched("they changed the timetable", ["timetable"])
    assert not change_passing.switched("I switched physios", ["dentist"])


def test_another_persons_thing() -> None:
    assert change_passing.others("friend's startup")
    assert change_passing.others("my best mate's band")
    assert change_passing.others("our neighbours' kids")
    assert not change_passing.others("the billing service")
    assert not change_passing.others(None)

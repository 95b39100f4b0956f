"""New-user round twenty-four: fold D's leftovers of changes said in passing
(docs/benchmarks.md, "2026-12-02, round twenty-four"):

- "Tomas's birthday meal is at Casa Lupo on the 20th": "meal" was no event noun, so the
  venue was read as an employer (``works_at``) and the first day went unrecorded, and
  "... has been brought forward to the 19th" closed nothing;
- "Our landlord Kieran Brennan's email is ...": a description before the name, and the
  address was not recorded.

Every sentence is written for these tests (none is a fold's). The store tests run on
both backends (``mem``), through a mined chat as the proxy mines it.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_events, triples
from test_week22_changes import _rows
from test_week23_changes import _hits, _new_above_old, _said

#: (first statement, the move, the event, its venue, the old and new day).
MOVES = [
    (
        "My aunt's retirement supper is at The Olive Tree on Friday the 4th.",
        "They moved my aunt's retirement supper to Thursday the 3rd.",
        ("aunt's retirement supper", "Olive Tree", "Friday the 4th", "Thursday the 3rd"),
    ),
    (
        "The chess tournament is at Hartley Hall on Saturday the 5th.",
        "The chess tournament has been postponed to Sunday the 6th.",
        ("chess tournament", "Hartley Hall", "Saturday the 5th", "Sunday the 6th"),
    ),
]


@pytest.mark.parametrize(("first", "moved", "held"), MOVES)
def test_an_event_named_by_a_common_noun_is_placed_and_moved(
    mem: Memory, first: str, moved: str, held: tuple[str, str, str, str]
) -> None:
    # "supper" and "tournament" were no event nouns: the venue was ``works_at`` and the
    # first day unrecorded, so the move closed nothing.
    _said(mem, first, moved)
    event, venue, old, new = held
    assert _rows(mem) == {
        (event, "venue", venue): True,
        (event, "scheduled", old): False,
        (event, "scheduled", new): True,
    }, _rows(mem)


def test_the_moved_supper_ranks_above_its_old_day(mem: Memory) -> None:
    first, moved, _ = MOVES[0]
    _said(mem, first, moved)
    hits = _hits(mem, "Is my aunt's retirement supper still on Friday?")
    assert _new_above_old(hits, "Thursday the 3rd", "Friday the 4th"), hits


@pytest.mark.parametrize(
    "noun", ["meal", "supper", "drinks", "picnic", "match", "workshop", "conference", "retreat"]
)
def test_common_event_nouns(noun: str) -> None:
    assert change_events.is_event(f"the office {noun}")


@pytest.mark.parametrize(
    ("text", "owner", "value"),
    [
        ("Our landlord Ezra Quinn's email is ezra@letmail.com.", "Ezra Quinn", "ezra@letmail.com"),
        ("My physio Dana Wolfe's number is 07700 900214.", "Dana Wolfe", "07700 900214"),
        ("Our family doctor Ana Reyes's surgery is Millbrook.", "Ana Reyes", "Millbrook"),
    ],
)
def test_a_description_before_the_name_is_no_part_of_the_owner(
    text: str, owner: str, value: str
) -> None:
    found = [(r.source, r.target) for r in triples.relation_triples(text)]
    assert found == [(owner, value)], found


def test_a_described_persons_address_is_recorded_and_closed(mem: Memory) -> None:
    _said(
        mem,
        "Our landlord Ezra Quinn's email is ezra.quinn@letmail.com.",
        "Ezra Quinn's email is now ezra@quinnlets.co.uk.",
    )
    rows = _rows(mem)
    assert rows[("Ezra Quinn", "uses_email", "ezra.quinn@letmail.com")] is False, rows
    assert rows[("Ezra Quinn", "uses_email", "ezra@quinnlets.co.uk")] is True, rows

"""Premises and their street address (the lead's change check, session thirty-one): "Our
office is at 12 King Street" stated nothing, and "We've moved offices to 40 Quay Road"
read ``offices uses 40 Quay Road``, so the old address stayed current and ranked first.
``change_retold`` puts both as "Our office address is (now) ...", a single value a later
one closes.

Every sentence is written for these tests. The store tests run on both backends.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_retold

NS = "premises"

MOVES = [
    ("Our clinic is at 5 Mill Lane.", "We've relocated the clinic to 18 Harbour Road.", "clinic"),
    ("My studio is on 3 Canal Walk.", "I moved my studio to 27 Bridge Street.", "studio"),
]


@pytest.mark.parametrize(("first", "moved", "place"), MOVES)
def test_moved_premises_close_the_old_address(
    mem: Memory, first: str, moved: str, place: str
) -> None:
    for text in (first, moved):
        mem.add(text, namespace=NS)
        mem.jobs.process_pending()
    rows = {
        (r.relation_type, r.target): r.valid_to is None
        for r in mem.graph.relations(current_only=False, namespace=NS)
        if r.relation_type != "talks_about"
    }
    old, new = first.split(" ", 4)[-1].rstrip("."), moved.split(" to ", 1)[1].rstrip(".")
    assert rows == {(f"{place}_address", old): False, (f"{place}_address", new): True}, rows
    hits = [h.memory.content for h in mem.recall(f"where is the {place}?", namespace=NS).hits]
    assert hits[0] == moved, hits


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("Our office is at 12 King Street.", "Our office address is 12 King Street."),
        ("The shop is now on 9 Market Row.", "Our shop address is now 9 Market Row."),
        ("We've moved offices to 40 Quay Road.", "Our office address is now 40 Quay Road."),
        (
            "The surgery has moved to 2 Orchard Close.",
            "Our surgery address is now 2 Orchard Close.",
        ),
        ("Warehouse relocated to 11 Dock Yard.", "Our warehouse address is now 11 Dock Yard."),
    ],
)
def test_premises_are_retold_as_an_address(text: str, told: str) -> None:
    assert change_retold.retold(text) == told


@pytest.mark.parametrize(
    "text",
    [
        "Our office is at the end of the corridor.",  # no street address
        "The shop is on fire.",
        "The team dinner is at 12 King Street.",  # an event's venue, read as before
        "We moved the sofa to 12 King Street.",  # no premises
        "The office moved to Slack.",  # no street address
    ],
)
def test_other_places_are_left_as_said(text: str) -> None:
    assert change_retold.retold(text) == text


def test_an_address_said_with_is_now_is_recorded_without_now_or_its_full_stop(
    mem: Memory,
) -> None:
    """The account reader's "address is now V" took "is" first and kept the sentence's
    full stop: the new value was ``now 40 Quay Road.`` (``sound`` dropped "now", never
    the stop), another entity than a later "40 Quay Road"."""
    for text in ("Our office address is 12 Dock Street.", "Our office address is now 8 Pier Road."):
        mem.add(text, namespace=NS)
        mem.jobs.process_pending()
    rows = {
        r.target: r.valid_to is None
        for r in mem.graph.relations(current_only=False, namespace=NS)
        if r.relation_type == "office_address"
    }
    assert rows == {"12 Dock Street": False, "8 Pier Road": True}, rows

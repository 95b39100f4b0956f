"""Change reading round twelve (changes30): a changed fact closes the old one by what
the change names (docs/benchmarks.md, "changes30").

Three mechanisms, each read from the pair of facts rather than a phrasing:

- ``change_named``: the change names the held value, and the rules read the new value
  of another subject or relation, or read none and the memory says one other name
  ("Ovo's bills were silly, so I switched and Bulb supplies the house now" beside
  ``user electricity Ovo``); or the old value is unsaid and the new fact's subject is a
  word of exactly one held subject of the same relation ("We moved the demo to 15:00"
  beside ``Friday demo scheduled 16:00``);
- ``change_left``: the change names a value no fact holds that an earlier memory
  mentioned, recorded as held from then and closed;
- ``change_named.stated``: the slot pass reads a past state in the clause that states
  the value, not in its reason ("The Zurich premium was absurd, so I went with ...").

Every sentence is written for these tests (none is a fold's or a tune set's). Each test
through ``mem.add`` runs on both backends (``mem``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import change_clause, change_left, change_named
from test_changes27_plain import closes_and_replaces, keeps

#: (the first statement, the change, the owner and slot, the old value, the new one).
CHANGES = [
    ("My home insurance is with Zurich.",
     "The Zurich premium was absurd, so I went with Allianz this year.",
     "user/home_insurance", "Zurich", "Allianz"),
    ("The Friday demo is at 16:00.", "We moved the demo to 15:00 because of the school run.",
     "Friday demo/scheduled", "16:00", "15:00"),
    ("My electricity is with Ovo.",
     "Ovo's bills were silly, so I switched and Bulb supplies the house now.",
     "user/electricity", "Ovo", "Bulb"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "change", "slot", "old", "new"), CHANGES)
def test_a_change_closes_the_held_value(
    mem: Memory, first: str, change: str, slot: str, old: str, new: str
) -> None:
    closes_and_replaces(mem, first, change, slot, old, new)


#: (the first statement, the change, the slot, the old value, the new one): the first
#: statement records no fact; the change names its value.
LEFT = [
    ("I watch most things on Netflix with my flatmates.", "Cancelled Netflix, I'm on Mubi now.",
     "user/uses", "Netflix", "Mubi"),
    ("Our invoices get sent out of FreshBooks.",
     "Invoicing moved off FreshBooks, we use Xero now.", "user/uses", "FreshBooks", "Xero"),
]  # fmt: skip

START = datetime(2025, 1, 6, 9, tzinfo=UTC)


@pytest.mark.parametrize(("first", "change", "slot", "old", "new"), LEFT)
def test_a_value_left_behind_is_recorded_from_its_mention_and_closed(
    mem: Memory, first: str, change: str, slot: str, old: str, new: str
) -> None:
    owner, relation = slot.split("/")
    mem.add(first, namespace="left", created_at=START)
    assert [r for r in _relations(mem) if r.target == old] == []  # the first reads no fact
    mem.add(change, namespace="left", created_at=START + timedelta(days=30))
    rows = {(r.source, r.relation_type, r.target): r for r in _relations(mem)}
    held = rows[(owner, relation, old)]
    # held from the first memory, which mentioned it, until the change
    assert held.valid_from == START
    assert held.valid_to == START + timedelta(days=30)
    assert rows[(owner, relation, new)].valid_to is None


def _relations(mem: Memory) -> list:  # type: ignore[type-arg]
    found = mem.graph.relations(current_only=False, limit=100, namespace="left")
    return [r for r in found if r.relation_type != "talks_about"]


#: Look-alikes: the first value is read, and nothing closes.
LOOKALIKES = [
    ("We run our CI on Travis.", "We tried Buildkite for a sprint but went back to Travis."),
    ("My mentor is Marit.", "Marit moved to a corner office now."),
    ("My home insurance is with Zurich.",
     "My sister switched to Allianz, but I'm staying with Zurich."),
    ("The Friday demo is at 16:00.", "Could we move the demo to 15:00 next week?"),
    ("My electricity is with Ovo.", "Ovo's engineer was late today, so Bulb's man read the meter."),
]  # fmt: skip


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, first: str, lookalike: str) -> None:
    keeps(mem, first, lookalike)


#: Look-alikes of a value left behind: nothing is recorded as held.
LEFT_LOOKALIKES = [
    ("Eli goes to Greenfield High.", "Eli changed schools and goes to Westbrook now."),
    ("All our scans end up in Dropbox.", "Should we drop Dropbox for pCloud?"),
    ("I watch most things on Netflix.", "Cancelled Netflix for the summer, Mubi for now."),
]


@pytest.mark.parametrize(("first", "lookalike"), LEFT_LOOKALIKES)
def test_no_value_is_left_behind(mem: Memory, first: str, lookalike: str) -> None:
    mem.add(first, namespace="left", created_at=START)
    mem.add(lookalike, namespace="left", created_at=START + timedelta(days=30))
    assert [r for r in _relations(mem) if r.valid_to is not None] == []


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("The quote from Aviva was silly, so I went with Admiral.", "I went with Admiral."),
        ("We use Linear now, because Jira was slow.", "We use Linear now"),
        ("After years of how slow it was, we dropped Jira.", "we dropped Jira."),
        ("I lived in Lyon for 3 years.", "I lived in Lyon for 3 years."),
    ],
)
def test_the_clause_that_states_the_value(text: str, stated: str) -> None:
    assert change_clause.stated(text) == stated


def test_a_new_value_of_another_shape_is_another_slot() -> None:
    assert change_named.shape("Fridays") == "day"
    assert change_named.shape("senior designer") == "thing"
    assert change_named.shape("Figtree Studio") == "name"
    assert change_named.shape("48 euros") == "amount"


def test_two_names_left_behind_name_neither() -> None:
    """Which of two earlier-mentioned names was left is not said: nothing is recorded."""
    earlier = {
        "Netflix": change_left.Earlier("Netflix", "m1", START),
        "Hulu": change_left.Earlier("Hulu", "m2", START),
    }
    text = "Cancelled Netflix and Hulu, I'm on Mubi now."
    said = [("user", "uses", "Mubi")]
    assert change_left.left_behind(text, said, earlier.get) is None
    del earlier["Hulu"]
    found = change_left.left_behind(text, said, earlier.get)
    assert found is not None and found.old.name == "Netflix"

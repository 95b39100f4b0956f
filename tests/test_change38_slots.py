"""Change reading round sixteen (change38): a change read under another relation's
name than the held one, and the look-alikes its guards keep open.

- ``change_earlier._kin``: when one of the two relations names no slot of its own
  (``uses``, ``is_on``), the subject's one held value of the new value's shape (and of
  no other vocabulary category) is the slot's; the subject may be held under a longer
  name ("the weekly sprint demo" for "sprint demo") or as the speaker's slot
  (``user electricity_supplier``, "the electricity");
- ``change_states.no_value``: a passive verb before its value ("are stored on") is no
  value, so the speaker's ``<thing> kept`` junk no longer stands for the slot;
- ``change_earlier._place_shape``: an address said as a place is a name;
- ``change_words.others_thing``: "my cousin moved his blog to Ghost" says nothing of
  the speaker's podcast;
- ``triples``: "moved in with <someone> in <Place>" reads the place.

Both backends (``mem``), through ``mem.add`` and a mined chat; the sentences are
written for this test (none is in ``scripts/change38_cases.json``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import told_twice
from engram import Memory
from engram.pipeline import change_states, change_words

NAMESPACE = "user:odile"
START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _added(mem: Memory, first: str, second: str) -> told_twice.Graph:
    """Targets current and closed, and every relation, after ``first`` and, a month
    on, ``second``."""
    return told_twice.added(mem, NAMESPACE, START, first, second)


def _mined(mem: Memory, first: str, second: str) -> told_twice.Graph:
    """The same, each told in its own chat among small talk and assistant turns."""
    return told_twice.mined(mem, NAMESPACE, START, first, second)


CHANGES = [
    # (first, change, old, new): the change read under another relation than the held one
    ("Our timesheets are handled by Harvest.", "Timesheets now go through Clockify.",
     "Harvest", "Clockify"),
    ("The pottery group meets at Bramley Hall.",
     "The pottery group switched to the old chapel now.", "Bramley Hall", "old chapel"),
    ("Our electricity supplier is EDF.", "We switched the electricity to Octopus.",
     "EDF", "Octopus"),
    ("The weekly sprint demo is on Tuesdays.", "From now on the sprint demo is on Fridays.",
     "Tuesdays", "Fridays"),
    ("Our print shop is located on Foundry Street.", "The print shop moved to 22 Canal Walk.",
     "Foundry Street", "22 Canal Walk"),
    ("Grandpa lives in Dundee.", "Grandpa moved in with Uncle Fergus in Perth.", "Dundee", "Perth"),
]  # fmt: skip
LOOK_ALIKES = [
    # (first, second, the value that must stay current)
    ("We run the blog on WordPress.", "My cousin moved his blog to Ghost.", "WordPress"),
    ("Our timesheets are handled by Harvest.", "We also use Clockify for timesheets.", "Harvest"),
    ("The pottery group meets at Bramley Hall.",
     "My sister's pottery group switched to the old chapel now.", "Bramley Hall"),
    # a value of another category of the vocabulary is no new value of the slot
    ("The team uses Slack for chat.", "The team now uses Jira.", "Slack"),
    ("Our electricity supplier is EDF.", "Should we switch the electricity to Octopus?", "EDF"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "second", "old", "new"), CHANGES)
def test_a_change_under_another_relation_closes_the_old_value_added(
    mem: Memory, first: str, second: str, old: str, new: str
) -> None:
    current, closed, _ = _added(mem, first, second)
    assert old in closed and old not in current and new in current


@pytest.mark.parametrize(("first", "second", "old", "new"), [CHANGES[i] for i in (0, 2, 5)])
def test_a_change_under_another_relation_closes_the_old_value_mined(
    mem: Memory, first: str, second: str, old: str, new: str
) -> None:
    current, closed, _ = _mined(mem, first, second)
    assert old in closed and old not in current and new in current


@pytest.mark.parametrize(("first", "second", "kept"), LOOK_ALIKES)
def test_a_look_alike_closes_nothing(mem: Memory, first: str, second: str, kept: str) -> None:
    current, closed, _ = _added(mem, first, second)
    assert closed == set()
    assert kept in current


def test_a_passive_verb_is_no_value(mem: Memory) -> None:
    _, _, rows = _added(mem, "Our invoices are stored on Backblaze.", "The weather is nice.")
    assert not any(r.endswith(" stored") for r in rows)


@pytest.mark.parametrize(
    ("said", "none"),
    [
        ("stored on Backblaze", True),
        ("handled by Sage", True),
        ("located at Unit 4", True),
        ("married to Sam", True),  # a state, as before
        ("Backblaze", False),
        ("Hillside Primary", False),
        ("red", False),
    ],
)
def test_no_value_reads_a_passive_verb(said: str, none: bool) -> None:
    assert change_states.no_value("backups", said) is none


@pytest.mark.parametrize(
    ("text", "source", "theirs"),
    [
        ("My friend moved her blog to Ghost.", "blog", True),
        ("my brother switched his broadband to Plusnet", "broadband", True),
        ("My friend moved her blog to Ghost.", "newsletter", False),
        ("We moved our blog to Ghost.", "blog", False),
        ("Dad traded his Volvo in for a Skoda.", "Volvo", False),  # no "my": Dad's own
    ],
)
def test_a_known_persons_thing(text: str, source: str, theirs: bool) -> None:
    assert change_words.others_thing(text, source) is theirs

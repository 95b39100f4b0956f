"""Change reading round fifteen (changes36): a slot's first value the rules never read.

- ``change_earlier``: "The knitting circle meets at the community hall" gives the linker
  no relation, so "The knitting circle relocated to the Bell Inn" (read as ``knitting
  circle uses Bell Inn``) had nothing to close. The old value is now found in the
  earlier memory (by the subject's frame; for the speaker's slot by the vocabulary's
  category) and recorded as held until the change;
- a "we" change the rules read as the speaker's ends the team's one value of the slot;
- a code, password or PIN is one at a time, and a slot is said by its last two words
  ("the door code" for ``storage_unit_door_code``).

Both backends (``mem``), through ``mem.add`` and through a mined chat; the sentences
are written for this test (none is in the round's case set).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import told_twice
from engram import Memory

NAMESPACE = "user:ines"
START = datetime(2026, 2, 2, 9, tzinfo=UTC)


def _added(mem: Memory, first: str, second: str) -> tuple[set[str], set[str]]:
    """The targets current, and closed, after ``first`` and, a month on, ``second``."""
    return told_twice.added(mem, NAMESPACE, START, first, second)[:2]


def _mined(mem: Memory, first: str, second: str) -> tuple[set[str], set[str]]:
    """The same, each told in its own chat among small talk and assistant turns."""
    return told_twice.mined(mem, NAMESPACE, START, first, second)[:2]


CHANGES = [
    # (first, change, old, new)
    ("The knitting circle meets at the community hall.",
     "The knitting circle relocated to the Bell Inn.", "community hall", "Bell Inn"),
    ("The chess club plays at Hollis Library.", "The chess club moved to the Bell Inn.",
     "Hollis Library", "Bell Inn"),
    ("The guest wifi password is sunflower21.", "The guest wifi password changed to maple77.",
     "sunflower21", "maple77"),
    ("The storage unit door code is 2468.", "heads up, the door code changed to 1357",
     "2468", "1357"),
]  # fmt: skip
LOOK_ALIKES = [
    # (first, second, the value that must stay current)
    ("The knitting circle meets at the community hall.",
     "The chess club relocated to the Bell Inn.", "community hall"),
    ("The knitting circle meets at the community hall.",
     "Should the knitting circle relocate to the Bell Inn?", "community hall"),
    ("The storage unit door code is 2468.", "My neighbour's door code changed to 1357",
     "2468"),
    ("The chess club plays at Hollis Library.",
     "The chess club also plays at the Bell Inn now in summer.", "Hollis Library"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "second", "old", "new"), CHANGES)
def test_a_change_closes_a_first_value_never_read_added(
    mem: Memory, first: str, second: str, old: str, new: str
) -> None:
    current, closed = _added(mem, first, second)
    assert old in closed and old not in current and new in current


@pytest.mark.parametrize(("first", "second", "old", "new"), CHANGES[:2] + CHANGES[3:])
def test_a_change_closes_a_first_value_never_read_mined(
    mem: Memory, first: str, second: str, old: str, new: str
) -> None:
    current, closed = _mined(mem, first, second)
    assert old in closed and old not in current and new in current


@pytest.mark.parametrize(("first", "second", "kept"), LOOK_ALIKES)
def test_a_look_alike_closes_nothing(mem: Memory, first: str, second: str, kept: str) -> None:
    current, closed = _added(mem, first, second)
    assert closed == set()
    assert kept in current or kept not in closed


def test_the_speakers_category_slot_is_found_in_an_earlier_memory(mem: Memory) -> None:
    # Emacs is an editor (the vocabulary's category), told in the first person.
    current, closed = _added(
        mem, "I write all my code in Emacs.", "I've switched to Neovim for most things now."
    )
    assert "Emacs" in closed and "Neovim" in current


def test_someone_elses_category_value_is_not_the_speakers(mem: Memory) -> None:
    current, closed = _added(
        mem, "My brother writes his code in Emacs.", "I've switched to Neovim now."
    )
    assert "Emacs" not in closed


def test_a_we_change_ends_the_teams_value(mem: Memory) -> None:
    # "We" read as the speaker's ``uses_errors``; the team holds Sentry.
    current, closed = _added(
        mem, "The team uses Sentry for errors.", "We switched our error tracking to Rollbar now."
    )
    assert "Sentry" in closed and "Sentry" not in current and "Rollbar" in current


@pytest.mark.parametrize(
    "second",
    [
        "We might switch our error tracking to Rollbar.",
        "I switched my side project's error tracking to Rollbar now.",
    ],
)
def test_a_we_look_alike_leaves_the_teams_value(mem: Memory, second: str) -> None:
    current, closed = _added(mem, "The team uses Sentry for errors.", second)
    assert "Sentry" in current and "Sentry" not in closed


@pytest.mark.parametrize(
    ("first", "second", "old", "new"),
    [
        # the same category under another relation (``lives_in`` and ``uses_docs``)
        ("The runbook lives in Confluence.", "The runbook migrated to GitBook.",
         "Confluence", "GitBook"),
        # another version of one product under another relation (``runs``, ``uses_database``)
        ("The reporting service runs MariaDB 10.6.",
         "The reporting service now uses MariaDB 11.4 after the upgrade.",
         "MariaDB 10.6", "MariaDB 11.4"),
    ],
)  # fmt: skip
def test_the_slot_held_under_another_relation_is_ended(
    mem: Memory, first: str, second: str, old: str, new: str
) -> None:
    current, closed = _added(mem, first, second)
    assert old in closed and old not in current and new in current


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        ("The runbook lives in Confluence.", "The onboarding guide migrated to GitBook.",
         "Confluence"),
        ("The reporting service runs MariaDB 10.6.",
         "We also run MariaDB 11.4 for the new service now.", "MariaDB 10.6"),
    ],
)  # fmt: skip
def test_another_subjects_or_a_second_version_ends_nothing(
    mem: Memory, first: str, second: str, kept: str
) -> None:
    current, closed = _added(mem, first, second)
    assert kept in current and kept not in closed

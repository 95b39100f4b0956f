"""Two look-alikes the closing plan closed (change reading round fourteen's notes).

- "My sister swapped her Dropbox for Proton Drive": a family member's or friend's
  replacement is of a value of their own (``change_held``), so the user's invoices stay
  in Dropbox, while "dad traded the volvo in ..." still ends Dad's Volvo;
- "We swapped Dropbox for Proton Drive for a week, then went back": a change undone in
  the same text holds no change (``change_words.UNDONE``, read in ``hooks.sound_plan``).

Both backends (``mem``); the sentences are written for this test.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory

NAMESPACE = "user:sam"
START = datetime(2026, 1, 5, tzinfo=UTC)


def _told(mem: Memory, first: str, second: str) -> tuple[set[str], set[str]]:
    """The targets current, and closed, after ``first`` and, 9 days on, ``second``."""
    mem.add(first, namespace=NAMESPACE, created_at=START)
    mem.add(second, namespace=NAMESPACE, created_at=START + timedelta(days=9))
    rows = mem.graph.relations(current_only=False, namespace=NAMESPACE)
    current = {r.target for r in rows if r.valid_to is None}
    closed = {r.target for r in rows if r.valid_to is not None}
    return current, closed


@pytest.mark.parametrize(
    "second",
    [
        "My sister swapped her Dropbox for Proton Drive.",
        "My best friend swapped her Dropbox for Proton Drive last month.",
        "We swapped Dropbox for Proton Drive for a week, then went back.",
        "I switched the invoices from Dropbox to Proton Drive but then switched back.",
    ],
)
def test_a_look_alike_leaves_the_held_value_open(mem: Memory, second: str) -> None:
    current, closed = _told(mem, "We keep the invoices in Dropbox.", second)
    assert "Dropbox" in current and "Dropbox" not in closed


@pytest.mark.parametrize(
    ("first", "second", "old", "new"),
    [
        ("We keep the invoices in Dropbox.", "We swapped Dropbox for Proton Drive.",
         "Dropbox", "Proton Drive"),
        ("Dad's car is a Volvo estate.", "dad traded the volvo in for a Skoda Superb",
         "Volvo estate", "Skoda Superb"),
    ],
)  # fmt: skip
def test_a_change_still_closes(mem: Memory, first: str, second: str, old: str, new: str) -> None:
    current, closed = _told(mem, first, second)
    assert old in closed and old not in current and new in current

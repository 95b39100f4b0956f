"""Conflicts closed silently by cardinality (left39, after conflict38).

A slot declared one at a time is closed by the newer value even when nothing says it
changed. When the two statements come from different agents, a person is now asked:
the conflict38 review item is queued, marked ``"closed": "one value"``. A change said
in words, or one agent correcting itself, queues nothing. Both backends (``mem``); the
sentences are written for this test (none is in ``scripts/conflict38_cases.json``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import slot_conflicts

T0 = datetime(2026, 5, 4, 9, tzinfo=UTC)


def _told(mem: Memory, old: tuple[str, str | None], new: tuple[str, str | None]) -> list[dict]:
    """The disagreement items after ``old`` and, a day on, ``new`` (text, agent)."""
    for n, (text, agent) in enumerate((old, new)):
        mem.add(text, user_id="kai", agent_id=agent, created_at=T0 + timedelta(days=n))
    mem.jobs.process_pending()
    items = mem.review.list(user_id="kai")
    return [
        item.proposal[slot_conflicts.KIND]
        for item in items
        if isinstance(item.proposal.get(slot_conflicts.KIND), dict)
    ]


SILENT = [
    # (older, newer, values): a declared one-value slot closed with no word of change
    ("Mira lives in Bristol.", "Mira lives in Cardiff.", ["Bristol", "Cardiff"]),
    ("The QA database is MariaDB.", "The QA database is CockroachDB.", ["MariaDB", "CockroachDB"]),
]


@pytest.mark.parametrize(("old", "new", "values"), SILENT)
def test_a_silent_close_between_two_agents_is_asked(
    mem: Memory, old: str, new: str, values: list[str]
) -> None:
    said = _told(mem, (old, "planner"), (new, "coder"))
    assert [(s["values"], s["closed"]) for s in said] == [(values, "one value")], said
    current = {
        r.target
        for r in mem.graph.relations(current_only=True, user_id="kai")
        if r.relation_type != "talks_about"
    }
    assert values[1] in current and values[0] not in current  # the graph's close stands


@pytest.mark.parametrize(("old", "new", "values"), SILENT)
def test_one_agent_correcting_itself_is_not_asked(
    mem: Memory, old: str, new: str, values: list[str]
) -> None:
    assert _told(mem, (old, "coder"), (new, "coder")) == []


def test_a_change_said_in_words_is_not_asked(mem: Memory) -> None:
    said = _told(mem, ("Mira lives in Bristol.", "planner"), ("Mira moved to Cardiff.", "coder"))
    assert said == []


def test_said_as_change_reads_words_of_change() -> None:
    assert slot_conflicts.said_as_change("We switched the QA database to CockroachDB.")
    assert slot_conflicts.said_as_change("Mira lives in Cardiff now.")
    assert not slot_conflicts.said_as_change("Mira lives in Cardiff.")

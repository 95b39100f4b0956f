"""A text that only asks records nothing in the graph (new-user pass, round twenty-one).

A week through the chat proxy mined the user's "Remind me what's happening with the
kitchen tap." and the closing plan read ``happening has_tap kitchen tap`` from it: a
request to be told, or a question, states no fact and no change. The plan reads no claim
from such a text (``hooks.sound_plan``); a statement beside it still closes what it
changes. Both backends (``mem``); the sentences are written for this test.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory

NAMESPACE = "user:sam"
START = datetime(2026, 12, 7, 9, tzinfo=UTC)


def _relations_of(mem: Memory, memory_id: str) -> list[tuple[str, str, str]]:
    return [
        (r.source, r.relation_type, r.target)
        for r in mem.graph.relations(namespace=NAMESPACE)
        if r.source_memory_id == memory_id
    ]


@pytest.mark.parametrize(
    "asked",
    [
        "Remind me what's happening with the kitchen tap.",
        "Tell me when the plumber is coming to fix the kitchen tap.",
        "What's happening with the kitchen tap?",
        "Can you remind me which plumber is fixing the kitchen tap?",
    ],
)
def test_a_request_to_be_told_records_no_relation(mem: Memory, asked: str) -> None:
    mem.add(
        "The plumber, Dave Hughes, is coming on Saturday at 10 to fix the kitchen tap.",
        namespace=NAMESPACE,
        created_at=START,
    )
    before = sorted(
        (r.source, r.relation_type, r.target, r.valid_to)
        for r in mem.graph.relations(namespace=NAMESPACE)
    )
    record = mem.add(asked, namespace=NAMESPACE, created_at=START + timedelta(days=1))
    assert _relations_of(mem, record.id) == []
    after = sorted(
        (r.source, r.relation_type, r.target, r.valid_to)
        for r in mem.graph.relations(namespace=NAMESPACE)
    )
    assert after == before  # nothing closed either


def test_a_change_still_closes_beside_the_guard(mem: Memory) -> None:
    """The guard reads the whole text: a change with a question after it is a change."""
    mem.add("We use Jira for tickets.", namespace=NAMESPACE, created_at=START)
    mem.add(
        "We switched from Jira to Linear for tickets. Can you remind me to tell the team?",
        namespace=NAMESPACE,
        created_at=START + timedelta(days=3),
    )
    current = {r.target for r in mem.graph.relations(namespace=NAMESPACE) if r.valid_to is None}
    assert "Linear" in current and "Jira" not in current

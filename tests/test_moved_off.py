"""Leaving a named thing is saying it is gone (the lead's change check, session
thirty-one): "on-call moved off Opsgenie, we use incident.io now" closed nothing and the
old tool ranked first. ``change_ended.gone`` reads "moved off X", "migrated away from X",
"switched off X" and "came off X" as X gone, and the rest of the sentence as what holds
now, as "X is gone, ..." was read already.

Every sentence is written for these tests. The store tests run on both backends
(``mem``), through ``mem.add`` and the job queue.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_ended

NS = "moved-off"

#: (first statement, the change, the old target, the new one).
LEFT = [
    (
        "Our incident tooling uses FireHydrant.",
        "Incidents moved off FireHydrant, we use incident.io now.",
        "FireHydrant",
        "incident.io",
    ),
    (
        "Our uptime checks use Pingdom.",
        "Heads up: uptime checks moved off Pingdom, we use betterstack now.",
        "Pingdom",
        "betterstack",
    ),
]


def _said(mem: Memory, *texts: str) -> None:
    for text in texts:
        mem.add(text, namespace=NS)
        mem.jobs.process_pending()


def _open(mem: Memory) -> dict[str, bool]:
    """Each relation's target: whether it still holds."""
    return {
        r.target: r.valid_to is None
        for r in mem.graph.relations(current_only=False, namespace=NS)
        if r.relation_type != "talks_about"
    }


@pytest.mark.parametrize(("first", "change", "old", "new"), LEFT)
def test_leaving_a_named_thing_closes_it(
    mem: Memory, first: str, change: str, old: str, new: str
) -> None:
    _said(mem, first, change)
    held = _open(mem)
    assert held.get(old) is False and held.get(new) is True, held


@pytest.mark.parametrize(
    ("clause", "old", "rest"),
    [
        (
            "on-call moved off Opsgenie, we use incident.io now",
            "Opsgenie",
            "we use incident.io now",
        ),
        ("We've moved away from Leeds", "Leeds", None),
        ("we came off Vodafone; we are with Three now", "Vodafone", "we are with Three now"),
    ],
)
def test_the_thing_left_and_what_holds_now(clause: str, old: str, rest: str | None) -> None:
    assert change_ended.gone(clause) == (old, rest)


@pytest.mark.parametrize(
    "clause",
    [
        "I switched off the lights, I use candles now",  # no name: nothing left
        "I moved away from home at 18",
        "The cat came off the roof at last",
    ],
)
def test_leaving_no_named_thing_is_no_departure(clause: str) -> None:
    assert change_ended.gone(clause) is None

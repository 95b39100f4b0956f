"""What round thirteen (changes31) mended in the change readers (docs/benchmarks.md,
"changes31"): a value kept with the words of change said beside it, a tool's purpose
read from another item of a list, and a town taken for a school. Every sentence is
written for these tests (none is a fold's or a tune set's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import change_signals, relation_ends
from engram.store.protocols.graph import Statement

START = datetime(2025, 1, 6, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("target", "kept"),
    [
        ("Woodpecker CI these days", "Woodpecker CI"),
        ("WireGuard across the board", "WireGuard"),
        ("now 12 Harbour Row", "12 Harbour Row"),
        ("Maartje instead", "Maartje"),
        ("Now TV", "Now TV"),  # a name that opens with the word keeps it
        ("Dr Moreau", "Dr Moreau"),
    ],
)
def test_a_value_is_kept_without_the_words_of_change(target: str, kept: str) -> None:
    statement = Statement("m1", [("user", "uses", target, 0.8)], START, START)
    assert [t[2] for t in relation_ends.sound(statement, f"I use {target}.").triples] == [kept]


def test_a_purpose_of_another_item_of_a_list_is_not_the_first_items() -> None:
    """ "... and Fantastical for my calendar" is the calendar's, not Obsidian's."""
    [claim] = change_signals.read(
        "I use Bear for notes, Any.do for tasks and Timepage for my calendar."
    )
    assert (claim.source, claim.target) == ("user", "Bear")
    [claim] = change_signals.read("I use Timepage for my calendar.")
    assert (claim.source, claim.target) == ("calendar", "Timepage")


def test_a_changed_school_is_the_school_not_its_town(mem: Memory) -> None:
    mem.add("Our daughter Ilse goes to the Klimop primary school.", namespace="s", created_at=START)
    mem.add(
        "Ilse changed schools at half term, so she's at the Montessori School in Bussum now.",
        namespace="s",
        created_at=START + timedelta(days=30),
    )
    rows = {
        (r.source, r.relation_type, r.target): r.valid_to is None
        for r in mem.graph.relations(current_only=False, limit=100, namespace="s")
        if r.relation_type != "talks_about"
    }
    assert rows == {
        ("Ilse", "has_school", "Klimop primary school"): False,
        ("Ilse", "has_school", "Montessori School"): True,
    }

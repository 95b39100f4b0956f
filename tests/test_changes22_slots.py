"""Facts that change, round four (changes22): a new value of a slot the subject holds
one value of closes the old one, read from the slot and not from the verb
(``engram.pipeline.change_slots``). The memory speaks of the slot by its old value
("Dominic's shop closed, so Priya cuts my hair now") or by the slot's words ("our line
manager is Osman"; "is in" for a place), names exactly one other value, and tells no
plan, one-off, past state or other owner's slot. Every sentence is written for these
tests; none is from a benchmark fold. Each test runs on both backends (``mem``)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_slots, vocabulary
from test_dogfood19_changes import _rows, _told

CHANGES = [
    # the old value named, a new one beside it, no change verb
    (
        ("My hairdresser is Dominic.", "Dominic's shop closed, so Priya cuts my hair now."),
        ("user", "hairdresser", "Dominic"),
        ("user", "hairdresser", "Priya"),
    ),
    # "is in" a place after a relative's name, no verb at all
    (
        ("My aunt lives in Galway.", "My aunt is in Sligo now."),
        ("aunt", "lives_in", "Galway"),
        ("aunt", "lives_in", "Sligo"),
    ),
    # a verb no table holds ("coaches"), the old value in a clause of its own
    (
        ("The rowing club's coach is Hana.", "Tobias coaches the rowing club since Hana retired."),
        ("rowing club", "coach", "Hana"),
        ("rowing club", "coach", "Tobias"),
    ),
    # a lead-in without a comma before the slot's own words
    (
        ("Our line manager is Bettina.", "After the merger our line manager is Osman."),
        ("user", "line_manager", "Bettina"),
        ("user", "line_manager", "Osman"),
    ),
]

LOOKALIKES = [
    ("My dentist is Dr. Ames.", "The twins' dentist is Dr. Kerr."),  # another owner's slot
    ("Our cache is Memcached.", "We looked at Redis for caching."),  # a look, not a move
    ("Our cache is Memcached.", "Our session store's cache is Redis."),  # another owner
    ("My aunt lives in Galway.", "My aunt was in Sligo for a funeral last week."),  # a trip
    ("My hairdresser is Dominic.", "Dominic was off sick so Priya cut my hair today."),  # a day
    ("My hairdresser is Dominic.", "If Dominic retires I'd go to Priya."),  # a hypothetical
]


@pytest.mark.parametrize(("told", "old", "new"), CHANGES)
def test_a_new_value_of_a_held_slot_closes_the_old_one(
    mem: Memory,
    told: tuple[str, str],
    old: tuple[str, str, str],
    new: tuple[str, str, str],
) -> None:
    _told(mem, *told)
    rows = _rows(mem)
    assert rows[old] is False  # closed
    assert rows[new] is True  # holds
    # the fact history shows the old one ending when the new one starts
    history = [
        r
        for r in mem.graph.relations(current_only=False, user_id="dana")
        if (r.source, r.relation_type) == old[:2]
    ]
    ended = next(r for r in history if r.target == old[2])
    started = next(r for r in history if r.target == new[2])
    assert started.valid_to is None
    assert ended.valid_to is not None and ended.valid_to == started.valid_from
    assert [k for k, current in rows.items() if not current] == [old]


@pytest.mark.parametrize("told", LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, told: tuple[str, str]) -> None:
    _told(mem, *told)
    assert all(_rows(mem).values())


def test_the_pass_reads_nothing_the_rules_hedge_or_list() -> None:
    # Guards read before the graph is: no store is needed to refuse these.
    class NoReads:
        def entity(self, name: str) -> None:
            raise AssertionError("read the graph for a text the guards refuse")

        resolve = around = entity

    for text in (
        "We might move the cache to Redis.",
        "Is Priya my hairdresser now?",
        "We also use Redis now.",
        "We're still on Memcached, Redis was slower.",
        "Tom said he's moving to Bristol.",
    ):
        assert change_slots.replacements(NoReads(), text, []) == []  # type: ignore[arg-type]


def test_the_vocabulary_names_a_slot_by_its_relation_and_category() -> None:
    assert "based in" in vocabulary.relation_names("lives_in")
    assert "db" in vocabulary.relation_names("uses_database")
    # a whole name is a member; one word of a longer name is not
    assert vocabulary.member_category("React") == "framework"
    assert vocabulary.member_category("Vision Express") is None

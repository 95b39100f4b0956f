"""Facts that change, round three (changes21): rules that read a change by what it
means rather than by the words of one fold. An attribute of a kind held one at a time
("my insurer", "our landlord", "my water bill") takes a second value as a change with
no change word, also said the other way round ("Mrs. Hale is our landlord now"); the
change verbs are one table of meanings (an amount that "rose to", "we cut the holiday
budget to", "book club meets on Sundays now"); "has a new manager, Vikram" names the
manager; a subject named two ways ("my mother" / "Mum", "the platform squad" / "the
platform team", "Maria Lopez" / "Maria") is one subject; a thing the speaker changed
that an attribute of theirs names ("we switched gas supplier to Ovo") is that
attribute. The change cases join test_dogfood20_changes' list and the lookalikes
test_dogfood19_changes'; here are the rules' own tests. Every sentence is written for
these tests; none is from a benchmark fold."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_kinds, change_signals, change_verbs
from test_dogfood19_changes import _rows, _told


def test_a_new_manager_named_after_a_comma_is_the_manager(mem: Memory) -> None:
    # It recorded a "Vikram manager" of its own and closed it, beside Ruth (fold G's
    # two changes that closed another fact were of this form).
    _told(mem, "Tom's manager is Ruth.", "Tom has a new manager, Vikram.")
    rows = _rows(mem)
    assert rows[("Tom", "reports_to", "Ruth")] is False
    assert rows[("Tom", "reports_to", "Vikram")] is True
    assert [k for k, current in rows.items() if not current] == [("Tom", "reports_to", "Ruth")]


def test_a_first_name_two_people_have_closes_nothing(mem: Memory) -> None:
    # "Maria" is Maria Lopez only while no other Maria is known (the other lookalikes
    # of this round join test_dogfood19_changes' list; its changes, test_dogfood20's).
    _told(mem, "Maria Lopez works at Oracle.", "Maria Chen works at SAP.", "Maria joined Cisco.")
    assert all(_rows(mem).values())


@pytest.mark.parametrize(
    ("attribute", "target", "one"),
    [
        ("bank", "Starling", True),
        ("electricity supplier", "EDF", True),
        ("line manager", "Kwame", True),
        ("rent", "1,350", True),
        ("release cadence", "weekly", True),
        ("handle", "loudowl", True),
        ("bank", "closed", None),  # not a value: other rules decide
        ("rent", "too high", None),
        ("friend", "Sam", False),
        ("other bank", "Chase", False),
        ("backup phone", "Nokia", False),
        ("mood", "Great", None),  # a noun of no listed kind
    ],
)
def test_the_kind_of_noun_decides_one_value(attribute: str, target: str, one: bool | None) -> None:
    assert change_kinds.attribute_one(attribute, target) is one


def test_each_relative_is_named_by_the_others_of_their_group() -> None:
    assert "mother" in change_kinds.kin_names("Mum")
    assert "mum" not in change_kinds.kin_names("mum")
    assert change_kinds.kin_names("mother-in-law") == ()


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Starling is my bank now.", ("user", "bank", "Starling", "change")),
        ("Mrs. Hale is our landlord.", ("user", "landlord", "Mrs Hale", "plain")),
        ("Lena is my friend.", None),  # a kind held many: no claim by kind
        ("Tom has a new manager, Vikram.", ("Tom", "manager", "Vikram", "change")),
        ("Our mortgage rate fell to 3.9 percent.",
         ("user", "mortgage rate", "3.9 percent", "change")),
        ("The ticket price has gone up to 12 pounds.", ("ticket", "costs", "12 pounds", "change")),
        ("Choir now meets on Thursdays.", ("Choir", "scheduled", "Thursdays", "change")),
        ("I swim on Thursdays.", ("user", "swim when", "Thursdays", "plain")),  # a routine
        ("Kai transferred the domain to Namecheap.",
         ("domain", "migrated to", "Namecheap", "change")),
    ],
)  # fmt: skip
def test_the_claims_these_read(text: str, claim: tuple[str, ...] | None) -> None:
    read = change_signals.read(text)
    assert [(c.source, c.relation, c.target, c.signal) for c in read] == ([claim] if claim else [])


def test_every_verb_of_the_table_is_read_in_its_rule() -> None:
    # One table: each rising verb moves an amount, each moving verb moves a service.
    for verb in change_verbs.RISING:
        (claim,) = change_signals.read(f"My phone bill {verb} to 30 pounds.")
        assert (claim.relation, claim.target, claim.signal) == ("phone bill", "30 pounds", "change")
    for verb in (past[0] for past, _ in change_verbs.MOVING):
        (claim,) = change_signals.read(f"The billing service {verb} to Postgres.")
        assert (claim.source, claim.target, claim.signal) == (
            "billing service",
            "Postgres",
            "change",
        )

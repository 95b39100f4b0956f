"""A change said of someone else's thing closes none of the user's (left42): "My
neighbour's boiler is serviced by Octopus now." after "My boiler is serviced by British
Gas." leaves the user's boiler with British Gas, told one ``add`` at a time or in one
``add_many``, on both backends; the user's own change still closes. tidy43 adds a
family's plural possessive ("The Smiths' boiler"), "his"/"her"/"their" with no one
named before it, and a joint possessive that is the user's own ("My husband's and my GP
is Dr Shah now.")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline.change_words import joint, others_fact, others_phrase, others_thing, theirs

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

#: (the user's fact, the second statement, the user's old value, whether it closes)
CASES = [
    ("My boiler is serviced by British Gas.",
     "My neighbour's boiler is serviced by Octopus now.", "British Gas", False),
    ("My car is serviced by Kwik Fit.", "Tom's car is serviced by Halfords now.",
     "Kwik Fit", False),
    ("The boiler is serviced by Baxi.", "The landlord's boiler is serviced by Worcester now.",
     "Baxi", False),
    ("My broadband provider is BT.", "Our neighbours' broadband provider is Sky now.",
     "BT", False),
    ("My boiler is serviced by British Gas.", "My boiler is serviced by Octopus now.",
     "British Gas", True),
    ("My car is serviced by Kwik Fit.", "My wife's and my car is serviced by Halfords now.",
     "Kwik Fit", True),
    # tidy43: a family's plural possessive, "his"/"their" with no one named before it, a
    # joint possessive with the speaker's (a batch read none of the last two before)
    ("My boiler is serviced by British Gas.",
     "The Smiths' boiler is serviced by Octopus now.", "British Gas", False),
    ("My boiler is serviced by British Gas.", "His boiler is serviced by Octopus now.",
     "British Gas", False),
    ("My energy supplier is EDF.", "Their energy supplier is Octopus now.", "EDF", False),
    ("My GP is Dr Evans.", "My husband's and my GP is Dr Shah now.", "Dr Evans", True),
    ("My boiler is serviced by British Gas.",
     "My boiler is serviced by Octopus now, like the Smiths'.", "British Gas", True),
]  # fmt: skip


def _old_current(mem: Memory, namespace: str, old: str) -> bool | None:
    rows = [
        r for r in mem.graph.relations(current_only=False, namespace=namespace) if r.target == old
    ]
    assert rows, f"the user's fact was never read: {old}"
    return any(r.valid_to is None for r in rows)


@pytest.mark.parametrize("batch", [False, True], ids=["one", "batch"])
def test_a_third_partys_change_closes_none_of_the_users(mem: Memory, batch: bool) -> None:
    for k, (first, second, old, closes) in enumerate(CASES):
        namespace = f"theirs-{k}"
        said = [(first, START), (second, START + timedelta(days=30))]
        if batch:
            mem.add_many([{"content": t, "created_at": at} for t, at in said], namespace=namespace)
        else:
            for text, at in said:
                mem.add(text, namespace=namespace, created_at=at)
        mem.jobs.process_pending()
        assert _old_current(mem, namespace, old) is not closes, (first, second)


#: (a text, the things ``theirs`` reads in it as someone else's, with the owner's words)
THEIRS = [
    ("My neighbour's boiler is serviced by Octopus now.", {"boiler": "neighbour's"}),
    ("Tom's car is serviced by Halfords now.", {"car": "Tom's"}),
    ("Our neighbours' bins go out on Thursdays.", {"bins": "neighbours'"}),
    ("The landlord's boiler is new.", {"boiler": "landlord's"}),
    # the speaker's own thing too, a comparison, and "'s" that is "is"
    ("My wife's and my car is serviced by Halfords now.", {}),
    ("Like my flatmate's, my cleaner is Ana now.", {}),
    ("It's serviced by Octopus now.", {}),
    ("My boiler is serviced by Octopus now.", {}),
    # tidy43: a family by its plural name; "his"/"her"/"their" with no one named before
    ("The Smiths' boiler is serviced by Octopus now.", {"boiler": "Smiths'"}),
    ("Next door, the Joneses' car is serviced by Halfords now.", {"car": "Joneses'"}),
    ("His boiler is serviced by Octopus now.", {"boiler": "His"}),
    ("Their energy supplier is Octopus now.", {"energy": "Their"}),
    # a bare plural is a kind; a pronoun before the speaker's own thing owns nothing
    ("Parents' evening has been pushed back.", {}),
    ("I told her my boiler is serviced by Octopus now.", {}),
    ("Like his, my bank is Monzo now.", {}),
    # someone named before the pronoun may own the user's fact; a person is no thing
    ("Noor's piano teacher moved things, so her lessons are on Fridays now.", {"piano": "Noor's"}),
    ("Marketing moved their docs to Confluence.", {}),
    ("Her friend switched from piano to violin.", {}),
]


@pytest.mark.parametrize(("text", "owned"), THEIRS)
def test_theirs_reads_the_owner_and_spares_the_speakers_own(
    text: str, owned: dict[str, str]
) -> None:
    assert theirs(text) == owned


def test_others_thing_and_fact() -> None:
    assert others_thing("My neighbour's boiler is serviced by Octopus now.", "boiler")
    assert not others_thing("My neighbour's boiler is serviced by Octopus now.", "car")
    assert not others_thing("My boiler is serviced by Octopus now.", "boiler")
    assert others_thing("His boiler is serviced by Octopus now.", "boiler")
    # the speaker's slot named after their thing; a compound subject by its first word
    assert others_fact("Their energy supplier is Octopus now.", "user", "energy_supplier")
    assert others_phrase("Their energy supplier is Octopus now.", "energy supplier", "is")
    assert not others_phrase("My energy supplier is Octopus now.", "energy supplier", "is")


def test_a_joint_possessive_is_the_speakers() -> None:
    assert joint("My husband's and my GP is Dr Shah now.") == "My GP is Dr Shah now."
    assert joint("We said Tom's and our car is due.") == "We said our car is due."
    assert joint("It rained. My parents' and my house is sold.") == "It rained. My house is sold."
    # two people, no possessive: nothing shared
    assert joint("My husband and my GP get on well.") == "My husband and my GP get on well."

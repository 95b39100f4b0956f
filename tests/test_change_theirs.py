"""A change said of someone else's thing closes none of the user's (left42): "My
neighbour's boiler is serviced by Octopus now." after "My boiler is serviced by British
Gas." leaves the user's boiler with British Gas, told one ``add`` at a time or in one
``add_many``, on both backends; the user's own change still closes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline.change_words import others_thing, theirs

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
        if batch and k == 5:
            continue  # a batch reads no change of "my wife's and my car" (base as well)
        assert _old_current(mem, namespace, old) is not closes, (first, second)


def test_theirs_reads_the_owner_and_spares_the_speakers_own() -> None:
    assert theirs("My neighbour's boiler is serviced by Octopus now.") == {"boiler": "neighbour's"}
    assert theirs("Tom's car is serviced by Halfords now.") == {"car": "Tom's"}
    assert theirs("Our neighbours' bins go out on Thursdays.") == {"bins": "neighbours'"}
    assert theirs("The landlord's boiler is new.") == {"boiler": "landlord's"}
    # the speaker's own thing too, a comparison, and "'s" that is "is"
    assert theirs("My wife's and my car is serviced by Halfords now.") == {}
    assert theirs("Like my flatmate's, my cleaner is Ana now.") == {}
    assert theirs("It's serviced by Octopus now.") == {}
    assert theirs("My boiler is serviced by Octopus now.") == {}
    assert others_thing("My neighbour's boiler is serviced by Octopus now.", "boiler")
    assert not others_thing("My neighbour's boiler is serviced by Octopus now.", "car")
    assert not others_thing("My boiler is serviced by Octopus now.", "boiler")

"""New-user round twenty-five: folds D and E's leftovers of changes said in passing
(docs/benchmarks.md, "2026-12-02, round twenty-five"):

- "X has a new email, Y" recorded ``X has_email new email`` and closed nothing;
- a quote that "came back with/at ... instead", an imperative budget ("let's make the
  ... budget ...") and a cap ("let's go up to ... for ...") closed nothing: neither the
  first value ("X quoted ...", "We set the ... budget at ...") nor the change was read;
- "Our book club meets at The Crown": the place a group meets was read as ``uses``, so
  its change demoted the first statement for a question about its time;
- "Mia's school clubs are booked at <link>" recorded ``Mia school_clubs booked``;
- "Sam swapped Dropbox for Proton Drive" closed the speaker's Dropbox.

Every sentence is written for these tests (none is a fold's). The store tests run on
both backends (``mem``), through a mined chat as the proxy mines it.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_retold, relation_ends
from engram.store.protocols.graph_counts import PLACE_TYPES
from test_week22_changes import _rows
from test_week23_changes import USER, _hits, _new_above_old, _said

#: (first statement, the change, the rows after: (source, type, target) -> current).
CHANGES = [
    pytest.param(
        "My accountant Rosa Delgado's email is rosa@ledgerly.com.",
        "Rosa has a new email, rosa.d@fintrove.com.",
        {
            ("Rosa Delgado", "uses_email", "rosa@ledgerly.com"): False,
            ("Rosa Delgado", "uses_email", "rosa.d@fintrove.com"): True,
        },
        id="new-email",
    ),
    pytest.param(
        "Our babysitter Jess Moreno's phone number is 07700 900331.",
        "Jess has a new phone number, 07700 900442.",
        {
            ("Jess Moreno", "uses_phone", "07700 900331"): False,
            ("Jess Moreno", "uses_phone", "07700 900442"): True,
        },
        id="new-phone-number",
    ),
    pytest.param(
        "The plasterer quoted 450 pounds for the hallway.",
        "The plasterer came back with 380 pounds instead.",
        {("plasterer", "quote", "450 pounds"): False, ("plasterer", "quote", "380 pounds"): True},
        id="quote-came-back-with",
    ),
    pytest.param(
        "Kestrel Builders quoted 4,000 pounds for the loft.",
        "Kestrel Builders came back at 3,700 pounds for the loft instead.",
        {
            ("Kestrel Builders", "quote", "4000 pounds"): False,
            ("Kestrel Builders", "quote", "3700 pounds"): True,
        },
        id="quote-came-back-at",
    ),
    pytest.param(
        "We set the barbecue budget at 300 pounds.",
        "Let's make the barbecue budget 350 pounds.",
        {
            ("user", "barbecue_budget", "300 pounds"): False,
            ("user", "barbecue_budget", "350 pounds"): True,
        },
        id="imperative-budget",
    ),
    pytest.param(
        "We agreed 50 pounds for the leaving gift.",
        "Let's go up to 80 pounds for the leaving gift, she deserves it.",
        {
            ("user", "leaving_gift_budget", "50 pounds"): False,
            ("user", "leaving_gift_budget", "80 pounds"): True,
        },
        id="cap",
    ),
    pytest.param(
        "The holiday budget for Faro is 1300 euros.",
        "Actually, let's make the Faro holiday budget 1500 euros.",
        {
            ("Faro", "holiday_budget", "1300 euros"): False,
            ("Faro", "holiday_budget", "1500 euros"): True,
        },
        id="named-budget",
    ),
    pytest.param(
        "Our physio Dr Hannah Voss's email is hvoss@kneeclinic.co.uk.",
        "Dr Voss has a new email, hannah@vossphysio.co.uk.",
        {
            ("Dr Hannah Voss", "uses_email", "hvoss@kneeclinic.co.uk"): False,
            ("Dr Hannah Voss", "uses_email", "hannah@vossphysio.co.uk"): True,
        },
        id="title-and-surname",
    ),
    pytest.param(
        "My uncle Bram Dekker's number is 07700 900611.",
        "Mr Dekker got a new number: 07700 900622.",
        {
            ("Bram Dekker", "number", "07700 900611"): False,
            ("Bram Dekker", "number", "07700 900622"): True,
        },
        id="mr-and-surname",
    ),
]


@pytest.mark.parametrize(("first", "change", "rows"), CHANGES)
def test_a_change_said_in_passing_closes_the_first_value(
    mem: Memory, first: str, change: str, rows: dict[tuple[str, str, str], bool]
) -> None:
    _said(mem, first, change)
    assert _rows(mem) == rows, _rows(mem)


def test_the_new_quote_ranks_above_the_old(mem: Memory) -> None:
    _said(mem, "The plasterer quoted 450 pounds for the hallway.", CHANGES[2].values[1])
    hits = _hits(mem, "Is the plasterer still charging 450 pounds?")
    assert _new_above_old(hits, "380 pounds", "450 pounds"), hits


@pytest.mark.parametrize(
    "swap",
    [
        "Priya swapped Dropbox for Proton Drive.",
        "Priya switched from Dropbox to Proton Drive.",
        "Priya replaced Dropbox with Proton Drive.",
    ],
)
def test_a_friends_swap_leaves_the_speakers_value(mem: Memory, swap: str) -> None:
    # "Priya swapped ..." closed ``invoices uses_storage Dropbox``, told as the speaker's.
    _said(mem, "I keep my invoices on Dropbox.", swap)
    rows = _rows(mem)
    assert rows[("invoices", "uses_storage", "Dropbox")] is True, rows
    assert ("invoices", "uses_storage", "Proton Drive") not in rows, rows


def test_a_group_meets_at_a_venue_and_its_time_outlives_the_move(mem: Memory) -> None:
    _said(
        mem,
        "Our running club meets at The Bramble on Tuesdays at 6:30pm.",
        "Running club switched from The Bramble to The Old Mill this month.",
    )
    rows = _rows(mem)
    assert rows == {
        ("running club", "venue", "Bramble"): False,
        ("running club", "scheduled", "Tuesdays"): True,
        ("running club", "venue", "Old Mill"): True,
    }, rows
    # Only a place closed: recall leaves the first statement undemoted for a question
    # that asks no place ("What time is running club?"; ``recall.current.untimed``).
    ns = f"user:{USER}"
    texts = {m.id: m.content for m in mem.get_all(user_id=USER, limit=100)}
    stale = mem._core.store.graph_counts.stale_memories(ns, sorted(texts))
    placed = mem._core.store.graph_counts.retimed_memories(ns, sorted(stale), PLACE_TYPES)
    assert any("6:30pm" in texts[i] for i in placed), [texts[i] for i in stale]


def test_a_booking_participle_is_no_value(mem: Memory) -> None:
    _said(mem, "Mia's swimming galas are booked at https://galas.example.org/book.")
    assert not [k for k in _rows(mem) if k[2] == "booked"], _rows(mem)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Dr Marsh got a new number: 07700 900202.", "Dr Marsh's new number is 07700 900202."),
        ("Rosa has a new e-mail address, r@x.io", "Rosa's new email address is r@x.io"),
        ("Omar has a new mobile, 07700 900555.", "Omar's new phone is 07700 900555."),
        (
            "The gardener came back with 260 pounds instead.",
            "The gardener's quote is 260 pounds now.",
        ),
        (
            "The roofer's quote came back at £1,150 instead, which is a relief.",
            "The roofer's quote is £1150 now. which is a relief.",
        ),
        ("Our tiler quoted 900 pounds.", "Our tiler's quote is 900 pounds."),
        ("Actually, raise the gift budget to 400 euros.", "Our gift budget is now 400 euros."),
        (
            "Let's make the Faro holiday budget 1500 euros.",
            "The holiday budget for Faro is now 1500 euros.",
        ),
        ("ok let's set the party budget at 250 pounds", "ok Our party budget is now 250 pounds"),
        ("Spend up to 40 pounds on the raffle prize.", "Our raffle prize budget is now 40 pounds."),
    ],
)
def test_retold(text: str, said: str) -> None:
    assert change_retold.retold(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "Let's make the party fun.",
        "Nadia quoted Keats at dinner.",
        "We might go up to the lake on Sunday.",
        "I have a new email, sam@post.io.",
        "The gardener came back at 5pm.",
        "We made the budget work somehow.",
        "Can we go up to 80 pounds for the gift?",
    ],
)
def test_look_alikes_are_not_retold(text: str) -> None:
    assert change_retold.retold(text) == text


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("We set the barbecue budget at 300 pounds.", [("user", "barbecue budget", "300 pounds")]),
        ("I agreed 60 euros for the class gift.", [("user", "class gift budget", "60 euros")]),
        ("We set the Easter food budget at 200 pounds.", [("Easter", "food budget", "200 pounds")]),
        ("We set the alarm at 7.", []),
        ("We agreed on the venue for the party.", []),
    ],
)
def test_first_budgets(text: str, found: list[tuple[str, str, str]]) -> None:
    assert change_retold.firsts(text) == found


def test_a_contact_noun_is_no_value() -> None:
    # "Rosa has a new email, ..." read as ``Rosa has_email new email``; a value stays.
    said = [
        ("has_email", "new email"),
        ("has_number", "new phone number"),
        ("owns", "new number"),
        ("uses_email", "rosa@ledgerly.com"),
        ("has_car", "new car"),
        ("owns", "new phone"),
    ]
    # As ``sound`` reads "Rosa has a new ...": a thing had said with an article is one
    # (task close37), a contact noun is not.
    found = [
        relation_ends.not_a_thing(
            "Rosa", r, t, had=relation_ends.had_thing(("Rosa", r, t, 1.0), f"Rosa has a {t}.")
        )
        for r, t in said
    ]
    assert found == [True, True, True, False, False, False], found

"""Change reading round eight (changes26): look-alikes that must stay open, and
first statements the rounds before left unread (docs/benchmarks.md, "2026-11-30,
change reading round eight").

First values said with a verb of their own are read: a subjectless decision in a note
(the team's, or the thing it is for), "Decided to pin X to V", "Decided on 4 shards for
the index", "NAME took over SLOT", "The dock opens at 06:30", "I get my X from NAME",
"Dr. NAME at the surgery is my GP", the speaker's own card; and their new values when
said in notes form.

Round six's fold P closed 2 of its 14 look-alikes: a count added for an occasion
("added 4 extra runners ..., removed after") replaced the slot's value, and a capital
common noun ("the tokens PR from Keanu") was taken for a new owner. The rule refuses
the kinds, written from plain English: a stand-in or cover, someone alongside, a count
added on top, a one-off, a value undone after; a work item written in capitals or the
old value's own thing is no new value.

Every sentence is written for these tests (none is a fold's or a tune set's). Each
test runs on both backends (``mem``), through ``mem.add``.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_firsts, change_words
from test_dogfood19_changes import _rows, _told

#: A first statement, the relation it records, and look-alikes that must close nothing.
_SHARDS = ("Test shards: 4.", ("user", "test_shards", "4"))
_SCRUM = ("Zofia is our scrum master.", ("user", "scrum_master", "Zofia"))
_SDK = ("Payments SDK owner: Radomir.", ("user", "uses_payments", "Radomir"))
_QUEUE = ("The ingest queue limit is 500.", ("user", "ingest_queue_limit", "500"))
LOOKALIKES = [
    # a count added on top for an occasion, undone after; a value said not to last
    (*_SHARDS, "Bolted on 2 additional test shards for the hackathon, removed afterwards."),
    (*_SHARDS, "Temporarily 7 test shards during the freeze."),
    # a stand-in until the holder is back
    (*_SCRUM, "Leopold is standing in as scrum master until Zofia is back from Lisbon."),
    (*_SCRUM, "Zofia is off this sprint, Leopold is covering for her."),
    # the old value's work, a work item written in capitals
    (*_SDK, "Elodie merged the retry RFC from Radomir."),
    (*_SDK, "Elodie tidied up Radomir's Grafana board."),
    # a value for the time being
    (*_QUEUE, "For the time being the ingest queue limit is 900 while the backfill runs."),
]


@pytest.mark.parametrize(("first", "held", "lookalike"), LOOKALIKES)
def test_a_lookalike_of_a_change_closes_nothing(
    mem: Memory, first: str, held: tuple[str, str, str], lookalike: str
) -> None:
    _told(mem, first)
    assert _rows(mem).get(held) is True, _rows(mem)  # the first value is read
    _told(mem, lookalike)
    rows = _rows(mem)
    assert rows.get(held) is True, rows
    assert all(rows.values()), rows


@pytest.mark.parametrize(
    ("text", "lasting"),
    [
        ("Marek is filling in on the rota for now.", False),
        ("Spun up 6 more replicas for the sale, scaled back later.", False),
        ("Joanna is shadowing the on-call this week.", False),
        ("Just this once we ran the export at noon.", False),
        ("Back to 4 workers tomorrow.", False),
        ("The rota moved to Marek from Monday.", True),
        ("Raised the replica count to 6 for the sale.", True),
        ("Hannah went on leave for good, Callum covers the clinic list.", True),
    ],
)
def test_what_is_said_not_to_last(text: str, lasting: bool) -> None:
    assert (change_words.NOT_LASTING.search(text) is None) is lasting


#: (the first statement, the value it records, the change, the value that replaces it):
#: a subjectless decision in a note, a person put in a slot by a verb of their own, the
#: speaker's card.
CHANGES = [
    (
        "Decided to use Huey for scheduled tasks.",
        ("scheduled tasks", "uses", "Huey"),
        "Replaced Huey with Arq for scheduled tasks.",
        ("scheduled tasks", "uses", "Arq"),
    ),
    (
        "Decided to pin httpx to 0.26.",
        ("httpx", "pin", "0.26"),
        "httpx pin raised to 0.27.",
        ("httpx", "pin", "0.27"),
    ),
    (
        "I pay for groceries with Discover.",
        ("user", "uses_payments", "Discover"),
        "Nowadays I pay with a Revolut card.",
        ("user", "uses_payments", "Revolut card"),
    ),
    (
        "The loading dock opens at 06:30.",
        ("loading dock", "opens_at", "06:30"),
        "Loading dock now opens at 07:15.",
        ("loading dock", "opens_at", "07:15"),
    ),
    (
        "I get my vitamins from Holland Barrett.",
        ("user", "vitamins", "Holland Barrett"),
        "Vitamins come from Superdrug now.",
        ("user", "vitamins", "Superdrug"),
    ),
    (
        "Dr. Whitfield at the village surgery is my GP.",
        ("user", "gp", "Dr. Whitfield"),
        "My GP is Dr. Ansari now, Whitfield retired.",
        ("user", "gp", "Dr Ansari"),
    ),
    (
        "Decided on 4 shards for the search index.",
        ("search index", "shards", "4"),
        "Search index shards raised to 8.",
        ("search index", "shards", "8"),
    ),
    (
        "Ottilie became release manager in May.",
        ("user", "release_manager", "Ottilie"),
        "Release manager is Casimir since Ottilie moved teams.",
        ("user", "release_manager", "Casimir"),
    ),
    (
        "We signed up with Trello for the roadmap.",
        ("roadmap", "uses_tracker", "Trello"),
        "The roadmap is managed in Productboard now.",
        ("roadmap", "uses_tracker", "Productboard"),
    ),
    (
        "Our mail relay is Postfix.",
        ("user", "mail_relay", "Postfix"),
        "Mail relay switched again, it's on Haraka now.",
        ("user", "mail_relay", "Haraka"),
    ),
]


@pytest.mark.parametrize(("first", "old", "change", "new"), CHANGES)
def test_a_first_value_said_with_its_own_verb_is_closed_by_the_change(
    mem: Memory,
    first: str,
    old: tuple[str, str, str],
    change: str,
    new: tuple[str, str, str],
) -> None:
    _told(mem, first, change)
    rows = _rows(mem)
    assert rows.get(old) is False, rows  # closed
    assert rows.get(new) is True, rows  # holds
    assert [k for k, current in rows.items() if not current] == [old]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Chose Litestar for the public API.", [("public API", "uses", "Litestar")]),
        ("Went with Pulumi.", [("The team", "uses", "Pulumi")]),
        ("Pinned numpy to 1.26.", [("numpy", "pin", "1.26")]),
        ("Aurelio took over on-call.", [("user", "on_call", "Aurelio")]),
        (
            "Aurelio took over the release notes this sprint.",
            [("user", "release_notes", "Aurelio")],
        ),
        ("Decided on 6 partitions for the events topic.", [("events topic", "partitions", "6")]),
        ("The night shift starts at 22:00.", [("night shift", "starts_at", "22:00")]),
        ("I get my coffee beans from Origin.", [("user", "coffee_beans", "Origin")]),
        ("Dr. Mensah at the sports clinic is my physio.", [("user", "physio", "Dr. Mensah")]),
        ("Zainab joined as our support lead.", [("user", "support_lead", "Zainab")]),
        ("Tom became a father.", []),
        ("We decided to use Litestar?", []),
        ("Maybe went with Pulumi.", []),
    ],
)
def test_what_a_decision_or_a_take_over_records_first(
    text: str, found: list[tuple[str, str, str]]
) -> None:
    assert [f[:3] for f in change_firsts.firsts(text)] == found

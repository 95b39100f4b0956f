"""Change reading round nine (changes27): changes said the plain ways people say them,
and first statements the rounds before left unread (docs/benchmarks.md, "2026-11-30,
change reading round nine").

First values said by a verb of their own are read: a thing done with a tool ("is
orchestrated with X", ", which is scheduled with X"), a firm that looks after a thing of
ours ("X handle our books"), an agreed home in a note ("Agreed to host the wiki on X"),
a partner ("X and I have been a couple"), builds "signed by" a service, a slot's plain
value with "now" ("X is on call now"). And the changes: "sold A and bought B",
"migrated off A to B" (whose subject is not "off A"), "A is gone, we use B", a
hand-over said of the thing ("the retro was handed over to X").

Every sentence is written for these tests (none is a fold's or a tune set's). Each
test through ``mem.add`` runs on both backends (``mem``).
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_ended, change_plain
from test_dogfood19_changes import _rows, _told

#: (the first statement, the change, the owner and slot, the old value, the new one).
CHANGES = [
    ("The invoice sync is orchestrated with Prefect.",
     "We migrated the invoice sync from Prefect to Kestra.", "invoice sync/uses", "Prefect",
     "Kestra"),
    ("I drive a silver Skoda Fabia.", "I sold the Fabia and bought a Hyundai Ioniq.",
     "user/drives", "silver Skoda Fabia", "Hyundai Ioniq"),
    ("Sign-in is provided by Cognito.", "Sign-in migrated off Cognito to Keycloak.",
     "Sign-in/provided_by", "Cognito", "Keycloak"),
    ("Yannick is on call.", "Beatrix is on call now.", "user/on_call", "Yannick", "Beatrix"),
    ("Agreed to host the design docs on Coda.", "The design docs moved from Coda to Slite.",
     "design docs/uses", "Coda", "Slite"),
    ("The android builds are signed by Appcircle.",
     "Appcircle is gone, android builds run on Codemagic.", "android builds/signed_by",
     "Appcircle", "Codemagic"),
    ("Ines owns the quarterly planning.", "The quarterly planning was handed over to Bruno.",
     "quarterly planning/owned_by", "Ines", "Bruno"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "change", "slot", "old", "new"), CHANGES)
def test_a_plain_change_closes_the_held_value(
    mem: Memory, first: str, change: str, slot: str, old: str, new: str
) -> None:
    closes_and_replaces(mem, first, change, slot, old, new)


def closes_and_replaces(
    mem: Memory, first: str, change: str, slot: str, old: str, new: str
) -> None:
    """The first value is read, then closed by the change, the new one holding."""
    owner, relation = slot.split("/")
    _told(mem, first)
    assert _rows(mem).get((owner, relation, old)) is True, _rows(mem)  # the first value is read
    _told(mem, change)
    rows = _rows(mem)
    # the old value closed, the new one holds, and nothing else closed
    changed = {k: v for k, v in rows.items() if k[2] in (old, new) or not v}
    assert changed == {(owner, relation, old): False, (owner, relation, new): True}, rows


#: First statements and what they record.
FIRSTS = [
    ("Marguerite and I have been a couple since 2018.", ("user", "dates", "Marguerite")),
    ("Lindqvist & Sons handle our payroll.", ("payroll", "owned_by", "Lindqvist & Sons")),
    (
        "I look after the ingest job, which is scheduled with Dkron.",
        ("ingest job", "uses", "Dkron"),
    ),
]


@pytest.mark.parametrize(("first", "held"), FIRSTS)
def test_a_first_statement_records_its_value(
    mem: Memory, first: str, held: tuple[str, str, str]
) -> None:
    records(mem, first, held)


def records(mem: Memory, first: str, held: tuple[str, str, str]) -> None:
    """The first statement records ``held``."""
    _told(mem, first)
    assert _rows(mem).get(held) is True, _rows(mem)


#: Look-alikes: the first value is read, and nothing closes.
LOOKALIKES = [
    ("I drive a silver Skoda Fabia.", "My neighbour sold his Fabia and bought a Kia."),
    ("I drive a silver Skoda Fabia.", "Thinking about selling the Fabia and buying a Kia."),
    ("Yannick is on call.", "Is Beatrix on call now?"),
    (
        "The invoice sync is orchestrated with Prefect.",
        "Should we move the invoice sync to Kestra?",
    ),
    ("Agreed to host the design docs on Coda.", "Coda vs Slite: Slite has better search."),
]


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, first: str, lookalike: str) -> None:
    keeps(mem, first, lookalike)


def keeps(mem: Memory, first: str, lookalike: str) -> None:
    """The first value is read, and the look-alike closes nothing."""
    _told(mem, first)
    assert any(_rows(mem).values()), _rows(mem)
    _told(mem, lookalike)
    rows = _rows(mem)
    assert all(rows.values()), rows


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "The nightly export is orchestrated with Dagster",
            [("nightly export", "uses", "Dagster")],
        ),
        ("Brightwave looks after our IT", [("IT", "looked_after_by", "Brightwave")]),
        ("Decided to keep the runbooks in Notion", [("runbooks", "uses", "Notion")]),
        ("Tove and I are engaged", [("user", "partner", "Tove")]),
        ("It is hosted on Render", []),
        ("The marathon is run on Sundays", []),
    ],
)
def test_plain_firsts(text: str, found: list[tuple[str, str, str]]) -> None:
    assert change_plain.firsts(text) == found


@pytest.mark.parametrize(
    ("clause", "said"),
    [
        ("Pagerduty's gone, we use Rootly now", ("Pagerduty", "we use Rootly now")),
        ("Heroku is gone", ("Heroku", None)),
        ("The new album is out", None),
        ("Jest is out, the suite runs under Vitest", ("Jest", "the suite runs under Vitest")),
    ],
)
def test_a_thing_said_to_be_gone(clause: str, said: tuple[str, str | None] | None) -> None:
    assert change_ended.gone(clause) == said


def test_sold_and_bought_reads_only_the_speakers() -> None:
    assert change_plain.SOLD.match("I sold the Fabia and bought a Hyundai Ioniq") is not None
    assert change_plain.SOLD.match("Sold the Fabia, picked up a Kia Niro") is not None
    assert change_plain.SOLD.match("My neighbour sold his Fabia and bought a Kia") is None

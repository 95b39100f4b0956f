"""Change reading round seven (changes25): a support bot's notes about a customer, and
the team's facts (docs/benchmarks.md, "2026-11-30, change reading round seven").

- a customer's account slot given a new value in a new note closes the old one: an
  address of a kind ("new shipping address is ...", "updated the billing address to
  ..."), a plan, subscription, membership or tier ("switched from X to the Y plan",
  "upgraded to the Y membership"), a payment method, a number of seats;
- look-alikes close nothing: a second address kept, a trial, a quote not taken, a plan
  asked about, a relative's move, a maybe;
- "we" in an agent's note is the team, not the user ("We use Sentry" ->
  ``The team uses_errors Sentry``); a contracted pronoun, a config file or a plan as a
  home are no ends.

Every sentence is written for these tests (none is a fold's, the tune set's or
dogfood round fifteen's). Each test runs on both backends (``mem``), through
``mem.add`` and through a mined chat.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.pipeline import change_accounts, relation_ends
from test_changes23_chat import mine_as_the_proxy
from test_changes23_chat import (
    test_a_change_told_in_a_chat_closes_the_old_value as _closes_the_old_value,
)
from test_changes23_chat import test_a_lookalike_closes_nothing as _closes_nothing
from test_dogfood19_changes import _rows, _told

CHANGES = [
    (
        (
            "Customer's shipping address is 41 Larch Close, Norwich NR2 3QP.",
            "Customer moved; new shipping address is 6 Ferry Lane, Ipswich IP1 1BX.",
        ),
        ("Customer", "shipping_address", "41 Larch Close"),
        ("Customer", "shipping_address", "6 Ferry Lane"),
    ),
    (
        (
            "Customer's billing address is 9 Via Roma, 20121 Milan.",
            "Customer updated the billing address to 30 Queen Street, Cardiff CF10 2GP.",
        ),
        ("Customer", "billing_address", "9 Via Roma"),
        ("Customer", "billing_address", "30 Queen Street"),
    ),
    (
        (
            "Customer subscribes to the Lite coffee plan: two bags a month.",
            "Customer switched from Lite to the Barista plan, four bags a month.",
        ),
        ("Customer", "has_plan", "Lite coffee plan"),
        ("Customer", "has_plan", "Barista plan"),
    ),
    (
        (
            "Customer was on the free Hiker membership.",
            "Customer upgraded to the Summit membership, paid yearly.",
        ),
        ("Customer", "has_membership", "Hiker membership"),
        ("Customer", "has_membership", "Summit membership"),
    ),
    (
        (
            "Customer pays by Maestro card ending 5521.",
            "Customer switched payment to an Amex card ending 7002.",
        ),
        ("Customer", "uses_payments", "Maestro card ending"),
        ("Customer", "uses_payments", "Amex card ending"),
    ),
    (
        (
            "Customer has 8 seats on the Studio plan.",
            "Customer reduced seats from 8 to 3 after the layoffs.",
        ),
        ("Customer", "has_seat", "8 seats"),
        ("Customer", "has_seat", "3 seats"),
    ),
    (
        (
            "Customer is on the Quarterly subscription.",
            "Customer moved to the Monthly subscription for flexibility.",
        ),
        ("Customer", "uses", "Quarterly subscription"),
        ("Customer", "uses", "Monthly subscription"),
    ),
    (
        ("Customer's loyalty tier is Bronze.", "Loyalty tier upgraded to Silver."),
        ("Customer", "loyalty_tier", "Bronze"),
        ("Customer", "loyalty_tier", "Silver"),
    ),
]

LOOKALIKES = [
    (
        "Customer's shipping address is 41 Larch Close, Norwich NR2 3QP.",
        "Customer also keeps a second shipping address at 2 Mill Yard, Norwich NR3 1AA.",
    ),
    (
        "Customer is on the Quarterly subscription.",
        "Customer started a free trial of the Monthly subscription.",
    ),
    (
        "Customer subscribes to the Lite coffee plan: two bags a month.",
        "Customer asked how much the Barista plan costs.",
    ),
    (
        "Customer has 8 seats on the Studio plan.",
        "Customer was quoted for 20 seats on the Agency plan but did not go ahead.",
    ),
    (
        "Customer's billing address is 9 Via Roma, 20121 Milan.",
        "Customer's son moved to 5 Harbour View, Genoa.",
    ),
    (
        "Customer was on the free Hiker membership.",
        "Customer might upgrade to the Summit membership in spring.",
    ),
]

#: What an account note records as its first value, and what it must not.
FIRSTS = [
    (
        "Customer subscribes to the Lite coffee plan.",
        [("Customer", "plan", "Lite coffee plan", change_accounts.CONFIDENCE)],
    ),
    (
        "Billing address is 9 Via Roma, 20121 Milan.",
        [("user", "billing_address", "9 Via Roma", change_accounts.CONFIDENCE)],
    ),
    (
        "Customer has 8 seats on the Studio plan.",
        [("Customer", "seats", "8", change_accounts.CONFIDENCE)],
    ),
    ("Customer asked about the Barista plan.", []),
    ("Customer started a trial of the Barista plan.", []),
]


@pytest.mark.parametrize(("told", "old", "new"), CHANGES)
def test_a_customers_new_plan_or_address_closes_the_old(
    mem: Memory, told: tuple[str, str], old: tuple[str, str, str], new: tuple[str, str, str]
) -> None:
    # Round five's check, as it is: the old value closed, the new one holding, nothing
    # else closed.
    _closes_the_old_value(mem, told, old, new)


@pytest.mark.parametrize("told", LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, told: tuple[str, str]) -> None:
    _closes_nothing(mem, told)


@pytest.mark.parametrize(("text", "found"), FIRSTS)
def test_what_an_account_note_records_first(
    text: str, found: list[tuple[str, str, str, float]]
) -> None:
    assert change_accounts.firsts(text) == found


def test_the_teams_tools_are_the_teams(mem: Memory) -> None:
    _told(mem, "We use Rollbar for error alerts.", "We switched to Render.com last sprint.")
    rows = _rows(mem)
    assert ("The team", "uses_errors", "Rollbar") in rows, rows
    assert ("The team", "uses", "Render.com") in rows, rows
    assert not any(source == "user" for source, _, _ in rows), rows


def test_a_speakers_own_we_stays_the_speakers(mem: Memory) -> None:
    # No note: "we" is the speaker and those they live with.
    _told(mem, "We moved to Utrecht last year.")
    assert ("user", "lives_in", "Utrecht") in _rows(mem)


@pytest.mark.parametrize(
    ("text", "junk"),
    [
        ("I'd rather use Buildah for images.", "I'd rather"),
        ("Rate limits live in config", "config"),
    ],
)
def test_an_end_that_is_no_thing_is_not_recorded(mem: Memory, text: str, junk: str) -> None:
    _told(mem, text)
    ends = {e for source, _, target in _rows(mem) for e in (source, target)}
    assert junk not in ends, ends


@pytest.mark.parametrize(
    ("source", "relation", "target"),
    [
        ("I'd rather", "uses", "Podman"),
        ("feature flags", "lives_in", "config"),
        ("Customer", "lives_in", "Annual subscription"),
        ("Migration dry", "uses", "prod snapshot went fine"),
    ],
)
def test_not_a_thing(source: str, relation: str, target: str) -> None:
    assert relation_ends.not_a_thing(source, relation, target)


def test_a_support_chat_mined_closes_the_plan_and_the_address(mem: Memory) -> None:
    # A support bot's notes filed as one conversation, mined as the chat proxy files it
    # (the whole history on every exchange), then the jobs.
    start = datetime(2026, 5, 4, 9, tzinfo=UTC)
    turns = [
        "Customer's delivery address is 17 Rowan Court, Derby DE1 2FH.",
        "Customer is on the Basic router plan.",
        "Customer upgraded from Basic to the Ultra router plan on 2 May.",
        "Customer relocated; new delivery address is 3 Canal Wharf, Nottingham NG1 7EH.",
    ]
    mine_as_the_proxy(mem, turns, start, wing="support", session="s1", reply="Noted.")
    rows = _rows(mem)
    assert rows.get(("Customer", "delivery_address", "17 Rowan Court")) is False, rows
    assert rows.get(("Customer", "delivery_address", "3 Canal Wharf")) is True, rows
    closed_plans = [k for k, v in rows.items() if not v and "Basic" in k[2]]
    held_plans = [k for k, v in rows.items() if v and "Ultra" in k[2]]
    assert closed_plans and held_plans, rows

"""Change reading round six (changes24): a first statement that names one slot value
is recorded, and its new value said in notes form closes it (docs/benchmarks.md,
"2026-11-30, change reading round six").

- first statements no reader recorded: a config value ("The upload timeout is 40s."),
  a person in a role ("Wiebke is the release captain.", "Oluwaseun is on call this
  week."), a note line ("Retry budget for the mailer: 6."), a version run ("The build
  farm runs Debian 11.");
- the change said as notes and changelogs say it: "X → Y", "X -> Y", "from X to Y",
  "raised to", "bumped ... to", "now", "(was X)", "X replaced by Y";
- look-alikes close nothing: another owner's value, a second slot, a proposal, a
  question, a one-off, a value of someone the speaker knows.

Every sentence is written for these tests (none is a fold's). Each test runs on both
backends (``mem``), through ``mem.add`` and through a mined chat.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.pipeline import change_firsts
from test_changes23_chat import mine_as_the_proxy
from test_changes23_chat import (
    test_a_change_told_in_a_chat_closes_the_old_value as _closes_the_old_value,
)
from test_changes23_chat import test_a_lookalike_closes_nothing as _closes_nothing
from test_dogfood19_changes import _rows, _told

CHANGES = [
    (
        ("The upload timeout is 40s.", "Upload timeout raised to 120s after the CDN move."),
        ("user", "upload_timeout", "40s"),
        ("user", "upload_timeout", "120s"),
    ),
    (
        ("Oluwaseun is on call this week.", "on-call: Oluwaseun → Berit"),
        ("user", "on_call", "Oluwaseun"),
        ("user", "on_call", "Berit"),
    ),
    (
        ("Wiebke is the release captain.", "Release captain: Wiebke -> Anselm from the 3rd."),
        ("user", "release_captain", "Wiebke"),
        ("user", "release_captain", "Anselm"),
    ),
    (
        ("Retry budget for the mailer: 6.", "mailer retry budget bumped 6→9"),
        ("mailer", "retry_budget", "6"),
        ("mailer", "retry_budget", "9"),
    ),
    (
        ("The build farm runs Debian 11.", "build farm upgraded from 11 to 12 over the weekend"),
        ("build farm", "runs", "Debian 11"),
        ("build farm", "runs", "Debian 12"),
    ),
    (
        ("The thumbnail queue depth limit is 400.", "thumbnail queue depth limit now 1500"),
        ("user", "thumbnail_queue_depth_limit", "400"),
        ("user", "thumbnail_queue_depth_limit", "1500"),
    ),
    (
        (
            "Fallback region for the API: Frankfurt.",
            "Fallback region now Stockholm (was Frankfurt).",
        ),
        ("API", "fallback_region", "Frankfurt"),
        ("API", "fallback_region", "Stockholm"),
    ),
    (
        (
            "The escalation contact for billing is Margit.",
            "Billing escalation: Margit replaced by Osvaldo.",
        ),
        ("billing", "escalation_contact", "Margit"),
        ("billing", "escalation_contact", "Osvaldo"),
    ),
]

LOOKALIKES = [
    ("The upload timeout is 40s.", "The download timeout is 90s."),
    ("Oluwaseun is on call this week.", "Berit is on call next week."),
    ("Retry budget for the mailer: 6.", "Retry budget for the notifier: 9."),
    ("The upload timeout is 40s.", "Should we raise the upload timeout to 120s?"),
    ("The upload timeout is 40s.", "Proposal: upload timeout raised to 120s (not approved)."),
    (
        "The thumbnail queue depth limit is 400.",
        "Raised the thumbnail queue depth limit to 900 for a test, reverted.",
    ),
    ("My rent is 900 euros a month.", "My sister's rent went up to 1200 euros."),
    ("Wiebke is the release captain.", "Anselm shadowed Wiebke on the release this time."),
]

#: What a first statement records, and what it must not.
FIRSTS = [
    ("The upload timeout is 40s.", [("user", "upload_timeout", "40s", change_firsts.CONFIDENCE)]),
    (
        "Oluwaseun is on call this week.",
        [("user", "on_call", "Oluwaseun", change_firsts.CONFIDENCE)],
    ),
    (
        "Max workers on the renderer is 12.",
        [("renderer", "max_workers", "12", change_firsts.CONFIDENCE)],
    ),
    ("Caroline: Hey Mel", []),  # a speaker's label is no slot
    ("The weather is nice today.", []),  # no value of a slot's shape
    ("Should the upload timeout be 40s?", []),
    ("We might move the upload timeout to 60s.", []),
]


@pytest.mark.parametrize(("told", "old", "new"), CHANGES)
def test_a_value_said_in_notes_form_closes_the_first(
    mem: Memory, told: tuple[str, str], old: tuple[str, str, str], new: tuple[str, str, str]
) -> None:
    # Round five's check, as it is: the old value closed, the new one holding, nothing
    # else closed.
    _closes_the_old_value(mem, told, old, new)


@pytest.mark.parametrize("told", LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, told: tuple[str, str]) -> None:
    _closes_nothing(mem, told)


@pytest.mark.parametrize(("text", "found"), FIRSTS)
def test_what_a_first_statement_records(
    text: str, found: list[tuple[str, str, str, float]]
) -> None:
    assert change_firsts.firsts(text) == found


def test_a_junk_reading_of_the_value_gives_way_to_the_slot(mem: Memory) -> None:
    # "X is on call" was read as ``X uses call``: the slot holds X instead.
    _told(mem, "Oluwaseun is on call this week.")
    rows = _rows(mem)
    assert rows == {("user", "on_call", "Oluwaseun"): True}, rows


def test_a_mined_chat_closes_a_config_value_and_a_rota(mem: Memory) -> None:
    # The chat proxy's shape: each user turn answered, the whole history mined on every
    # exchange, then the jobs (the ``extract`` job reads each memory again).
    start = datetime(2026, 4, 6, 9, tzinfo=UTC)
    turns = [
        "The upload timeout is 40s.",
        "Oluwaseun is on call this week.",
        "ok thanks",
        "fyi upload timeout raised to 120s, the big files kept failing",
        "on-call: Oluwaseun → Berit",
    ]
    mine_as_the_proxy(mem, turns, start, wing="ops")
    rows = _rows(mem)
    assert rows.get(("user", "upload_timeout", "40s")) is False, rows
    assert rows.get(("user", "upload_timeout", "120s")) is True, rows
    assert rows.get(("user", "on_call", "Oluwaseun")) is False, rows
    assert rows.get(("user", "on_call", "Berit")) is True, rows

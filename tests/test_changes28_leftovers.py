"""Change reading round ten (changes28): round nine's leftovers (docs/benchmarks.md,
"2026-12-01, change reading round ten").

A hand-over names the held slot it passes on ("On-call handed to X" after "Y is on
call"); a named person who left, retired or moved abroad ends the role they held, and
the successor the rest names holds it; "stopped seeing Dr. X" ends X; "took over as ROLE
from X", "belongs to"; first values of a tool said with more verbs and in the active
voice; another person's slot behind an adjective ("my best friend's husband"); and "my
X is ..." said of a state, an age or a job records nothing (the chat proxy's junk).

Every sentence is written for these tests (none is a fold's or a tune set's). Each
test through ``mem.add`` runs on both backends (``mem``).
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_ended, change_plain, change_signals
from test_changes27_plain import closes_and_replaces, keeps, records
from test_dogfood19_changes import _rows, _told

#: (the first statement, the change, the owner and slot, the old value, the new one).
CHANGES = [
    ("Wilhelmina is on call this week.", "On-call handed to Desmond.", "user/on_call",
     "Wilhelmina", "Desmond"),
    ("Katarzyna is on call for the search service.", "Search on-call was handed to Emeka.",
     "search service/on_call", "Katarzyna", "Emeka"),
    ("The hiring budget owner is Leopold.", "Leopold handed the hiring budget to Noor.",
     "user/hiring_budget_owner", "Leopold", "Noor"),
    ("My yoga teacher is Fenella.", "Fenella moved abroad, so Ottoline teaches me now.",
     "user/yoga_teacher", "Fenella", "Ottoline"),
    ("My line manager is Augustin.", "Augustin left the company, my new manager is Philippa.",
     "user/line_manager", "Augustin", "Philippa"),
    ("My therapist is Dr. Quist.", "Stopped seeing Dr. Quist; my new therapist is Dr. Amadi.",
     "user/therapist", "Dr Quist", "Dr Amadi"),
    ("The deploy captain is Bartholomew.",
     "Seraphina took over as deploy captain from Bartholomew.", "user/deploy_captain",
     "Bartholomew", "Seraphina"),
    ("The payments dashboard belongs to Imogen.",
     "The payments dashboard belongs to Rashid now.", "payments dashboard/owned_by", "Imogen",
     "Rashid"),
    ("Customer invoices get sent out through Chargebee every month.",
     "We switched invoicing from Chargebee to Paddle.", "Customer invoices/uses_payments",
     "Chargebee", "Paddle"),
]  # fmt: skip


#: The first value is read, then closed by the change, the new one holding.
test_a_change_closes_the_held_value = pytest.mark.parametrize(
    ("first", "change", "slot", "old", "new"), CHANGES
)(closes_and_replaces)


#: First statements and what they record.
FIRSTS = [
    ("Alerts go through PagerDuty.", ("Alerts", "uses", "PagerDuty")),
    ("Every merge request gets built and tested on Drone.", ("merge request", "uses_ci", "Drone")),
    ("We send our newsletters with Buttondown.", ("newsletters", "uses", "Buttondown")),
    ("The team keeps its roadmap on a Trello board.", ("roadmap", "uses_tracker", "Trello")),
]


@pytest.mark.parametrize(("first", "held"), FIRSTS)
def test_a_first_statement_records_its_value(
    mem: Memory, first: str, held: tuple[str, str, str]
) -> None:
    records(mem, first, held)


#: Look-alikes: the first value is read, and nothing closes.
LOOKALIKES = [
    ("My husband is Barnaby.", "My best friend's husband is Caspian."),
    ("My wife is Rosalind.", "My oldest friend's wife is Henrietta."),
    ("My swimming coach is Ignatius.", "Ignatius left early today, so Perpetua ran the session."),
    ("Cordelia is on call this week.", "Cordelia handed the pager to Mungo for an hour."),
    ("My line manager is Augustin.", "Augustin left the meeting, so Philippa chaired it."),
]


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, first: str, lookalike: str) -> None:
    keeps(mem, first, lookalike)


#: One-message turns that state no value of the attribute they name.
STATES = [
    "My rent is due on the 1st of every month.",
    "My brother is getting married in June.",
    "My twins are 7 and 9.",
    "Also, my son is lactose intolerant.",
]


@pytest.mark.parametrize("text", STATES)
def test_a_state_records_no_relation(mem: Memory, text: str) -> None:
    assert change_signals.read(text) == []
    _told(mem, text)
    assert _rows(mem) == {}


#: Tool firsts: (a sentence, what it records first).
TOOL_FIRSTS: list[tuple[str, list[tuple[str, str, str]]]] = [
    ("Payroll gets paid out through Gusto every month", [("Payroll", "uses", "Gusto")]),
    ("Incident paging goes through Opsgenie", [("Incident paging", "uses", "Opsgenie")]),
    ("Logs ship to Loggly", [("Logs", "uses", "Loggly")]),
    ("We store our docs in Notion", [("docs", "uses", "Notion")]),
    ("I keep my bike in Paris", []),
    ("I do my homework with Sam", []),
    ("We do our shopping on Saturdays", []),
    ("The kids are taken to Disneyland", []),
]


def test_tool_firsts() -> None:
    for text, found in TOOL_FIRSTS:
        assert change_plain.firsts(text) == found, text


#: Departures and ended contracts: (a clause, what is gone and the rest, or None).
GONE: list[tuple[str, tuple[str, str | None] | None]] = [
    ("Kwabena retired", ("Kwabena", None)),
    ("Dr. Lund has left the practice", ("Dr Lund", None)),
    ("Kwabena left early today", None),
    ("I left the company", None),
    ("The Fastly contract ended", ("Fastly", None)),
]


def test_a_person_or_a_contract_said_to_be_gone() -> None:
    for clause, said in GONE:
        assert change_ended.gone(clause) == said, clause


def test_a_successor_is_the_one_name_said_to_hold_now() -> None:
    assert change_ended.successor("Kwame", ["Lucia trains me now"]) == "Lucia"
    assert change_ended.successor("Kwame", ["Lucia ran the session"]) is None
    assert change_ended.successor("Kwame", ["Lucia and Ben share it now"]) is None

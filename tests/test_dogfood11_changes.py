"""Facts that change, told as a user tells them (new-user pass, round eleven): a leave
and a new start joined by "and" ("I left Siemens and started a new job at Spotify")
were read whole, with "left Siemens" as the subject, so the graph kept the old job open
beside a relation of a "left Siemens" entity; "I sold my Golf and now drive a Tesla"
stated nothing. The verb after "and" now shares the subject, as "I live in Denver and
work at Stripe" did. "My new manager is Tom" stated a "new manager" beside the manager
it replaced; it now changes the manager, as "new manager: Tom" did."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_signals

CASES = [
    ("I work at Siemens as a data engineer.", "I left Siemens and started a new job at Spotify.",
     ("user", "works_at", "Siemens"), ("user", "works_at", "Spotify")),
    ("I drive a Golf.", "I sold my Golf and now drive a Tesla Model 3.",
     ("user", "drives", "Golf"), ("user", "drives", "Tesla Model 3")),
    # "my new X is Y" read as a "new manager" beside the manager it replaced
    ("My manager is Priya.", "My new manager is Tom since Priya left the team.",
     ("user", "reports_to", "Priya"), ("user", "reports_to", "Tom")),
    # "about 200 pounds" stated nothing: "about" ended the phrase before the amount
    ("My garden budget is about 200 pounds.", "My garden budget is now 300 pounds.",
     ("user", "garden_budget", "200 pounds"), ("user", "garden_budget", "300 pounds")),
]  # fmt: skip


@pytest.mark.parametrize(("before", "after", "old", "new"), CASES)
def test_the_old_fact_is_closed_and_the_new_one_holds(
    mem: Memory, before: str, after: str, old: tuple[str, ...], new: tuple[str, ...]
) -> None:
    mem.add(before, user_id="dana")
    mem.jobs.process_pending()
    mem.add(after, user_id="dana")
    mem.jobs.process_pending()
    rows = {
        (r.source, r.relation_type, r.target): r.valid_to is None
        for r in mem.graph.relations(current_only=False, user_id="dana")
    }
    assert rows == {old: False, new: True}


@pytest.mark.parametrize(
    ("text", "source", "target"),
    [
        ("Sam left Initech and joined Globex.", "Sam", "Globex"),
        ("I quit Acme and took a job at Globex.", "user", "Globex"),
    ],
)
def test_a_change_verb_after_and_shares_the_subject(text: str, source: str, target: str) -> None:
    (claim,) = change_signals.read(text)
    assert (claim.source, claim.relation, claim.target) == (source, "joined", target)


def test_a_verb_that_moves_a_thing_keeps_its_subject_from_the_first_part() -> None:
    # "and switched it to ..." is _AND_MOVED's, which finds "the reporting app"
    (claim,) = change_signals.read("We rewrote the reporting app and switched it to FastAPI")
    assert (claim.source, claim.target) == ("reporting app", "FastAPI")


def test_my_new_attribute_is_a_change_of_that_attribute() -> None:
    (claim,) = change_signals.read("My new address is 5 Rua Augusta.")
    assert (claim.relation, claim.target, claim.signal) == ("address", "5 Rua Augusta", "change")
    assert change_signals.read("My new york office is big.") == []


def test_a_hedge_on_an_amount_is_part_of_the_value_not_its_end() -> None:
    (claim,) = change_signals.read("My rent is around $1200 a month.")
    assert (claim.relation, claim.target) == ("rent", "$1200")
    assert change_signals.read("My budget is about the same.") == []

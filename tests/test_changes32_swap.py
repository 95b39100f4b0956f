"""Change reading round fourteen (changes32): a change that names its old and new value
in one frame closes the held fact (docs/benchmarks.md, "changes32").

``change_swap`` reads the pair from the sentence ("swapped X for Y", "replaced X with
Y", "moved from X to Y", "Y instead of X"); ``change_pairs`` finds the fact the old value
was: a held relation with it, or the earlier memory that said it after a frame. Every
sentence is written for these tests (none is a fold's or a tune set's). Each test through
``mem.add`` runs on both backends (``mem``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from test_changes31_again import NAMESPACE, _relations

START = datetime(2025, 3, 3, 9, tzinfo=UTC)

#: (the first statement, the change, subject, relation, the old value, the new one).
CHANGES = [
    # no fact read of the first statement: the frame of the memory that said it
    ("The gerbils sleep on aspen shavings.",
     "Replaced the aspen shavings with hemp bedding, the gerbils sneeze less.",
     "gerbils", "sleep_on", "aspen shavings", "hemp bedding"),
    ("The rota spreadsheet lives on the Q drive.",
     "The rota spreadsheet moved from the Q drive to SharePoint.",
     "rota spreadsheet", "lives_on", "Q drive", "SharePoint"),
    ("The pottery class meets at Kiln Lane Studio.",
     "The pottery class meets at Clayworks instead of Kiln Lane Studio.",
     "pottery class", "meets_at", "Kiln Lane Studio", "Clayworks"),
]  # fmt: skip


def _closed(mem: Memory) -> list[tuple[str, str, str]]:
    return [k for k, r in _relations(mem).items() if r.valid_to is not None]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("first", "change", "source", "relation", "old", "new"), CHANGES)
def test_a_swap_closes_the_fact_said_before(
    mem: Memory, first: str, change: str, source: str, relation: str, old: str, new: str
) -> None:
    mem.add(first, namespace=NAMESPACE, created_at=START)
    mem.add(change, namespace=NAMESPACE, created_at=START + timedelta(days=30))
    rows = _relations(mem)
    held, now = rows[(source, relation, old)], rows[(source, relation, new)]
    # held from the first memory until the change; the new value holds alone
    assert held.valid_from == START  # type: ignore[attr-defined]
    assert held.valid_to == START + timedelta(days=30)  # type: ignore[attr-defined]
    assert now.valid_to is None  # type: ignore[attr-defined]
    assert _closed(mem) == [(source, relation, old)]


@pytest.mark.parametrize(
    ("first", "change", "old", "new"),
    [
        ("Our solicitor is Pemberton Hale.",
         "We instructed Marlow & Finch instead of Pemberton for the lease.",
         "Pemberton Hale", "Marlow & Finch"),
        ("Our piano tuner is Mr. Albarn.", "Bexley Pianos replaced Mr. Albarn for the tuning.",
         "Mr Albarn", "Bexley Pianos"),
    ],
)  # fmt: skip
def test_a_swap_closes_the_held_relation_of_its_old_value(
    mem: Memory, first: str, change: str, old: str, new: str
) -> None:
    mem.add(first, namespace=NAMESPACE, created_at=START)
    held = [k for k in _relations(mem) if k[2] == old]
    assert len(held) == 1  # the first statement reads the fact
    mem.add(change, namespace=NAMESPACE, created_at=START + timedelta(days=30))
    assert _closed(mem) == held
    source, relation, _ = held[0]
    assert _relations(mem)[(source, relation, new)].valid_to is None  # type: ignore[attr-defined]


#: Look-alikes: nothing closes.
LOOKALIKES = [
    "We considered swapping Bergamot Roasters for Kaldi Brothers but the price was too high.",
    "Replace Bergamot Roasters with Kaldi Brothers next year maybe.",
    "Should we swap Bergamot Roasters for Kaldi Brothers?",
    "My sister swapped Bergamot Roasters for Kaldi Brothers at her cafe.",
    "We also moved the tea order from Bergamot Roasters to Kaldi Brothers.",
    "Swapped Bergamot Roasters for Kaldi Brothers for a week to test them, then went back.",
]


@pytest.mark.parametrize("lookalike", LOOKALIKES)
def test_a_lookalike_swap_closes_nothing(mem: Memory, lookalike: str) -> None:
    first = "We buy our coffee beans from Bergamot Roasters."
    mem.add(first, namespace=NAMESPACE, created_at=START)
    mem.add(lookalike, namespace=NAMESPACE, created_at=START + timedelta(days=30))
    assert _closed(mem) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("We swapped the old Kindle for a Kobo Libra.", ("Kindle", "Kobo Libra")),
        ("Replaced our Canon printer with an HP LaserJet yesterday.",
         ("Canon printer", "HP LaserJet")),
        ("The bakery gets its rye from Shipton Mill instead of Wessex Mill.",
         ("Wessex Mill", "Shipton Mill")),
        ("Nimbus replaced Stratus for the status page.", ("Stratus", "Nimbus")),
        ("Logs migrated out of Papertrail into Grafana Loki.", ("Papertrail", "Grafana Loki")),
        ("The choir moved rehearsals from St. Mary's to the Guildhall.",
         ("St Mary's", "Guildhall")),
        ("Traded in the Corolla and got a Polestar 2.", ("Corolla", "Polestar 2")),
        ("Noor took over the allotment rota from Bram in March.", ("Bram", "Noor")),
        ("The clinic gave me a Libre sensor to replace the finger pricks",
         ("finger pricks", "Libre")),
        ("We quit Netflix, we're on Disney Plus now.", ("Netflix", "Disney Plus")),
        # a thing dropped is no value left behind without a name or "now"
        ("Dropped the kids at school, it's Monday so traffic was bad.", None),
        # a version of the same thing is the rules' to read
        ("Swapped Postgres 15 for Postgres 16.", None),
        # two pairs: which one gave way is not said
        ("Swapped Kindle for Kobo and replaced Spotify with Tidal.", None),
        # a hedge, a question, another person's, no pair
        ("We might swap Kindle for Kobo.", None),
        ("Did you swap Kindle for Kobo?", None),
        ("My dad swapped his Kindle for a Kobo.", None),
        ("We swapped desks.", None),
        ("I cycle to work instead of taking the bus.", None),
    ],
)  # fmt: skip
def test_the_swap_read(text: str, found: tuple[str, str] | None) -> None:
    from engram.pipeline import change_swap  # round fourteen's module: the base lacks it

    read = change_swap.swap(text)
    assert (None if read is None else (read.old, read.new)) == found

"""Change reading round thirteen (changes31): a fact said again with another value
closes the old one (docs/benchmarks.md, "changes31").

The first statement records no fact (its verb is none the relation readers know); the
change says the same sentence again with another value and a word of change.
``change_again`` reads the pair: the old value is recorded from the first memory's
time and closed at the change, the new one holds. Every sentence is written for these
tests (none is a fold's or a tune set's). Each test through ``mem.add`` runs on both
backends (``mem``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import change_again

START = datetime(2025, 1, 6, 9, tzinfo=UTC)
NAMESPACE = "again"

#: (the first statement, the change, subject, relation, the old value, the new one).
CHANGES = [
    ("The parrot eats sunflower seeds.", "The parrot eats pellets now, the seeds made him fat.",
     "parrot", "eats", "sunflower seeds", "pellets"),
    ("We print the flyers at Drukwerkdeal.", "We print the flyers at Printbox now.",
     "The team", "print_flyers_at", "Drukwerkdeal", "Printbox"),
    ("The tortoise sleeps in a cardboard box.",
     "The tortoise sleeps in a wooden hutch these days.",
     "tortoise", "sleeps_in", "cardboard box", "wooden hutch"),
]  # fmt: skip


def _relations(mem: Memory) -> dict[tuple[str, str, str], object]:
    found = mem.graph.relations(current_only=False, limit=100, namespace=NAMESPACE)
    return {
        (r.source, r.relation_type, r.target): r for r in found if r.relation_type != "talks_about"
    }


@pytest.mark.parametrize(("first", "change", "source", "relation", "old", "new"), CHANGES)
def test_a_fact_said_again_closes_the_old_value(
    mem: Memory, first: str, change: str, source: str, relation: str, old: str, new: str
) -> None:
    mem.add(first, namespace=NAMESPACE, created_at=START)
    assert not any(k[2] == old for k in _relations(mem))  # the first statement reads no fact
    mem.add(change, namespace=NAMESPACE, created_at=START + timedelta(days=30))
    rows = _relations(mem)
    held, now = rows[(source, relation, old)], rows[(source, relation, new)]
    # held from the first memory until the change; the new value holds alone
    assert held.valid_from == START  # type: ignore[attr-defined]
    assert held.valid_to == START + timedelta(days=30)  # type: ignore[attr-defined]
    assert now.valid_to is None  # type: ignore[attr-defined]


#: Look-alikes: nothing closes.
LOOKALIKES = [
    ("The parrot eats sunflower seeds.", "My neighbour's parrot eats pellets now."),
    ("We print the flyers at Drukwerkdeal.", "We might print the flyers at Printbox now."),
    ("We print the flyers at Drukwerkdeal.", "We also print the posters at Printbox now."),
    (
        "The tortoise sleeps in a cardboard box.",
        "The tortoise sleeps in a wooden hutch this week only.",
    ),
    ("The tortoise sleeps in a cardboard box.", "Does the tortoise sleep in a hutch now?"),
]


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, first: str, lookalike: str) -> None:
    mem.add(first, namespace=NAMESPACE, created_at=START)
    mem.add(lookalike, namespace=NAMESPACE, created_at=START + timedelta(days=30))
    assert [k for k, r in _relations(mem).items() if r.valid_to is not None] == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "earlier", "found"),
    [
        # a reason after the new value ends its clause; the old clause's extra words do not
        # break the frame
        ("the ticket queue runs in Zendesk now after the migration",
         ["everything for the ticket queue runs in Freshdesk"],
         ("ticket queue", "runs_in", "Freshdesk", "Zendesk")),
        # the value's head said after it in both
        ("I changed squads, I'm on the growth squad now", ["I'm on the search squad."],
         ("user", "on", "search squad", "growth squad")),
        # a value after a name is no value of it
        ("Halvard & Co dropped us, our lawyer is Brandt now.", ["Halvard & Co do our contracts."],
         None),
        # the verb changed, not the value
        ("The main repo got renamed to core.", ["Our main repo is mono."], None),
        # two earlier frames: which one changed is not said
        ("The hamster eats carrots now.", ["The hamster eats apples.", "The hamster eats kale."],
         None),
        # a pronoun for the subject the memory names; unnamed, "she" may be anyone
        ("They reshuffled Sunita; she runs the Delft branch now.",
         ["Sunita runs the Utrecht branch."], ("Sunita", "runs", "Utrecht branch", "Delft branch")),
        ("Met my aunt, she runs the Delft branch now.", ["Sunita runs the Utrecht branch."], None),
        # a chat turn's opener is no part of the sentence said again
        ("fyi the guest quota on the wiki is 40 seats now",
         ["the guest quota on the wiki is 25 seats"],
         ("guest quota on wiki", "is", "25 seats", "40 seats")),
        # one occasion
        ("Today the hamster eats carrots.", ["The hamster eats apples."], None),
        # a reason after the value is no word of the frame: nothing says which fact
        ("I'm in Bristol now after the move", ["I'm in Norwich."], None),
        ("We're in Utrecht now since the lease ran out", ["We're in Gouda."], None),
        # with the frame named, the reason is still cut off the value
        ("The rabbit sleeps in the shed now after the storm", ["The rabbit sleeps in the attic."],
         ("rabbit", "sleeps_in", "attic", "shed")),
        ("I'm on the growth squad now after the reorg", ["I'm on the search squad."],
         ("user", "on", "search squad", "growth squad")),
    ],
)  # fmt: skip
def test_the_pair_read(
    text: str, earlier: list[str], found: tuple[str, str, str, str] | None
) -> None:
    read = change_again.again(text, earlier)
    assert (None if read is None else (read.source, read.relation, read.old, read.new)) == found

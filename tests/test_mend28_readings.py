"""Two extraction readings session twenty-five left (task mend28; docs/benchmarks.md,
"Extraction leftovers (session twenty-six, mend28)"): a product word that is also
English opening another name read as the product's category (``user uses_framework
Express Scripts``), a thing done "with" people or with the speaker's own tool read
as a part the thing has (``runs has_forerunner Garmin Forerunner``, ``program has_junior
juniors``), and a verb read from a word the text only writes inside a name (``Hoka
Clifton rides shoes``). The right readings of the same words stay."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import vocabulary
from engram.pipeline.relation_ends import sound
from engram.records import utcnow
from engram.store.protocols.graph import Statement


@pytest.mark.parametrize(
    ("target", "slot"),
    [
        ("Express Scripts", None),  # a pharmacy benefits firm, not the framework
        ("Rust Belt tin", None),  # a region's tin, not the language
        ("Swift Transport", None),  # a carrier
        ("Phoenix Park", None),
        # the product: by its whole name, with a version or a tier, a maker before it,
        # a plain noun after it, or a product word no English word
        ("Express", "framework"),
        ("the Express app", "framework"),
        ("Postgres 16", "database"),
        ("Ghost Pro", "cms"),
        ("Samsung Galaxy S23", "phone"),
        ("Amazon Aurora", "database"),
        ("AWS Lambda", "cloud"),
        ("Microsoft Teams", "chat"),
    ],
)
def test_an_english_product_word_opening_another_name_is_not_the_product(
    target: str, slot: str | None
) -> None:
    assert vocabulary.category(target) == slot


def test_has_with_an_english_product_word_is_the_thing_had() -> None:
    assert vocabulary.canonical("has", "Rust Belt tin").relation_type == "has_tin"
    assert vocabulary.canonical("uses", "Express Scripts").relation_type == "uses"
    assert vocabulary.canonical("has", "iPhone 12").relation_type == "uses_phone"


def _statement(*triples: tuple[str, str, str]) -> Statement:
    now = utcnow()
    return Statement("m", [(s, r, o, 0.9) for s, r, o in triples], now, now)


@pytest.mark.parametrize(
    ("text", "triple", "kept"),
    [
        (
            "I track my runs with a Garmin Forerunner.",
            ("runs", "has_forerunner", "Garmin Forerunner"),
            False,
        ),
        (
            "I pair/mob program with the juniors on Tuesdays.",
            ("program", "has_junior", "juniors"),
            False,
        ),
        ("I cook dinner with the kids on Sundays.", ("dinner", "has_kid", "kids"), False),
        ("We run retros with the contractors.", ("retros", "has_contractor", "contractors"), False),
        (
            "I bought an efoil with a 12V20Ah battery.",
            ("efoil", "has_battery", "12V20Ah battery"),
            True,
        ),
        ("We rented a cabin with a wood stove.", ("cabin", "has_stove", "wood stove"), True),
        (
            "My bike is a Canyon with a Shimano groupset.",
            ("Canyon", "has_groupset", "Shimano groupset"),
            True,
        ),
    ],
)
def test_a_thing_done_with_people_or_ones_own_tool_has_no_part(
    text: str, triple: tuple[str, str, str], kept: bool
) -> None:
    found = sound(_statement(triple), text)
    assert [t[:3] for t in found.triples] == ([triple] if kept else [])


@pytest.mark.parametrize(
    ("text", "triple", "kept"),
    [
        (
            "I run in Hoka Clifton and Saucony Ride shoes.",
            ("Hoka Clifton", "rides", "shoes"),
            False,
        ),
        ("Sam rides a Brompton to work.", ("Sam", "rides", "Brompton"), True),
        ("Rides are free on Sundays, Sam said.", ("Sam", "rides", "bus"), True),  # opens it
        ("My dad drives a Ford Ranger.", ("dad", "drives", "Ford Ranger"), True),
        ("My GP is Dr. Reyes.", ("user", "gp", "Dr Reyes"), True),  # an initialism
    ],
)
def test_a_verb_the_text_only_writes_inside_a_name_is_not_said(
    text: str, triple: tuple[str, str, str], kept: bool
) -> None:
    found = sound(_statement(triple), text)
    assert [t[:3] for t in found.triples] == ([triple] if kept else [])


def test_the_readings_through_the_write_path() -> None:
    with Memory(":memory:", embedder=None) as mem:
        for user, text in (
            ("a", "I track my runs with a Garmin Forerunner."),
            ("b", "We use Express Scripts for prescriptions."),
            ("c", "I bought an efoil with a 12V20Ah battery."),
        ):
            mem.add(text, user_id=user)
        mem.jobs.process_pending()
        read = {
            user: {
                (r.source, r.relation_type, r.target)
                for r in mem.graph.relations(None, False, limit=50, user_id=user)
            }
            for user in "abc"
        }
    assert read["a"] == set()
    assert read["b"] == {("user", "uses", "Express Scripts")}
    assert ("efoil", "has_battery", "12V20Ah battery") in read["c"]

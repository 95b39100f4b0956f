"""Changes said the way a user tells an assistant (issue 28, FEATURES G2): fillers,
contractions, dropped subjects, two claims joined by "and", renames, schedules, prices
and owners (``pipeline/change_chat.py``, ``pipeline/change_signals.py``), and what the
closing plan makes of them (``pipeline/closing.py``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.pipeline import change_signals as claims
from engram.pipeline import vocabulary

JAN = datetime(2024, 1, 5, 9, tzinfo=UTC)
FEB = datetime(2024, 2, 5, 9, tzinfo=UTC)
C, P, A = claims.CHANGE, claims.PLAIN, claims.ADDITION


def _read(text: str) -> list[tuple[str | None, str, str, str]]:
    return [(c.source, c.relation, c.target, c.signal) for c in claims.read(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # fillers in front, "!!" and "lol" after
        ("ok so update: we moved to Austin last weekend!! still unpacking lol",
         [("user", "moved to", "Austin", C)]),
        ("these days I live in Portland, moved down in the spring",
         [("user", "lives in", "Portland", C)]),
        ("At work we're on Teams.", [("user", "uses", "Teams", P)]),
        # contractions and lower-case chat
        ("fyi im in Seattle, pacific time", [("user", "lives in", "Seattle", P)]),
        ("Left Deloitte, I'm at PwC now. same grind", [("user", "works at", "PwC", C)]),
        ("I've been at Initech since March", [("user", "works at", "Initech", P)]),
        # two claims with one subject
        ("I live in Denver and work at Stripe.",
         [("user", "lives in", "Denver", P), ("user", "works at", "Stripe", P)]),
        # no subject: the speaker said it
        ("started a new job at Plaid this week!", [("user", "joined", "Plaid", C)]),
        ("new job at costco, way better pay", [("user", "joined", "costco", C)]),
        ("started working at a coffee shop downtown, left the bakery",
         [("user", "joined", "coffee shop downtown", C)]),
        # a phone is a thing in use, one at a time: its name is the phone's value
        ("got a new phone! Pixel 8, loving it", [("user", "phone", "Pixel 8", C)]),
        # a hedge in a later part leaves the part before it
        ("ok I finally switched to Neovim, don't judge me", [("user", "migrated to", "Neovim", C)]),
        # "too slow" and "Plus" are no addition; a thing that moves changes what it uses
        ("newsletter moved to Buttondown, Mailchimp got too pricey",
         [("newsletter", "migrated to", "Buttondown", C)]),
        ("upgraded to Plus lol, worth it", [("user", "migrated to", "Plus", C)]),
        ("my sister moved to Denver last week", [("sister", "moved to", "Denver", C)]),
        # names
        ("the project is now called Flowly, Tasker was taken", [("project", "named", "Flowly", C)]),
        ("the channel got renamed to #platform", [("channel", "named", "#platform", C)]),
        ("podcast has a new name: Slow Burn", [("podcast", "named", "Slow Burn", C)]),
        ("we renamed the cat to Mochi lol, Luna didn't suit her", [("cat", "named", "Mochi", C)]),
        ("I'm working on a side project called Tasker", [("project", "named", "Tasker", A)]),
        # times, prices, owners
        ("Standup is at 9:30.", [("Standup", "scheduled", "9:30", P)]),
        ("yoga class switched to 7am", [("yoga class", "scheduled", "7am", C)]),
        ("landlord raised my rent to $1650", [("user", "rent", "$1650", C)]),
        ("hosting costs $180 a month now", [("hosting", "costs", "$180", C)]),
        ("Priya owns the billing service now, Marco moved to infra",
         [("billing service", "owned by", "Priya", C)]),
        ("The login bug is assigned to Ken.", [("login bug", "owned by", "Ken", P)]),
        ("I reassigned the login bug to Ana", [("login bug", "owned by", "Ana", C)]),
        # diet, rides, drinks; my thing switched
        ("I've gone vegan since January!", [("user", "diet", "vegan", C)]),
        ("my Trek got stolen 😭 I'm riding a Brompton now", [("user", "rides", "Brompton", C)]),
        ("I switched my phone plan to Mint Mobile, way cheaper",
         [("user", "phone plan", "Mint Mobile", C)]),
        # a role from a short list, and news that names its attribute
        ("I'm a principal now at the same school!", [("user", "role", "principal", C)]),
        ("new favorite: oat cortado. flat whites are dead to me",
         [("user", "favorite", "oat cortado", C)]),
        # a use for one purpose is one use among others
        ("I use Vim for quick edits on servers", [("user", "uses", "Vim", A)]),
    ],
)  # fmt: skip
def test_chat_phrasings_state_their_claim(
    text: str, expected: list[tuple[str | None, str, str, str]]
) -> None:
    assert _read(text) == expected


def test_a_rename_of_a_name_points_at_the_old_name() -> None:
    (claim,) = claims.read("we renamed Beacon to Lumen last week")
    assert (claim.source, claim.relation, claim.target, claim.replaced) == (
        None, "named", "Lumen", "Beacon",
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "I lived in Lyon for 3 years, loved the food",  # past narration
        "I worked at Square in college",
        "I'm in a book club.",  # "in" + a thing is no home
        "I've chosen SQLite for now",  # the perfect tense is no having
        "I've got Flask 2.3.1 installed",
        "I've always liked turtles",  # an adverb before the participle too
        "I'm a big fan of jazz",  # no role
        "I'm trying to switch from SQLite to Postgres",  # trying is a hedge
    ],
)
def test_past_narration_and_perfect_tenses_claim_nothing(text: str) -> None:
    assert claims.read(text) == []


def test_a_home_is_never_a_stack_and_a_phone_had_is_a_phone_used() -> None:
    assert vocabulary.canonical("lives in", "Phoenix").relation_type == "lives_in"
    assert vocabulary.canonical("moved to", "Phoenix").relation_type == "uses_framework"
    assert vocabulary.canonical("has", "iPhone 12") == vocabulary.canonical("uses", "Pixel 8")
    assert vocabulary.canonical("named", "Lumen") == vocabulary.Canonical("named", True)


def _story(mem: Memory, *lines: str) -> dict[str, bool]:
    namespace = f"story-{abs(hash(lines))}"
    for when, line in zip((JAN, FEB), lines, strict=True):
        mem.add(line, created_at=when, namespace=namespace)
    rows = mem.graph.relations(current_only=False, namespace=namespace)
    return {r.target: r.current for r in rows if r.relation_type != "talks_about"}


@pytest.mark.parametrize(
    ("lines", "closed", "held"),
    [
        # the replaced value named with fewer words than the fact holds it
        (("my car is a 2012 Corolla", "traded in the Corolla for a RAV4"), "2012 Corolla", "RAV4"),
        # a thing of the same kind (the head noun) replaces the one held
        (("I drink oat milk.", "switched to almond milk, oat was upsetting my stomach"),
         "oat milk", "almond milk"),
        # the relation the change names opens the one held
        (("Our internet provider is Comcast.", "we switched our internet to Sonic fiber"),
         "Comcast", "Sonic fiber"),
        # a rename finds whoever held the old name
        (("Our product is called Beacon.", "we renamed Beacon to Lumen"), "Beacon", "Lumen"),
        (("Standup is at 9:30.", "standup moved to 10:15 starting this week"), "9:30", "10:15"),
        (("Marco owns the billing service.", "Priya owns the billing service now"),
         "Marco", "Priya"),
    ],
)  # fmt: skip
def test_chat_changes_close_the_fact_they_replace(
    mem: Memory, lines: tuple[str, str], closed: str, held: str
) -> None:
    facts = _story(mem, *lines)
    assert facts[closed] is False
    assert facts[held] is True


@pytest.mark.parametrize(
    "lines",
    [
        ("We use Postgres.", "we're on Postgres 16 now"),  # more words, same value
        ("The app uses Postgres.", "the app moved to Vercel"),  # another kind of use
        ("I live in Paris.", "I lived in Lyon for 3 years, loved the food"),
        ("I use VS Code.", "I use Vim for quick edits on servers"),
    ],
)
def test_chat_that_changes_nothing_closes_nothing(mem: Memory, lines: tuple[str, str]) -> None:
    assert all(_story(mem, *lines).values())

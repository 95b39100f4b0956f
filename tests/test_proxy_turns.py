"""Task x25: what the chat proxy's mining keeps from a user's turn typed to an
assistant. A request, a command or a question gives no fact ("Suggest a dinner for me
tonight" had become "Suggest a dinner for User tonight."); a request to keep a fact
gives the fact; an introduction gives the user's name; a day is never a thing used
("partner's birthday uses 3 April"). The offline rules read alone, and the proxy's own
path (``mem.chat.after``, the worker) on both backends."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engram import Memory
from engram.pipeline import offline, offline_asks, relation_ends, turns
from engram.records import PIPELINE_WHO, utcnow
from engram.store.protocols.graph import Statement


def _facts(text: str, speaker: str | None = turns.OWNER) -> list[str]:
    return [f.content for f in offline.analyse(text, speaker=speaker).facts]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # requests and commands: a task for the assistant, no fact about anyone
        ("Suggest a dinner for me tonight.", []),
        ("Pick a movie for me and my kids tonight.", []),
        ("Please recommend a wine to go with salmon.", []),
        ("Explain recursion like I'm five.", []),
        ("Help me plan my sister's baby shower.", []),
        # a statement before a request keeps its fact, without the request
        ("I'm vegetarian, so suggest a dinner for me tonight.", ["User is vegetarian."]),
        (
            "My son has football on Wednesdays, so plan my week around that.",
            ["User's son has football on Wednesdays."],
        ),
        # a request to keep a fact states it
        ("Remind me that my passport expires in May.", ["User's passport expires in May."]),
        (
            "Please note that my daughter is allergic to penicillin.",
            ["User's daughter is allergic to penicillin."],
        ),
        ("remind me my dentist is Dr. Okafor", ["User's dentist is Dr. Okafor."]),
        # an introduction gives the user's name, and what follows it is read on
        ("Hi, I'm Priya.", ["User's name is Priya."]),
        ("Hello! My name is Tomasz.", ["User's name is Tomasz."]),
        ("hey, im Jake", ["User's name is Jake."]),
        ("Good morning, this is Lars.", ["User's name is Lars."]),
        ("Call me Ben.", ["User's name is Ben."]),
        (
            "Hi, I'm Kim, a data engineer at Snowflake.",
            ["User's name is Kim.", "User is a data engineer at Snowflake."],
        ),
        (
            "Hi, I'm Priya. I'm on the payments team and I prefer Go over Java.",
            [
                "User's name is Priya.",
                "User is on the payments team and User prefers Go over Java.",
            ],
        ),
    ],
)
def test_an_owners_turn_to_an_assistant(text: str, facts: list[str]) -> None:
    assert _facts(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        "I'm Italian.",  # where one is from
        "Actually it's Tomás, with an accent.",  # "it's X" without a greeting
        "This is Python.",
        "I'm sorry, I meant the other one.",
        "I'm a Python developer.",
    ],
)
def test_no_name_where_none_is_given(text: str) -> None:
    assert not [f for f in _facts(text) if "name" in f], _facts(text)


def test_a_named_speakers_introduction_is_theirs_as_before() -> None:
    # LoCoMo's turns name their speaker: "Hi, I'm Caroline" is no fact about a user.
    assert _facts("Caroline: Hi, I'm Caroline.", None) == []
    # "Remember that ..." and the imperatives were read so before: unchanged.
    assert _facts("Check out this photo of my garden!") == []


def test_a_coordinated_verb_is_no_request() -> None:
    # "and help ..." joins two of the speaker's own aims, it asks nothing of anyone
    assert _facts("I want to be known as a consistent performer and help my team.") == [
        "User wants to be known as a consistent performer and help User's team."
    ]


def test_the_rules_read_requests_and_introductions() -> None:
    assert offline_asks.is_request("Set a timer for 10 minutes.")
    assert not offline_asks.is_request("Planned a trip to Rome.")
    assert not offline_asks.is_request("Help is on the way.")
    assert offline_asks.introduction("I'm Nora and I teach maths.", greeted=False) == (
        "Nora",
        "I teach maths.",
    )
    assert offline_asks.introduction("this is Lars.", greeted=False) is None
    assert offline_asks.kept_fact("Can you remember that I take oat milk?") == "I take oat milk."


@pytest.mark.parametrize(
    ("read", "recorded"),
    [
        # someone's day is a slot of theirs, as "my wife's birthday is 14 March" reads
        (("partner's birthday", "uses", "3 April"), ("partner", "birthday", "3 April")),
        (("mom's birthday", "uses", "next tuesday"), ("mom", "birthday", "next tuesday")),
        # an event's own day stays as read: the closing plan closes the old one with it
        (("launch", "uses", "June 2"), ("launch", "uses", "June 2")),
        (("feature freeze", "uses", "14th"), ("feature freeze", "uses", "14th")),
        (("user's team", "uses", "Kafka"), ("user's team", "uses", "Kafka")),  # no day
    ],
)
def test_a_possessions_day_is_its_owners_slot(
    read: tuple[str, str, str], recorded: tuple[str, str, str]
) -> None:
    statement = Statement("m1", [(*read, 0.8)], utcnow(), utcnow(), {})
    kept = relation_ends.sound(statement, "text")
    assert [t[:3] for t in kept.triples] == [recorded]


def test_a_day_is_read_as_one() -> None:
    for day in ("14 March", "on 3 April", "next tuesday", "the 1st of every month", "Friday"):
        assert relation_ends.is_day(day), day
    for other in ("2012", "May", "Bergen", "age 30", "June Carter"):
        assert not relation_ends.is_day(other), other


def test_the_labelled_set_is_whole() -> None:
    data = json.loads(
        resources.files("engram.data").joinpath("proxy_turns.json").read_text(encoding="utf-8")
    )
    rows = data["turns"]
    assert len(rows) >= 200
    assert {r["fold"] for r in rows[::2]} == {"tune"} and {r["fold"] for r in rows[1::2]} == {
        "check"
    }
    kinds = {r["kind"] for r in rows}
    assert {"request", "question", "greeting", "small_talk", "thanks", "statement"} <= kinds
    for r in rows:
        assert r["text"].strip() and all(w == w.lower() for e in r["expect"] for w in e)
        for rel in r["relations"]:
            assert set(rel) == {"s", "r", "o"}


def _mine(mem: Memory, user: str, text: str) -> None:
    """One exchange through the proxy's path, as round sixteen's upstream answered it."""
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": text},
    ]
    first = text.split(". ")[0]
    mem.chat.after(messages, f"Understood. {first}", user_id=user, agent_id="assistant")
    mem.jobs.process_pending()
    mem.jobs.process_pending()


def test_the_proxys_turns_give_the_users_facts_only(mem: Memory) -> None:
    _mine(mem, "kim", "Suggest a dinner for me tonight.")
    _mine(mem, "kim", "Hi, I'm Priya. I'm on the payments team and I prefer Go over Java.")
    _mine(mem, "kim", "My partner's birthday is on 3 April.")
    facts = sorted(r.content for r in mem.get_all(user_id="kim") if r.who == PIPELINE_WHO)
    assert facts == [
        "User is on the payments team and User prefers Go over Java.",
        "User's name is Priya.",
        "User's partner's birthday is on 3 April.",
    ]
    rels = [(r.source, r.relation_type, r.target) for r in mem.graph.relations(user_id="kim")]
    assert not [r for r in rels if r[2] == "3 April" and r[1] == "uses"], rels
    assert ("partner", "birthday", "3 April") in rels, rels
    assert not [r for r in rels if "dinner" in r[2]], rels


@pytest.mark.parametrize("label", ["Correction", "Update", "Clarification", "Addendum"])
def test_a_label_before_a_colon_is_no_speaker(label: str) -> None:
    # "Correction: my manager is Priya" is the owner's own correction, not a person
    # called Correction (x25's check half gave "Correction's manager is Priya").
    text = f"{label}: my manager is Priya, not Sam."
    assert turns.split_speaker(text) == (None, text)
    assert _facts(text) == ["User's manager is Priya, not Sam."]


def test_a_label_said_with_a_comma_is_read_as_before() -> None:
    assert turns.split_speaker("Caveat: the test was run once.")[0] is None
    assert _facts("Correction, I meant Tuesday.") == ["User meant Tuesday."]

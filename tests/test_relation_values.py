"""What a read relation's value says beside the thing it names (task junk32,
``engram.pipeline.relation_values``): an adverbial tail ("part time", "most days"), an
amount ("1.5 kW", "3 litres of"), a degree ("pretty cold"), a negation left as the
subject, and "my X is called Y" read as an entity "X" named Y. The sentences are written
for these tests; a mined chat goes through ``mine_conversation`` and the worker on both
backends."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.pipeline import offline_asks, relation_ends, relation_values
from engram.pipeline.person import resolve_person
from engram.records import PIPELINE_WHO
from engram.store.protocols.graph import Statement, normal_name

T0 = datetime(2026, 10, 1, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("target", "relation", "bare"),
    [
        ("Hillcrest Academy part time", "works_at", "Hillcrest Academy"),
        ("Cannondale most days", "rides", "Cannondale"),
        ("finance squad basically", "lives_in", "finance squad"),
        ("Affinity pretty much", "uses_design", "Affinity"),
        ("about 2 cups of green tea", "uses", "green tea"),
        ("4 GB of memory", "has_memory", "4 GB of memory"),  # a part's amount is its value
        ("Every Day Carry", "likes", "Every Day Carry"),  # a title keeps its words
        ("Full Time Recruiting", "works_at", "Full Time Recruiting"),
        ("most days", "rides", "most days"),  # nothing left: the value as read
    ],
)
def test_a_tail_or_an_amount_is_cut_from_a_value(target: str, relation: str, bare: str) -> None:
    assert relation_values.bare(target, relation) == bare


@pytest.mark.parametrize(
    ("target", "amount"),
    [
        ("300 W", True),
        ("1.5 kW", True),
        ("£40 a week", True),
        ("about 12%", True),
        ("8 GB", True),
        ("2 cups of green tea", False),
        ("Pixel 8", False),
        ("9:30 am", False),  # a time of day is the closing plan's to read
        ("Route 66", False),
    ],
)
def test_an_amount_is_a_quantity(target: str, amount: bool) -> None:
    assert relation_values.is_quantity(target) is amount


def _sound(text: str, *triples: tuple[str, str, str]) -> list[tuple[str, str, str]]:
    statement = Statement("m1", [(*t, 0.7) for t in triples], T0, T0)
    return [t[:3] for t in relation_ends.sound(statement, text).triples]


def test_no_thing_is_read_from_an_amount_a_degree_or_a_negation() -> None:
    text = (
        "The dehumidifier uses 300 W. We have 40k total. My garden is really tiny. "
        "I no longer play the cello. I have about 8 GB left."
    )
    assert not _sound(
        text,
        ("dehumidifier", "uses", "300 W"),
        ("user", "has_total", "40k total"),
        ("user", "garden", "really tiny"),
        ("no longer", "plays", "cello"),
        ("user", "has_left", "8 GB left"),
    )


def test_a_tail_goes_and_a_work_group_is_then_no_home() -> None:
    text = "I teach at Hillcrest Academy part time. Marta lives in the finance squad basically."
    kept = _sound(
        text,
        ("user", "works_at", "Hillcrest Academy part time"),
        ("Marta", "lives_in", "finance squad basically"),
    )
    assert kept == [("user", "works_at", "Hillcrest Academy")]


def test_a_name_in_a_type_is_the_owners_noun_and_a_role_names_nobody() -> None:
    text = (
        "My bonsai is called Kenji. I have two hamsters called Bo and Pip. I see a tutor "
        "called Wren on Mondays. My dentist is called Dr Vos. We started a side project "
        "called Lantern."
    )
    kept = _sound(
        text,
        ("bonsai", "named", "Kenji"),
        ("user", "has_pip", "Pip"),
        ("tutor", "named", "Wren"),
        ("dentist", "named", "Dr Vos"),
        ("side project", "named", "Lantern"),
        ("mondays", "has_called", "tutor called"),
    )
    assert kept == [
        ("bonsai", "named", "Kenji"),  # a rename closes it by its type
        ("user", "hamster", "Pip"),
        ("dentist", "named", "Dr Vos"),  # "my dentist": the owner's, not introduced
        ("side project", "named", "Lantern"),
    ]


def test_a_request_in_a_type_gives_the_slot_it_names() -> None:
    kept = _sound("remind me my vet is Dr. Haas", ("user", "remind_me_my_vet", "Dr. Haas"))
    assert kept == [("user", "vet", "Dr. Haas")]
    assert not _sound("tell me about Haas", ("user", "tell_me", "Haas"))


#: The first person rewritten: a verb that ends in "-ly" is no adverb ("I fly out" was
#: "User fly outs"); an adverb still is, and "no longer" is one ("User noes longer").
LY_VERBS = {
    "I fly out to Oslo on Friday.": "User flies out to Oslo on Friday.",
    "I rely on my neighbour for the keys.": "User relies on their neighbour for the keys.",
    "I only apply for remote roles.": "User only applies for remote roles.",
    "I really like sardines.": "User really likes sardines.",
    "I no longer cycle to work.": "User no longer cycles to work.",  # "no" is no verb
}


def test_a_verb_in_ly_is_no_adverb() -> None:
    assert {said: resolve_person(said, "User") for said in LY_VERBS} == LY_VERBS


#: A wish for something an assistant makes asks for it; a want of the speaker's states it.
WISHES = {
    "I'd like a reading list on Stoic philosophy.": True,
    "I want some ideas for a team offsite.": True,
    "I need a short summary of this thread.": True,
    "I need a new kettle.": False,
    "I'd love a dog one day.": False,
    "I need a letter from my GP.": False,
}


def test_a_wish_for_something_made_is_a_request() -> None:
    assert {s: offline_asks.is_request(s) for s in WISHES} == WISHES


CHAT = [
    ("user", "I work at Hillcrest Academy part time. I ride a Cannondale most days."),
    ("assistant", "Noted: Hillcrest Academy, and the Cannondale."),
    ("user", "The dehumidifier uses 300 W. I drink about 2 cups of green tea a day."),
    ("assistant", "Got it."),
    ("user", "Marta lives in the finance squad basically. My garden is really tiny."),
    ("assistant", "Updated."),
    ("user", "I have two hamsters called Bo and Pip. Ask a tutor called Wren about it."),
    ("assistant", "Noted: Bo and Pip."),
    ("user", "I'd like a reading list on Stoic philosophy. I fly out to Oslo on Friday."),
    ("assistant", "Here are five books to start with."),
]


def test_a_mined_chat_keeps_the_things_and_drops_the_junk(mem: Memory) -> None:
    messages = [{"role": role, "content": text} for role, text in CHAT]
    mem.palace.mine_conversation(messages, wing="chat", user_id="ines")
    mem.jobs.process_pending()
    got = {
        (normal_name(r.source), r.relation_type, normal_name(r.target))
        for r in mem.graph.relations(None, False, limit=500, user_id="ines")
    }
    for junk in ("part time", "most days", "basically", "300 w", "really tiny", "2 cups"):
        assert not [r for r in got if junk in r[2]], (junk, sorted(got))
    assert ("user", "works_at", "hillcrest academy") in got, sorted(got)
    assert ("user", "hamster", "bo") in got, sorted(got)
    assert not [r for r in got if r[1].startswith("has_") or r[0] == "tutor"], sorted(got)
    facts = [r.content for r in mem.get_all(user_id="ines") if r.who == PIPELINE_WHO]
    assert "User flies out to Oslo on Friday." in facts, facts
    assert not [f for f in facts if "reading list" in f or "fly out" in f], facts
    assert not [r for r in got if r[0] == "marta" and r[1] == "lives_in"], sorted(got)

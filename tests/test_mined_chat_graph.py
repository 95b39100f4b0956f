"""Junk relations from a mined chat (task x22, new-user pass round thirteen): mining three
chats filled ``engram graph`` with ``Noted talks_about Fly`` (an assistant's "Noted:"
read as a speaker), ``sister says I likes spicy food`` (reported speech as a subject),
``he likes sake`` (a pronoun as an entity), and a rewritten fact read "User is vegetarian
and avoid mushrooms." A mined chat here goes through ``mine_conversation`` and the
worker on both backends, as ``engram mine`` and ``engram worker --once`` run it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from importlib import resources

import pytest

from engram import Memory
from engram.pipeline.person import resolve_person
from engram.records import PIPELINE_WHO
from engram.store.protocols.graph import normal_name

CHAT = [
    ("user", "hi! I moved to Leeds last month and I work at Sky Betting."),
    ("assistant", "Noted: Leeds, and Sky Betting in the city centre."),
    ("user", "my brother Ken lives in Osaka. he likes sake"),
    ("assistant", "Got it. Kafka is a reasonable choice for that, and Fly.io hosts it well."),
    ("user", "my sister says I love spicy food, she's wrong"),
    ("assistant", "Noted: no spicy food. She has a point about the ramen though."),
    ("user", "she lives in York and has a Brompton"),
    ("user", "I'm vegetarian and avoid mushrooms."),
    ("user", "a guy called Mr Okafor is my landlord"),
]
T0 = datetime(2026, 10, 1, 9, tzinfo=UTC)
PRONOUNS = {"he", "she", "it", "they", "you", "i", "we", "noted"}


def _mine(mem: Memory) -> tuple[list[tuple[str, str, str]], list[str], list[str]]:
    messages = [{"role": role, "content": text} for role, text in CHAT]
    mem.palace.mine_conversation(messages, wing="chat", user_id="kim")
    mem.jobs.process_pending()
    relations = [
        (r.source, r.relation_type, r.target)
        for r in mem.graph.relations(None, False, limit=500, user_id="kim")
    ]
    entities = [e.name for e in mem.graph.entities(limit=500, user_id="kim")]
    facts = [r.content for r in mem.get_all(user_id="kim") if r.who == PIPELINE_WHO]
    return relations, entities, facts


def test_a_mined_chat_names_no_pronoun_no_label_and_no_reported_subject(mem: Memory) -> None:
    relations, entities, facts = _mine(mem)
    names = {normal_name(e) for e in entities}
    assert not names & PRONOUNS, sorted(names & PRONOUNS)
    for source, _, target in relations:
        assert normal_name(source) not in PRONOUNS and normal_name(target) not in PRONOUNS
        assert "says" not in source.lower().split(), (source, target)
    # the assistant's turns state nothing of the user's and name no speaker
    assert not [r for r in relations if normal_name(r[0]) in {"kafka", "noted", "fly io"}]
    assert not [f for f in facts if f.startswith("Noted")]
    # a guy called Mr Okafor: nobody named, not an entity "guy"
    assert not [r for r in relations if normal_name(r[0]) == "guy"]
    # what the user said of themselves and of Ken is still read
    got = {(normal_name(s), r, normal_name(t)) for s, r, t in relations}
    assert ("user", "lives_in", "leeds") in got
    assert ("user", "works_at", "sky betting") in got
    assert ("ken", "lives_in", "osaka") in got


def test_a_rewritten_fact_agrees_every_verb(mem: Memory) -> None:
    _, _, facts = _mine(mem)
    assert "User is vegetarian and avoids mushrooms." in facts, facts
    assert not [f for f in facts if "and avoid " in f]


#: What ``resolve_person`` makes of a user's sentence: a second verb agrees with the
#: rewritten subject (task x22), but not after "to", a modal or "don't", nor for a
#: subject of two ("my wife and I are": "User ares" and "I and my wife": "User ands"
#: before the lead's mend); two clauses each with their own subject still agree.
PERSON_CASES = {
    "I'm vegetarian and avoid mushrooms.": "User is vegetarian and avoids mushrooms.",
    "I need a new bike": "User needs a new bike",
    "I moved to Leeds and love it": "User moved to Leeds and loves it",
    "I want to travel and see Japan": "User wants to travel and see Japan",
    "I can cook and bake": "User can cook and bake",
    "I don't smoke and avoid alcohol": "User doesn't smoke and avoid alcohol",
    "I like cats and dogs": "User likes cats and dogs",
    "what should I ask for": "what should User ask for",
    "My wife and I are vegetarian.": "User's wife and User are vegetarian.",
    "My sister and I cook every Sunday.": "User's sister and User cook every Sunday.",
    "Tom and I play chess on Fridays.": "Tom and User play chess on Fridays.",
    "I and my wife moved to Leeds.": "User and their wife moved to Leeds.",
    "I went home and I cook pasta.": "User went home and User cooks pasta.",
    "It rained and I stay inside.": "It rained and User stays inside.",
    "Rock on and I hope they love it!": "Rock on and User hopes they love it!",
    "Yes and I love it.": "Yes and User loves it.",
}


@pytest.mark.parametrize(("said", "rewritten"), PERSON_CASES.items())
def test_person_agrees_verbs_but_not_inverted_infinitive_or_shared_ones(
    said: str, rewritten: str
) -> None:
    assert resolve_person(said, "User") == rewritten


def test_the_labelled_chats_are_long_and_split_by_chat() -> None:
    data = json.loads(resources.files("engram.data").joinpath("mined_chats.json").read_text())
    chats = data["chats"]
    assert len(chats) >= 6
    assert {c["fold"] for c in chats} == {"tune", "check"}
    for chat in chats:
        assert 30 <= len(chat["messages"]) <= 60, chat["id"]
        assert {m["role"] for m in chat["messages"]} == {"user", "assistant"}
        assert chat["relations"] and chat["no_relation"]


def test_an_agents_own_note_about_the_user_keeps_its_relations(mem: Memory) -> None:
    # ``who`` names an author, not a chat role: a note an agent writes about its user
    # states the user's facts (only a mined turn's ``metadata.role`` marks an assistant).
    mem.add("My sister lives in York.", user_id="kim", who="assistant")
    mem.jobs.process_pending()
    relations = {
        (r.source, r.relation_type, r.target)
        for r in mem.graph.relations(None, False, limit=50, user_id="kim")
    }
    assert ("sister", "lives_in", "York") in relations

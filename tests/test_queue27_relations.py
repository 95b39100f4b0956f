"""Junk relations a mined chat recorded (task queue27; docs/benchmarks.md, "Extraction
and queue leftovers (session twenty-five, queue27)"): each reading below names no
thing at one end, or says the wrong thing of it; the readings next to them stay."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline.relation_ends import not_a_thing
from engram.pipeline.triples import relation_triples


@pytest.mark.parametrize(
    ("source", "relation", "target"),
    [
        ("really dont", "likes", "horror movies"),  # "i really dont like horror movies"
        ("honestly dont", "likes", "long meetings"),
        ("just cant", "likes", "jazz"),
        ("user", "uses", "payments team"),  # "I'm on the payments team."
        ("user", "uses", "platform squad"),
        ("deployed", "has_helm", "official Helm"),  # "Airflow is deployed with ... Helm"
        ("hosted", "uses", "Netlify"),
        ("user", "uses_docs", "built"),  # "Our docs are built with MkDocs."
        ("user", "rides", "most of my commutes"),  # "I ride most of my commutes on ..."
        ("user", "friend_reckons", "Rust"),  # "My friend reckons Rust is the future."
        ("user", "sister", "studying medicine"),  # "My sister is studying medicine ..."
    ],
)
def test_a_reading_that_names_no_thing_is_dropped(source: str, relation: str, target: str) -> None:
    assert not_a_thing(source, relation, target)


@pytest.mark.parametrize(
    ("source", "relation", "target"),
    [
        ("user", "uses", "Microsoft Teams"),
        ("user", "uses", "standing desk"),
        ("user", "likes", "horror movies"),
        ("Dont Panic", "uses", "Slack"),  # a name with the word in it, capitalised
        ("user", "works_at", "Philips"),
        ("user", "member_of", "payments team"),
        ("Airflow", "uses", "Helm"),
        ("user", "hobby", "hiking"),
        ("user", "rides", "Brompton"),
        ("user", "sister", "Anna"),
    ],
)
def test_a_reading_of_a_thing_stays(source: str, relation: str, target: str) -> None:
    assert not not_a_thing(source, relation, target)


def test_what_someone_studied_is_past_and_where_is_the_school() -> None:
    found = {
        (r.source, r.relationship, r.target)
        for r in relation_triples("User studied physics at Edinburgh.")
    }
    assert found == {("User", "studied", "physics"), ("User", "attended", "Edinburgh")}
    found = {
        (r.source, r.relationship, r.target)
        for r in relation_triples("Anna is studying law in Prague.")
    }
    assert found == {("Anna", "studies", "law")}


def test_a_relatives_progressive_is_no_value_of_the_relative() -> None:
    assert relation_triples("User's sister is studying medicine in Prague.") == []
    assert [(r.relationship, r.target) for r in relation_triples("User's sister is Anna.")] == [
        ("sister", "Anna")
    ]


def test_the_graph_records_none_of_them_told_through_the_chat_proxy(mem: Memory) -> None:
    said = {
        "a": "i really dont like horror movies",
        "b": "I'm on the payments team.",
        "c": "Airflow is deployed with the official Helm chart.",
        "d": "I studied physics at Edinburgh.",
        "e": "I ride most of my commutes on a Brompton.",
    }
    for user, text in said.items():
        messages = [{"role": "user", "content": text}]
        mem.chat.after(messages, "Understood.", user_id=user, agent_id="assistant")
        mem.jobs.process_pending()
        mem.jobs.process_pending()
    read = {
        user: {
            (r.source, r.relation_type, r.target)
            for r in mem.graph.relations(None, False, limit=50, user_id=user)
        }
        for user in said
    }
    assert read["a"] == set() and read["b"] == set() and read["c"] == set()
    assert read["d"] == {("user", "studied", "physics"), ("user", "attended", "Edinburgh")}
    assert ("user", "rides", "most of my commutes") not in read["e"]


@pytest.mark.parametrize(
    ("source", "relation", "target"),
    [
        ("Gina", "likes", "being around friends"),  # LoCoMo dev: a liked activity
        ("Maria", "started", "doing aerial yoga"),
        ("Tim", "likes", "having movie marathons"),
    ],
)
def test_a_liked_doing_stays(source: str, relation: str, target: str) -> None:
    assert not not_a_thing(source, relation, target)

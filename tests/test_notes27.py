"""Three extraction readings new-user pass eighteen and queue27 found wrong (task notes27;
docs/benchmarks.md, "Three extraction readings (session twenty-five, notes27)"): a token
joined by a slash where the verb is inflected ("The team As/B test"), the speaker as an
object whose phrase swallowed a participle ("lives_in Google Sheet owned"), a product
word inside a longer proper name read as the product ("road miles uses_cms Brooks
Ghost"), and a list's label read as a speaker ("Owners: billing is mine")."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import offline_notes
from engram.pipeline.change_plain import firsts, known_product
from engram.pipeline.change_words import phrase
from engram.pipeline.person import resolve_person
from engram.pipeline.turns import can_speak
from engram.records import PIPELINE_WHO


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("I A/B test my emails in Mailchimp.", "User A/B tests their emails in Mailchimp."),
        ("I blue/green deploy the API.", "User blue/green deploys the API."),
        ("I A/B tested two pricing pages.", "User A/B tested two pricing pages."),
        ("I/O latency doubled after the upgrade.", "I/O latency doubled after the upgrade."),
        # a token joined by a slash is no verb, "and/or" joins two subjects
        ("I and/or Sam will go.", "User and/or Sam will go."),
        ("I love my dog.", "User loves their dog."),
        ("I work 9/80 now.", "User works 9/80 now."),
    ],
)
def test_a_token_joined_by_a_slash_is_no_verb(said: str, read: str) -> None:
    assert resolve_person(said, "User") == read


def test_a_slash_token_with_i_in_it_is_no_owner_of_a_note() -> None:
    assert offline_notes.teams("I/O on the db doubled; we moved the WAL to its own disk.")
    assert not offline_notes.teams("I moved the WAL to its own disk.")


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("Brooks Ghost", False),  # running shoes, not the CMS
        ("Asics Nimbus Edge", False),  # not the browser
        ("Rust Belt", False),  # a region, not the language
        ("Hoka Clifton", False),
        ("Ghost", True),
        ("Ghost Pro", True),
        ("Postgres 16", True),
        ("Amazon S3", True),  # a product word no English word, inside a longer name
        ("Notion", True),
    ],
)
def test_a_product_word_inside_a_longer_name_needs_its_context(name: str, known: bool) -> None:
    assert known_product(name) is known


def test_a_tool_said_in_the_active_voice_is_read_only_for_a_product() -> None:
    assert firsts("I do all my road miles in Brooks Ghost trainers") == []
    assert firsts("I keep my spare keys in a Rust Belt tin") == []
    assert firsts("We host the marketing blog on Ghost") == [("marketing blog", "uses", "Ghost")]
    assert firsts("We run the docs site on Ghost Pro") == [("docs site", "uses", "Ghost Pro")]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("a Google Sheet owned by User", "Google Sheet"),
        ("the runbook written by Lena", "runbook"),
        ("the shed by the lake", "shed"),  # no participle: "by" ends it as before
    ],
)
def test_a_participle_and_its_agent_are_no_part_of_a_phrase(text: str, found: str) -> None:
    assert phrase(text) == found


@pytest.mark.parametrize("label", ["Owners", "Reviewers", "Assignees", "Attendees"])
def test_a_list_label_before_a_colon_is_no_speaker(label: str) -> None:
    assert not can_speak(label)
    assert can_speak("Priya")


def _read(mem: Memory, text: str, user: str) -> tuple[list[str], set[tuple[str, str, str]]]:
    mem.add(text, user_id=user)
    mem.jobs.process_pending()
    facts = [r.content for r in mem.get_all(user_id=user, limit=100) if r.who == PIPELINE_WHO]
    rels = mem.graph.relations(None, False, limit=100, user_id=user)
    return facts, {(r.source, r.relation_type, r.target) for r in rels}


def test_the_notes_pass_keeps_what_was_said(mem: Memory) -> None:
    facts, _ = _read(mem, "We A/B test with GrowthBook and require 95% confidence.", "n1")
    assert facts == ["The team A/B tests with GrowthBook and requires 95% confidence."]
    facts, rels = _read(mem, "The experiment results live in a Google Sheet owned by me.", "n2")
    # the owner's label, as the whole pass writes it ("Sam gave User a book")
    assert facts == ["The experiment results live in a Google Sheet owned by User."]
    assert all("owned" not in target for _, _, target in rels)
    _, rels = _read(mem, "I do all my road miles in Brooks Ghost trainers.", "n3")
    assert not any(kind == "uses_cms" for _, kind, _ in rels)
    _, rels = _read(mem, "We host the marketing blog on Ghost.", "n4")
    assert ("marketing blog", "uses_cms", "Ghost") in rels
    facts, _ = _read(mem, "Owners: billing is mine, search is Dev's, auth is Priya's.", "n5")
    assert not any("Owners's" in fact for fact in facts)

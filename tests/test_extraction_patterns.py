"""Seed 004's decision auto-protection battery (FEATURES P9): every pattern fires on the
phrase the seed lists, and everyday look-alikes do not."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import patterns
from engram.pipeline.patterns import DECISION_PATTERNS, decision_matches, is_decision_content
from engram.pipeline.triples import relation_triples

#: One sentence per battery pattern, in the seed's wording.
DECISIONS = {
    "chose_over": "We chose to use Postgres over MySQL for the event store.",
    "decided": "After the outage we decided against running our own Kafka.",
    "switched": "The team switched from npm to pnpm last sprint.",
    "migrated": "We migrated the billing database from MySQL to Postgres.",
    "picked_over": "I picked Rust over Go for the new parser.",
    "went_with": "In the end we went with FastAPI.",
    "sticking_with": "We are sticking with Python 3.11 until the spring.",
    "committed_to": "The team committed to monthly releases.",
    "settled_on": "We settled on snake_case for every table name.",
    "will_use": "We'll stick with the plan and will use Redis for caching.",
    "prefers_over": "Priya prefers tabs over spaces.",
    "adopted": "The platform team adopted TypeScript for all new services.",
    "architecture": "Architecture decision: events are the source of truth.",
    "design": "Keeping the API synchronous was a deliberate design decision.",
}


def test_the_battery_has_the_seeds_fourteen_patterns() -> None:
    assert [p.name for p in DECISION_PATTERNS] == list(DECISIONS)
    assert len(DECISION_PATTERNS) == 14


@pytest.mark.parametrize(("name", "text"), DECISIONS.items(), ids=list(DECISIONS))
def test_each_pattern_finds_its_phrase(name: str, text: str) -> None:
    assert name in decision_matches(text)
    assert is_decision_content(text)


@pytest.mark.parametrize(
    "text",
    [
        "decided to go with SQLite",
        "We migrated away from Heroku.",
        "switching over to the new runner",
        "chosen to use the managed service",
        "They decided on a name for the project.",
        "I'm going to use the old laptop for now.",
        "She preferred coffee instead of tea that morning.",
    ],
)
def test_variants_of_the_phrases_match(text: str) -> None:
    assert is_decision_content(text)


@pytest.mark.parametrize(
    "text",
    [
        # questions are not decisions
        "Have you decided on a name yet?",
        "Should we switch to pnpm?",
        # negated
        "We haven't decided on a name yet.",
        "I never switched to vim.",
        "We didn't go with the cheaper plan.",
        # everyday senses of loosely worded patterns
        "I went with my sister to the mall.",
        "I'll go with you to the park.",
        "We adopted a puppy from the shelter.",
        "Caroline adopted two kids last year.",
        "My adopted son starts school in May.",
        "The dust settled on the old shelf.",
        "I committed to the repo this morning.",
        "I picked up some groceries.",
        "She prefers tabs.",
        "I chose a sandwich for lunch.",
        "He switched the light on.",
        "The birds migrated south.",
        "That was an architectural marvel.",
        "",
    ],
)
def test_look_alikes_do_not_match(text: str) -> None:
    assert decision_matches(text) == []
    assert not is_decision_content(text)


def test_a_decision_elsewhere_in_the_text_still_counts() -> None:
    text = "Did you see the game? Anyway, we decided to move the launch to May."
    assert decision_matches(text) == ["decided"]


@pytest.mark.parametrize(
    ("fact", "triple"),
    [
        ("Jon is a banker.", ("Jon", "is_a", "banker")),
        ("Alice works at Google.", ("Alice", "works_at", "Google")),
        ("Alice lives in Zurich.", ("Alice", "lives_in", "Zurich")),
        ("Nate owns a turtle tank.", ("Nate", "owns", "turtle tank")),
        (
            "Jon's favorite dance style is contemporary.",
            ("Jon", "favorite_dance_style", "contemporary"),
        ),
        ("Contemporary is Jon's top pick.", ("Jon", "top_pick", "Contemporary")),
        ("Caroline moved to Sweden four years ago.", ("Caroline", "moved_to", "Sweden")),
        ("Bob married Carol.", ("Bob", "married", "Carol")),
        (
            "Caroline went to a LGBTQ support group yesterday.",
            ("Caroline", "attended", "LGBTQ support group"),
        ),
        ("Jon went to Paris.", ("Jon", "visited", "Paris")),
        ("Tim joined a travel club.", ("Tim", "joined", "travel club")),
        ("Maria is from Spain.", ("Maria", "from", "Spain")),
    ],
)
def test_relation_patterns(fact: str, triple: tuple[str, str, str]) -> None:
    found = [(r.source, r.relationship, r.target) for r in relation_triples(fact)]
    assert triple in found


def test_a_shared_subject_gives_each_verb_its_triple() -> None:
    found = {
        (r.relationship, r.target)
        for r in relation_triples("Alice works at Google and lives in Zurich.")
    }
    assert found == {("works_at", "Google"), ("lives_in", "Zurich")}


@pytest.mark.parametrize(
    "fact",
    [
        "Jon had a great time at the party.",  # a vague head is no entity
        "Nate picked up a few new recipes.",  # "picked up" is not a choice
        "It is a bit nerve-wracking.",  # no named subject
        "Jon loves it.",  # a pronoun is no target
    ],
)
def test_no_triple_from_vague_facts(fact: str) -> None:
    assert relation_triples(fact) == []


@pytest.mark.parametrize(
    ("fact", "triple"),
    [
        # task extract20: what the change reader names (change_words.phrase) is the
        # target, or the extract job's fact and the change claim close each other.
        ("User's rent is $1500.", ("User", "rent", "$1500", 0.6)),
        ("User's rent is 950 pounds a month now.", ("User", "rent", "950 pounds", 0.6)),
        ("User's gym membership is $40 a month.", ("User", "gym_membership", "$40", 0.6)),
        ("User's dentist is Dr. Patel.", ("User", "dentist", "Dr Patel", 0.6)),
        ("User's car is a 2012 Corolla.", ("User", "car", "2012 Corolla", 0.6)),
        ("User's favorite show is The Bear now.", ("User", "favorite_show", "Bear", 0.6)),
        ("User's new manager is Tom.", ("User", "manager", "Tom", 0.6)),
        # The past says where someone was: below the closing plan's 0.65.
        ("User lived in Lyon for 3 years.", ("User", "lives_in", "Lyon", 0.6)),
        ("Jon worked at Acme.", ("Jon", "works_at", "Acme", 0.6)),
        ("Jon lives in Lyon.", ("Jon", "lives_in", "Lyon", 0.75)),
    ],
)
def test_targets_are_named_as_the_change_reader_names_them(
    fact: str, triple: tuple[str, str, str, float]
) -> None:
    assert [(r.source, r.relationship, r.target, r.confidence) for r in relation_triples(fact)] == [
        triple
    ]


def test_a_new_job_names_no_entity() -> None:
    assert relation_triples("User started a new job at Spotify.") == []


def test_triple_confidence_never_exceeds_the_facts() -> None:
    (triple,) = relation_triples("Alice works at Google.", confidence=0.4)
    assert triple.confidence == 0.4


def test_a_name_ending_in_a_letter_outside_ascii_is_read_whole() -> None:
    # "Nestlé" was cut to "Nestl" (a word had to end in an ASCII letter or digit).
    names = patterns.proper_names("We moved from Nestlé to Danone; my car is a Renault Mégane.")
    assert names == ["Nestlé", "Danone", "Renault Mégane"]


def test_a_name_opening_with_a_capital_outside_ascii_is_read() -> None:
    # A name had to open with A-Z: "Émilie", "Łódź" and "Ørsted" were no names.
    assert patterns.proper_names("I met Émilie at work.") == ["Émilie"]
    assert patterns.proper_names("My friend Łukasz lives in Łódź.") == ["Łukasz", "Łódź"]
    assert patterns.proper_names("We buy our power from Ørsted now.") == ["Ørsted"]


def test_the_graph_names_a_brand_ending_in_an_accent_whole(mem: Memory) -> None:
    mem.add("The office coffee supplier is Nestlé.", user_id="ana")
    names = {e.name for e in mem.graph.entities(user_id="ana")}
    assert "Nestlé" in names and "Nestl" not in names

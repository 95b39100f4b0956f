"""The offline extractor on message lists and compound sentences (FEATURES P2, issue
28): speakers resolved per message, role prefixes dropped, an assistant's words not
taken as the user's facts, compound sentences split into atomic claims, and a fact
emitted only when it says something the raw text does not already say in that form."""

from __future__ import annotations

import re

import pytest

from engram import validate
from engram.pipeline import change_signals
from engram.pipeline import claims as attribute_claims
from engram.pipeline.extraction import extract_offline
from engram.pipeline.offline import analyse, split_speaker
from engram.pipeline.turns import Reading, claim_clauses, clauses, messages, split_sentences


def facts(text: str, *, speaker: str | None = None) -> list[str]:
    return [f.content for f in analyse(text, speaker=speaker).facts]


def test_a_message_list_resolves_each_speaker_and_drops_role_prefixes() -> None:
    text = validate.content_text(
        [
            {
                "role": "user",
                "content": "Derek: My sister lives in Porto and I visit Porto every May.",
            },
            {"role": "assistant", "content": "Nice! I love Porto, I moved there in 2019."},
            {"role": "user", "content": "Derek: I swapped the efoil battery for a 48V one."},
        ]
    )
    assert text.startswith("user: Derek: My sister")  # how a message list is stored
    result = analyse(text)
    assert result.speaker == "Derek"
    found = [f.content for f in result.facts]
    assert found == [
        "Derek's sister lives in Porto.",  # one claim per clause
        "Derek visits Porto every May.",
        "Derek swapped the efoil battery for a 48V one.",
    ]
    assert not any(f.startswith(("User", "user", "Assistant")) for f in found)
    assert not any("2019" in f for f in found)  # the assistant's words are not Derek's


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "User: Derek: My sister adopted a puppy named Rex.",
            ["Derek's sister adopted a puppy named Rex."],
        ),
        ("user: My sister adopted a puppy named Rex.", ["My sister adopted a puppy named Rex."]),
        (
            "Human: I moved to Lisbon in 2021 for the surf.",
            ["I moved to Lisbon in 2021 for the surf."],
        ),
        ("assistant: I moved to Lisbon in 2021 for the surf.", []),
    ],
)
def test_role_prefixes_are_not_speakers(text: str, expected: list[str]) -> None:
    assert facts(text) == expected


def test_a_role_with_the_given_speaker_resolves_first_person() -> None:
    assert facts("user: My sister adopted a puppy named Rex.", speaker="Ana") == [
        "Ana's sister adopted a puppy named Rex."
    ]


def test_lines_without_a_prefix_continue_their_message() -> None:
    said = messages("Derek: I rebuilt the efoil.\nIt took two weekends.\nMaria: Wow, nice work!")
    assert [(m.speaker, m.text) for m in said] == [
        ("Derek", "I rebuilt the efoil.\nIt took two weekends."),
        ("Maria", "Wow, nice work!"),
    ]
    assert split_speaker("User: hi there") == (None, "hi there")


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        (
            "Some stuff has been going on; last week I dropped off cookies at the shelter",
            ["Some stuff has been going on", "Last week I dropped off cookies at the shelter"],
        ),
        (
            "It was great and I'm more motivated than ever to help people",
            ["It was great", "I'm more motivated than ever to help people"],
        ),
        (
            "I moved from Sweden four years ago, and my friends helped a lot",
            ["I moved from Sweden four years ago", "My friends helped a lot"],
        ),
        ("Jon and Ana went to Paris last May", ["Jon and Ana went to Paris last May"]),
        ("I tried it and I did", ["I tried it and I did"]),  # too short to split
        ("I bought bread and milk at the market", ["I bought bread and milk at the market"]),
    ],
)
def test_compound_sentences_split_where_a_clause_has_its_own_subject(
    sentence: str, parts: list[str]
) -> None:
    assert clauses(sentence) == parts


def test_compound_sentences_give_atomic_claims() -> None:
    # Every clause stands alone: one fact each.
    assert facts("Jon: I moved to Berlin in 2020, and my sister moved to Madrid in 2021.") == [
        "Jon moved to Berlin in 2020.",
        "Jon's sister moved to Madrid in 2021.",
    ]
    # "It was great" leans on another sentence, and so does the whole: the clause that
    # stands alone is kept.
    assert facts("Maria: It was great and I'm more motivated than ever to help people.") == [
        "Maria is more motivated than ever to help people."
    ]
    # A clause too thin to stand alone ("my friends helped a lot") keeps the sentence
    # whole, so what it adds is not lost.
    assert facts("Caroline: I moved from Sweden four years ago, and my friends helped a lot.") == [
        "Caroline moved from Sweden four years ago, and Caroline's friends helped a lot."
    ]


def test_a_dropped_gonna_subject_is_the_speaker() -> None:
    assert facts("Caroline: Gonna volunteer at shelters next month. Can't wait!") == [
        "Caroline is going to volunteer at shelters next month."
    ]


def test_a_plain_fact_that_restates_the_text_is_not_emitted() -> None:
    plain = "Alice works at Google and lives in Zurich."
    result = analyse(plain)
    assert result.facts == ()  # the raw memory already says it, in that form
    assert ("Alice", "lives_in", "Zurich") in {
        (t.source, t.relationship, t.target) for t in result.triples
    }
    assert extract_offline(plain).facts == ()
    # Resolved, it is a new form: kept.
    assert facts("Alice: I work at Google.") == ["Alice works at Google."]
    # A typed fact adds its type, which the raw text lacks: kept.
    [decision] = analyse("We decided to migrate the auth service to Postgres.").facts
    assert decision.type == "decision"


@pytest.mark.parametrize(
    ("text", "speaker"),
    [
        ("Ana Maria Lopez: I moved to Lisbon.", "Ana Maria Lopez"),  # three words
        ("Dr. Smith: I moved to Lisbon.", "Dr. Smith"),
        ("User: I moved to Lisbon.", None),  # a role, not a person
    ],
)
def test_both_claim_readers_take_the_speaker_the_extractor_takes(
    text: str, speaker: str | None
) -> None:
    # One speaker parser (turns.split_speaker) for the extractor, the contradiction
    # detector's attribute claims and the change claims (issue 28).
    assert split_speaker(text)[0] == speaker
    [attribute] = attribute_claims.read(text)
    assert attribute.subject == ((speaker.lower(),) if speaker else ("i",))
    [change] = change_signals.read(text)
    assert change.source == (speaker or "user")


def test_claim_clauses_drop_questions_unless_a_statement_leads_into_one() -> None:
    split = Reading(sentences=split_sentences, clauses=clauses)
    assert claim_clauses("Sam: Did you move? I moved to Lisbon.", split) == (
        "Sam",
        ["I moved to Lisbon."],
    )
    tail = re.compile(r",\s+should\b")
    leading = Reading(sentences=split_sentences, clauses=clauses, question_tail=tail, strip=".")
    assert claim_clauses("I never used Vue, should I?", leading) == (None, ["I never used Vue"])

"""The offline, rule-based extractor (FEATURES P2): speakers, first person resolved to
them, preferences, decisions, dates, what is dropped, and entity triples."""

from __future__ import annotations

import pytest

from engram.pipeline.extraction import MAX_FACTS, OFFLINE_MODEL, extract_offline
from engram.pipeline.offline import (
    ANCHOR_BONUS,
    MAX_CONFIDENCE,
    RULE_CONFIDENCE,
    OfflineFact,
    analyse,
    resolve_person,
    split_sentences,
    split_speaker,
)
from engram.pipeline.triples import noun_phrase
from engram.records import MemoryType


def facts(text: str, *, speaker: str | None = None) -> list[str]:
    return [f.content for f in analyse(text, speaker=speaker).facts]


def only(text: str) -> OfflineFact:
    (fact,) = analyse(text).facts
    return fact


def triples(text: str) -> set[tuple[str, str, str]]:
    return {(t.source, t.relationship, t.target) for t in analyse(text).triples}


# -- speakers and first person ---------------------------------------------------------


def test_a_chat_turn_resolves_first_person_to_its_speaker() -> None:
    result = analyse("Caroline: I went to a LGBTQ support group yesterday and it was so powerful.")
    assert result.speaker == "Caroline"
    assert [f.content for f in result.facts] == [
        "Caroline went to a LGBTQ support group yesterday and it was so powerful."
    ]
    assert ("Caroline", "attended", "LGBTQ support group") in {
        (t.source, t.relationship, t.target) for t in result.triples
    }


@pytest.mark.parametrize(
    ("text", "speaker", "rest"),
    [
        ("Caroline: hi there", "Caroline", "hi there"),
        ("Mary Ann Lee: we met", "Mary Ann Lee", "we met"),
        ("Note: the deploy key rotates monthly", None, "Note: the deploy key rotates monthly"),
        ("TODO: write the docs", None, "TODO: write the docs"),
        ("no speaker here", None, "no speaker here"),
        ("Time: 10:30", None, "Time: 10:30"),
    ],
)
def test_split_speaker(text: str, speaker: str | None, rest: str) -> None:
    assert split_speaker(text) == (speaker, rest)


@pytest.mark.parametrize(
    ("sentence", "resolved"),
    [
        ("I love hiking", "Jon loves hiking"),
        ("I really enjoy jazz", "Jon really enjoys jazz"),
        ("I went home", "Jon went home"),
        ("I retook the test", "Jon retook the test"),
        ("I have two cats", "Jon has two cats"),
        ("I have to leave", "Jon has to leave"),
        ("I'm a nurse", "Jon is a nurse"),
        ("I've been busy", "Jon has been busy"),
        ("I don't smoke", "Jon doesn't smoke"),
        ("I'd love a dog", "Jon would love a dog"),
        ("I'd been there", "Jon had been there"),
        ("I'll call Ana", "Jon will call Ana"),
        ("I watch films", "Jon watches films"),
        ("I study law", "Jon studies law"),
        ("I'm gonna paint", "Jon is going to paint"),
        ("I wanna travel", "Jon wants to travel"),
        ("my dog loves me", "Jon's dog loves them"),
        ("it made me happy", "it made Jon happy"),
        ("we moved to Oslo with our kids", "Jon and others moved to Oslo with Jon's kids"),
        ("I’m tired", "Jon is tired"),
    ],
)
def test_first_person_becomes_the_speaker(sentence: str, resolved: str) -> None:
    assert resolve_person(sentence.replace("\u2019", "'"), "Jon") == resolved


def test_without_a_speaker_first_person_stays_as_written() -> None:
    assert facts("I prefer dark mode in every editor.") == ["I prefer dark mode in every editor."]
    assert facts("I prefer dark mode in every editor.", speaker="Priya") == [
        "Priya prefers dark mode in every editor."
    ]


def test_a_named_speaker_prefix_wins_over_the_speaker_argument() -> None:
    assert facts("Jon: I moved to Berlin.", speaker="Priya") == ["Jon moved to Berlin."]


def test_a_dropped_subject_is_put_back() -> None:
    assert facts("Jon: Lost my job as a banker yesterday.") == [
        "Jon lost their job as a banker yesterday."
    ]
    assert facts("Jon: Finishing up choreography for the festival next month.") == [
        "Jon is finishing up choreography for the festival next month."
    ]
    # a gerund subject is not a dropped "I'm"
    assert facts("Gina: Starting a store is scary and rewarding.") == [
        "Gina thinks starting a store is scary and rewarding."
    ]


# -- what kind of fact -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Jon: I love all dances, but contemporary is my top pick.",
        "Jon: My favorite food is ramen from the place downtown.",
        "Jon: I'm a huge fan of Studio Ghibli films.",
        "Nate: I've always liked turtles since I was a boy.",
    ],
)
def test_preferences(text: str) -> None:
    fact = only(text)
    assert fact.type == "preference"
    assert fact.confidence >= RULE_CONFIDENCE["preference"]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "Priya: We decided to use Postgres over MySQL for billing.",
            "Priya and others decided to use Postgres over MySQL for billing.",
        ),
        (
            "We migrated the auth service away from Heroku.",
            "We migrated the auth service away from Heroku.",
        ),
        (
            "John: Last week, I decided to run for office again.",
            "Last week, John decided to run for office again.",
        ),
    ],
)
def test_decisions(text: str, content: str) -> None:
    fact = only(text)
    assert (fact.content, fact.type, fact.rule) == (content, "decision", "decision")


def test_a_how_to_is_procedural() -> None:
    fact = only("To deploy, run make release from the main branch.")
    assert (fact.type, fact.rule) == ("procedural", "procedural")


def test_a_definition_in_plain_text_is_semantic() -> None:
    fact = only("Redis is an in-memory data store used for caching.")
    assert fact.type == "semantic"


def test_a_speakers_general_statement_is_attributed_to_them() -> None:
    assert facts("Gina: Setbacks are just opportunities for comebacks.") == [
        "Gina thinks setbacks are just opportunities for comebacks."
    ]
    assert facts("Tim: All the hard work paid off in the end.") == [
        "Tim says all the hard work paid off in the end."
    ]


def test_dates_and_quantities_are_kept_on_less_content_and_score_higher() -> None:
    # two content words: kept only because of the date / the count
    dated = only("Melanie: I painted a lake sunrise last year.")
    counted = only("Nate: I have three turtles.")
    plain = only("Tim: I'm reading a fantasy book that captivates me.")
    assert dated.confidence == counted.confidence
    assert dated.confidence == pytest.approx(RULE_CONFIDENCE["first_person"] + ANCHOR_BONUS)
    assert plain.confidence == RULE_CONFIDENCE["first_person"]
    assert facts("Tim: I'm reading.") == []


def test_no_confidence_passes_the_cap() -> None:
    found = analyse("Priya: Yesterday we decided to switch from npm to pnpm for 3 repos.").facts
    assert found and all(0.0 < f.confidence <= MAX_CONFIDENCE for f in found)


# -- what is dropped -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Gina: Hey Jon! Good to see you. What's up?",
        "Jon: Thanks, Gina! You're amazing at this.",
        "Melanie: Sounds awesome, Caroline! Have a great time and learn a lot. Have fun!",
        "Joanna: Let's keep going for our dreams and work hard.",
        "Nate: Pets really seem to do that to everyone, don't they!",
        "Tim: Wow! Winning must have been so thrilling!",
        "Nate: I made it with coconut milk and sugar.",
        "John: I bet they bring lots of joy to the family.",
        "Caroline: It was a wild and wonderful experience.",
        "Nate: Is taking care of them tough?",
    ],
)
def test_small_talk_questions_and_dangling_sentences_are_dropped(text: str) -> None:
    assert facts(text) == []


def test_what_follows_the_listener_is_cut() -> None:
    assert facts("Joanna: I took a road trip for research while you were winning.") == [
        "Joanna took a road trip for research."
    ]


def test_a_shown_thing_becomes_indefinite() -> None:
    assert facts("John: I made this apple pie for the kids yesterday.") == [
        "John made an apple pie for the kids yesterday."
    ]


def test_an_image_caption_is_not_the_speakers_statement() -> None:
    text = "Melanie: I finished my first pottery class. [image: a photo of a cat on a bowl]"
    assert facts(text) == ["Melanie finished their first pottery class."]


def test_facts_are_standalone_sentences() -> None:
    text = (
        "Caroline: Hey Mel! Good to see you! Yeah, I moved from Sweden four years ago, "
        "and my friends helped a lot. I'm also researching adoption agencies!!"
    )
    found = facts(text)
    assert found == [  # "my friends helped a lot" is too thin alone: the sentence stays whole
        "Caroline moved from Sweden four years ago, and Caroline's friends helped a lot.",
        "Caroline is also researching adoption agencies.",
    ]
    assert all(f[0].isupper() and f.endswith(".") for f in found)


def test_repeated_sentences_give_one_fact() -> None:
    assert len(facts("Jon: I moved to Berlin. I moved to Berlin.")) == 1


def test_sentences_split_at_ends_but_not_at_abbreviations_or_decimals() -> None:
    text = "Dr. Smith moved to St. Louis in 2019. It costs 3.5 dollars!\nNew line here"
    assert split_sentences(text) == [
        "Dr. Smith moved to St. Louis in 2019.",
        "It costs 3.5 dollars!",
        "New line here",
    ]


def test_a_dotted_acronym_ends_no_sentence_before_a_lower_case_word() -> None:
    # "R." cut "My favourite artist is R.E.M. now." and gave the triple's target "R"
    # (task x21); before a capital the acronym may end the sentence, so it does.
    text = (
        "My favourite artist is R.E.M. now. We moved to the U.S. last year. "
        "I love the U.S. It is big."
    )
    assert split_sentences(text) == [
        "My favourite artist is R.E.M. now.",
        "We moved to the U.S. last year.",
        "I love the U.S.",
        "It is big.",
    ]
    assert noun_phrase("R.E.M. now") == "R.E.M"


# -- triples ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("Jon: I'm a banker at a local bank.", ("Jon", "is_a", "banker")),
        ("Alice: I work at Google now.", ("Alice", "works_at", "Google")),
        ("Maria: I live in Madrid with my sister.", ("Maria", "lives_in", "Madrid")),
        ("Nate: I own a turtle tank with three turtles.", ("Nate", "owns", "turtle tank")),
        (
            "Jon: My favorite dance style is contemporary.",
            ("Jon", "favorite_dance_style", "contemporary"),
        ),
        ("Caroline: I moved to Sweden four years ago.", ("Caroline", "moved_to", "Sweden")),
        ("Melanie: I married Tom in 2018.", ("Melanie", "married", "Tom")),
        ("Gina: I love contemporary dance.", ("Gina", "likes", "contemporary dance")),
        ("Alice works at Google and lives in Zurich.", ("Alice", "lives_in", "Zurich")),
    ],
)
def test_entity_triples(text: str, triple: tuple[str, str, str]) -> None:
    assert triple in triples(text)


# -- through the public extraction path -----------------------------------------------


def test_extract_offline_validates_like_a_models_answer() -> None:
    text = " ".join(f"Jon: I visited museum number {n} in Paris." for n in range(30))
    result = extract_offline(text.replace(" Jon:", "\nJon:"))
    assert result.model == OFFLINE_MODEL
    assert not result.failed
    assert len(result.facts) == MAX_FACTS
    assert any("over the cap of 20" in w for w in result.warnings)
    assert all(isinstance(f.type, MemoryType) for f in result.facts)


def test_deterministic_over_a_thousand_turns() -> None:
    """The same turn gives the same analysis every time it comes back. The speed
    ("thousands of turns per second") is `engram bench extraction`'s turns_per_second
    (docs/benchmarks.md), not timed here: a throughput floor on a shared machine fails
    under load."""
    turns = [
        "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
        "Melanie: Yeah, I painted that lake sunrise last year! It's special to me.",
        "Jon: Hey Gina! Lost my job as a banker yesterday, so I'm gonna start my own business.",
        "Gina: Wow, that's cool! What business are you thinking of?",
    ] * 250
    first = [analyse(t) for t in turns[:4]]
    again = [analyse(t) for t in turns]
    assert again == first * 250

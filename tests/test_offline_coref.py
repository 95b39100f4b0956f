"""Pointers resolved across sentences, the turn before and a photo's caption (issue 28,
fifth pass, engram.pipeline.offline_coref): a pointer becomes the one phrase it clearly
stands for; when two fit, or none, the sentence stays dropped."""

from __future__ import annotations

import pytest

from engram.bench.extraction import SourceTurn, extract_turns, previous_turns
from engram.pipeline import offline_coref
from engram.pipeline.offline import analyse


def read(text: str, before: str | None = None) -> list[tuple[str, str]]:
    return [(f.content, f.rule) for f in analyse(text, before=before).facts]


@pytest.mark.parametrize(
    ("text", "before", "fact"),
    [
        (  # the other speaker's question names the thing
            "Ines: Thanks! It's from my aunt in Lisbon.",
            "Theo: Love the bracelet, any story behind it?",
            "The bracelet is from Ines's aunt in Lisbon.",
        ),
        (  # the turn before asks about it: "that vase" -> "the vase"
            "Ines: Yes, I made it in ceramics class last week.",
            "Theo: That vase is lovely! Did you make it?",
            "Ines made the vase in ceramics class last week.",
        ),
        (  # an earlier sentence of the same turn, "they" plural
            "Ines: My cousins visited on Sunday. They really help me relax.",
            None,
            "Ines's cousins really help them relax.",
        ),
    ],
)
def test_a_pointer_is_read_as_the_phrase_it_stands_for(
    text: str, before: str | None, fact: str
) -> None:
    assert (fact, "coref") in read(text, before)


def test_the_thing_made_is_named_from_the_photo_caption() -> None:
    text = "Ines: I made it for my brother's wedding. [image: a photo of a blue quilt on a bed]"
    assert read(text) == [("Ines made a blue quilt for their brother's wedding.", "coref")]


def test_a_caption_names_only_what_was_made_not_a_subject() -> None:
    # "It" as a subject could be anything the photo shows: the caption is not used.
    text = "Ines: It really helps me unwind. [image: a photo of a blue quilt on a bed]"
    assert read(text) == []


def test_two_candidates_of_the_same_kind_refuse() -> None:
    # "the lamp" and "the rug" both fit "it", and neither is the subject.
    before = "Theo: I saw the lamp next to the rug. Where did you get it?"
    assert read("Ines: I got it at a flea market in Porto.", before) == []


def test_number_and_person_must_agree() -> None:
    # "she" cannot be "the bracelet"; "they" cannot be one bracelet.
    before = "Theo: Love the bracelet!"
    assert read("Ines: She gave me a hug on my birthday.", before) == []
    assert read("Ines: They remind me of home every single day.", before) == []


def test_reactions_and_extraposed_it_are_not_resolved() -> None:
    before = "Theo: How was the concert in Porto?"
    assert read("Ines: It was great!", before) == []
    assert read("Ines: It's amazing what music can do for us.", before) == []


def test_what_the_speaker_said_before_is_not_another_turn() -> None:
    # The turn before is the same speaker's: its "your" is not this speaker's thing.
    assert offline_coref.context(None, offline_coref.Message("Ines", "x"), None).before is None


def test_here_is_a_photo_of_my_thing_is_a_photo_shared() -> None:
    text = "Ines: Here's a pic of my kids building a sandcastle at the lake."
    assert read(text) == [
        ("Ines shared a pic of their kids building a sandcastle at the lake.", "shared")
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Ines: Check out these kittens I found behind the bakery!",
            "Ines found some kittens behind the bakery.",
        ),
        (
            "Ines: Here's a pic from when I was climbing in Kalymnos.",
            "Ines shared a pic from when Ines was climbing in Kalymnos.",
        ),
    ],
)
def test_a_thing_shown_with_what_the_speaker_did(text: str, fact: str) -> None:
    assert read(text) == [(fact, "shared")]


@pytest.mark.parametrize(
    ("before", "text", "fact"),
    [
        (
            "Theo: What a lovely wedding photo! How long have you been married?",
            "Ines: 7 years already!",
            "Ines has been married for 7 years.",
        ),
        (
            "Theo: Nice! What's your favorite board game?",
            "Ines: Catan!",
            "Ines's favorite board game is Catan.",
        ),
        (
            "Theo: How long have you been playing the cello?",
            "Ines: Since I was 12 or so.",
            "Ines has been playing the cello since Ines was 12 or so.",
        ),
        (
            "Theo: Cool trip! Have you been sailing before?",
            "Ines: Yeah, plenty of times.",
            "Ines has been sailing before, plenty of times.",
        ),
        (
            "Theo: Have you been to the Louvre in Paris?",
            "Ines: Nope, I haven't.",
            "Ines hasn't been to the Louvre in Paris.",
        ),
        (
            "Theo: What topics have you been working on lately?",
            "Ines: Mostly, river ecology and flood maps.",
            "Ines has been working on river ecology and flood maps.",
        ),
    ],
)
def test_a_fragment_answering_the_question_before_is_joined_to_it(
    before: str, text: str, fact: str
) -> None:
    assert read(text, before) == [(fact, "answer")]


def test_a_yes_is_no_answer_to_a_favorite_or_to_a_pointer() -> None:
    assert read("Ines: Yep!", "Theo: What's your favorite board game?") == []
    assert read("Ines: Yes, I do.", "Theo: Do you use that laptop for gaming?") == []


def test_she_may_be_a_name_said_before_but_not_a_speaker() -> None:
    text = "Ines: Her name is Luna! She's been a great addition to my life."
    assert ("Luna has been a great addition to Ines's life.", "coref") in read(text)
    text = "Ines: I called Theo. She's been a great help with my thesis."
    # Theo speaks: not who "she" is
    assert [rule for _, rule in read(text, "Theo: Hi Ines!")] == ["first_person"]
    assert ("Theo has been a great help with Ines's thesis.", "coref") in read(text)


def test_this_thing_with_the_speaker_in_its_clause_is_theirs() -> None:
    text = "Ines: These lanterns I bought in Hanoi remind me of home."
    assert read(text) == [("Ines's lanterns Ines bought in Hanoi remind them of home.", "coref")]


def test_a_fragment_without_a_question_before_gives_nothing() -> None:
    assert read("Ines: 7 years already!") == []
    assert read("Ines: 7 years already!", "Theo: Married life suits you.") == []


def test_a_message_list_reads_each_message_with_the_one_before() -> None:
    text = (
        "user: Theo: Love the bracelet, any story behind it?\n"
        "user: Ines: It's from my aunt in Lisbon."
    )
    assert ("The bracelet is from Ines's aunt in Lisbon.", "coref") in read(text)


def test_the_bench_reads_each_turn_with_the_one_before_it_in_its_session() -> None:
    turns = [
        SourceTurn("c", "D1:1", "Theo: Love the bracelet, any story behind it?"),
        SourceTurn("c", "D1:2", "Ines: It's from my aunt in Lisbon."),
        SourceTurn("c", "D2:1", "Ines: It's from my aunt in Lisbon."),
    ]
    assert previous_turns(turns) == [None, turns[0].text, None]
    facts, _ = extract_turns(turns)
    assert [(f.dia_id, f.rule) for f in facts] == [("D1:2", "coref")]

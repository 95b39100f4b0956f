"""Forms the offline extractor used to drop whole: a view closed by a rhetorical tag, a
subject contracted with "is", and "me" put in by resolution (issue 28,
engram.pipeline.offline_forms)."""

from __future__ import annotations

import pytest

from engram.pipeline import offline_forms
from engram.pipeline.offline import analyse
from engram.pipeline.offline_confidence import RULE_CONFIDENCE


def read(text: str) -> list[tuple[str, str]]:
    return [(f.content, f.rule) for f in analyse(text).facts]


def test_a_view_closed_by_a_rhetorical_tag_is_the_speakers_view() -> None:
    assert read("Priya: Hiking with dogs can be so restoring, right?") == [
        ("Priya thinks hiking with dogs can be so restoring.", "tag_view")
    ]
    assert offline_forms.untag("Gardening slows me down, huh?") == "Gardening slows me down."


@pytest.mark.parametrize(
    "text",
    [
        "Priya: Is that right?",  # a real question, no comma before the tag
        "Priya: What do you think, right?",  # a question before the tag
        "Priya: We should go hiking sometime, right?",  # a suggestion to the listener
        "Priya: How was the trip?",
    ],
)
def test_questions_and_suggestions_with_a_tag_give_no_fact(text: str) -> None:
    assert read(text) == []


def test_a_subject_contracted_with_is_is_a_present_statement() -> None:
    assert read("Omar: Knitting's so calming and creative.") == [
        ("Omar thinks knitting's so calming and creative.", "opinion")
    ]
    assert offline_forms.contracted_present("The garden's doing great")
    # A pronoun's "'s" is no subject of its own: it leans on another turn.
    assert not offline_forms.contracted_present("No doubt it's been tough")
    assert not offline_forms.contracted_present("Omar's bike is red")


def test_me_put_in_by_resolution_is_not_a_pointer() -> None:
    # "me" -> "them" near the name used to read as "them" pointing at another turn.
    assert read("Omar: My brother motivates me to keep painting.") != []


@pytest.mark.parametrize(
    "text",
    [
        "Omar: Really made me think about my future.",  # "It really made me think"
        "Omar: Losing my job gave me the push to start over.",
    ],
)
def test_a_subjectless_sentence_with_the_speaker_as_object_is_not_first_person(
    text: str,
) -> None:
    assert not any(rule.startswith("elided") for _, rule in read(text))
    assert offline_forms.speaker_is_object(text.split(": ", 1)[1])


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Omar: It made me realize how important it is to ask for help.",
            "Omar realized how important it is to ask for help.",
        ),
        ("Omar: It reminded me why I love baking.", "Omar was reminded why Omar loves baking."),
        (
            "Omar: It taught me patience and how to listen.",
            "Omar learned patience and how to listen.",
        ),
    ],
)
def test_what_something_did_to_the_speaker_is_the_speakers_fact(text: str, fact: str) -> None:
    assert read(text) == [(fact, "caused")]


@pytest.mark.parametrize(
    "sentence",
    [
        "It made me happy.",  # no clause after "me": nothing to state
        "It reminds me of something from long ago.",  # what, is only said elsewhere
        "It reminded me of that trip.",
        "That made me realize a lot.",  # only "it" is read this way
    ],
)
def test_what_something_did_without_a_clause_is_not_read(sentence: str) -> None:
    assert offline_forms.speaker_caused(sentence) is None


def test_present_causes_keep_the_speakers_verb() -> None:
    # "makes me feel" -> "I feel" (resolution conjugates it: "Omar feels").
    assert offline_forms.speaker_caused("It makes me feel useful at work.") == (
        "I feel useful at work."
    )


def test_an_extraposed_it_and_an_adjective_before_a_time_are_no_pointers() -> None:
    assert offline_forms.without_extraposed_it("how important it is to rest") == "how to rest"
    assert read("Omar: I volunteered at the food bank in these tough times.") != []
    assert read("Omar: I volunteered at this shelter.") == []  # which shelter?


def test_this_before_a_longer_noun_phrase_introduces_a_thing() -> None:
    assert read("Omar: I love baking this dairy-free lemon cake.") == [
        ("Omar loves baking a dairy-free lemon cake.", "preference")
    ]
    assert offline_forms.introduced("found this old map") == "found an old map"
    # One word, a subject, a time or "these": still a pointer, left as it is.
    for kept in (
        "loves this team",
        "how this helps others",
        "after this next game",
        "all these kittens",
    ):
        assert offline_forms.introduced(kept) == kept


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # A past verb or "been V-ing": the speaker's event (issue 28, experiment 53).
        (
            "Omar: Lost my keys at the station yesterday.",
            ("Omar lost their keys at the station yesterday.", "elided_event"),
        ),
        (
            "Omar: Been restoring an old sailboat with my uncle.",
            ("Omar has been restoring an old sailboat with Omar's uncle.", "elided_event"),
        ),
        # "gonna V": a plan; the speaker's own doing.
        (
            "Omar: Gonna volunteer at the food bank in March.",
            ("Omar is going to volunteer at the food bank in March.", "elided_plan"),
        ),
        (
            "Omar: Still working on the pottery studio plans.",
            ("Omar is still working on the pottery studio plans.", "elided_doing"),
        ),
        (
            "Omar: Trying to finish my thesis before the holidays.",
            ("Omar is trying to finish their thesis before the holidays.", "elided_doing"),
        ),
        (
            "Omar: Busy with exams but finding time to paint.",
            ("Omar is busy with exams but finding time to paint.", "elided_doing"),
        ),
        (
            "Omar: Can't wait to take my niece sailing.",
            ("Omar can't wait to take their niece sailing.", "elided_plan"),
        ),
        # Other -ing openers keep the weak rule: often a reaction or a gerund subject.
        (
            "Omar: Volunteering and restoring old parks, so heartwarming.",
            ("Omar is volunteering and restoring old parks, so heartwarming.", "elided"),
        ),
    ],
)
def test_a_dropped_i_is_read_by_its_shape(text: str, fact: tuple[str, str]) -> None:
    facts = analyse(text).facts
    assert [(f.content, f.rule) for f in facts] == [fact]
    weak = RULE_CONFIDENCE["elided"]
    assert all((RULE_CONFIDENCE[f.rule] > weak) == (f.rule != "elided") for f in facts)


@pytest.mark.parametrize(
    "text",
    [
        "Omar: Been a busy week since we talked.",  # "It's been", not "I've been"
        "Omar: Gonna be a great night with the whole band.",  # "It's gonna be"
        "Omar: Mixed emotions about the move, honestly.",  # an adjective, not a past verb
    ],
)
def test_a_sentence_dropping_it_is_not_the_speakers_event(text: str) -> None:
    assert not any(rule.startswith("elided") for _, rule in read(text))

"""What a turn says of the listener it speaks to (issue 28, fourth pass,
engram.pipeline.offline_listener): the listener's own event is their fact; praise,
thanks and encouragement give none."""

from __future__ import annotations

import pytest

from engram.pipeline import offline_listener
from engram.pipeline.offline import analyse


def read(text: str) -> list[tuple[str, str]]:
    return [(f.content, f.rule) for f in analyse(text).facts]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Dev: Wow, Priya! You found the perfect spot for your bakery.",
            "Priya found the perfect spot for their bakery.",
        ),
        (
            "Dev: Hey Priya! I'm so proud of you for running the charity marathon.",
            "Priya is running the charity marathon.",
        ),
        (
            "Dev: Congrats on finishing your nursing degree, Priya!",
            "Dev congratulated Priya on finishing Priya's nursing degree.",
        ),
        (
            "Dev: Cool, Priya! You've built some great contacts at the food bank.",
            "Priya has built some great contacts at the food bank.",
        ),
    ],
)
def test_the_listeners_own_event_is_a_fact_about_them(text: str, fact: str) -> None:
    assert read(text) == [(fact, "listener")]


@pytest.mark.parametrize(
    "text",
    [
        "Dev: Your drive to help is awesome, Priya!",  # praise
        "Dev: Thanks, Priya! Your support means a lot to me.",  # thanks
        "Dev: You got this, Priya! You'll do great at the audition.",  # encouragement
        "Dev: Congrats on your success, Priya!",  # names no event
        "Dev: Priya, you did great at the show.",  # praise with a past verb
        "Dev: Talk to you soon, Priya!",
        "Dev: You found the perfect spot for your bakery.",  # nobody addressed
    ],
)
def test_praise_thanks_and_an_unnamed_listener_give_no_fact(text: str) -> None:
    assert [rule for _, rule in read(text)] == []


def test_the_listener_is_the_name_addressed_not_an_interjection_or_the_speaker() -> None:
    assert offline_listener.listener_in("Woohoo, Maria! Great news.", "John") == "Maria"
    assert offline_listener.listener_in("Oof, John, that's sad.", "Maria") == "John"
    assert offline_listener.listener_in("That's great, Mel!", "Caroline") == "Mel"
    assert offline_listener.listener_in("Hey Mel! Wow, great.", "Caroline") == "Mel"
    assert offline_listener.listener_in("Hey! How are you?", "Caroline") is None
    assert offline_listener.listener_in("Yes, Caroline, I did.", "Caroline") is None


def test_in_a_message_list_the_listener_is_who_spoke_before() -> None:
    text = "user: Priya: I opened my bakery last week.\nuser: Dev: You found a spot downtown!"
    assert ("Priya found a spot downtown.", "listener") in read(text)


def test_you_as_object_and_as_subject() -> None:
    assert offline_listener.as_listener("I'm so proud of you.", "Dev") == "Dev is so proud of me."
    assert offline_listener.as_listener("You and your family went.", "Dev") == (
        "Me and my family went."
    )
    assert offline_listener.as_listener("You are kind.", "Dev") == "I am kind."

"""The offline extractor leaves out a report on something only another turn names and
news without content, and reads a first-person subordinate clause as the speaker's own
event (issue 28, engram.pipeline.offline_context)."""

from __future__ import annotations

import pytest

from engram.pipeline.offline import analyse


def facts(text: str) -> list[str]:
    return [f.content for f in analyse(text).facts]


@pytest.mark.parametrize(
    "text",
    [
        "Priya: The concert was really moving.",  # which concert? another turn named it
        "Priya: Those dumplings were amazing, so much flavour.",
        "Priya: A lot has happened since we last talked!",
        "Priya: Something wild happened last Tuesday.",
    ],
)
def test_reports_on_other_turns_and_empty_news_give_no_fact(text: str) -> None:
    assert facts(text) == []


def test_general_views_and_news_with_content_are_still_kept() -> None:
    # A present-tense view on a topic, and news that says what happened.
    assert facts("Priya: Gardening is a great way to slow down.") == [
        "Priya thinks gardening is a great way to slow down."
    ]
    assert facts("Priya: Something wild happened - I adopted two ferrets last Tuesday.") != []


def test_a_first_person_subordinate_clause_is_the_speakers_event() -> None:
    [fact] = analyse("Omar: Since I lost my job at the bakery, things have been tough.").facts
    assert fact.rule == "first_person"
    assert fact.content == "Since Omar lost their job at the bakery, things have been tough."
    [young] = analyse("Omar: When I was younger, we moved to Lagos every summer.").facts
    assert young.rule == "first_person"
    assert "Omar was younger" in young.content

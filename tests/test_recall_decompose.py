"""issue 24: a question joining two things is also ranked as its parts (recall.decompose)."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder, ranked_hit
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import decompose


def test_two_names_joined_by_and_give_one_part_per_name() -> None:
    assert decompose.subqueries("What do Jon and Gina both have in common?") == [
        "What do Jon have in common?",
        "What do Gina have in common?",
    ]


def test_a_joining_word_cuts_the_question_at_its_connective() -> None:
    assert decompose.subqueries("Did Maria adopt a puppy before the charity run?") == [
        "Did Maria adopt a puppy",
        "the charity run?",
    ]
    assert decompose.subqueries("Compare the old garden plan and the new roof design") == [
        "Compare the old garden plan",
        "the new roof design",
    ]


def test_questions_that_join_nothing_stay_whole() -> None:
    assert decompose.subqueries("What activities does Melanie partake in?") == []
    # "and" alone does not split ("salt and pepper" is one thing) ...
    assert decompose.subqueries("Where does Tim buy salt and pepper?") == []
    # ... nor does a joining word with a side too thin to rank on its own.
    assert decompose.subqueries("What did Jon do after work?") == []


def test_interleave_takes_turns_and_keeps_each_memory_once() -> None:
    whole = [ranked_hit("a", 0.9), ranked_hit("b", 0.8), ranked_hit("c", 0.7)]
    first = [ranked_hit("a", 0.9), ranked_hit("d", 0.6)]
    second = [ranked_hit("e", 0.5)]
    merged = decompose.interleave([whole, first, second])
    assert [h.memory.id for h in merged] == ["a", "e", "b", "d", "c"]


def test_recall_brings_the_second_name_into_the_head(config: Config, store_location: str) -> None:
    turns = [
        ("Jon and Tim both like jazz", "s1"),
        ("Jon and Tim both like what they do", "s1"),
        ("Jon and his band both like jazz nights", "s1"),
        ("Gina: hats, always hats", "s2"),
        ("the weather was grey", "s3"),
    ]
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        for text, session in turns:
            mem.add(text, namespace="chat", session_id=session)

        def head(on: bool) -> list[str]:
            recall = mem.recall(
                "What do Jon and Gina both like?",
                namespace="chat",
                limit=3,
                decompose=on,
                abstain=False,
            )
            return [h.memory.session_id or "" for h in recall.hits]

        assert RecallConfig().decompose is False
        assert head(False) == ["s1", "s1", "s1"]  # the whole question: all about Jon
        on = head(True)
        assert on[0] == "s1" and "s2" in on[:2]
        timings = mem.recall("What do Jon and Gina both like?", namespace="chat", decompose=True)
        assert "decompose" in timings.timings


def test_decompose_is_a_recall_setting() -> None:
    assert Config.load(env={"ENGRAM_RECALL_DECOMPOSE": "true"}).recall.decompose is True
    with pytest.raises(Exception, match="decompose"):
        Config.load(env={"ENGRAM_RECALL_DECOMPOSE": "sometimes"})


def test_a_question_about_what_lies_between_two_things_gives_the_two() -> None:
    assert decompose.between(
        "How many days are there between the writing session I missed and the "
        "submission deadline for my abstract?"
    ) == ["the writing session I missed", "the submission deadline for my abstract"]
    # A side too thin to rank on its own, or no "and": not split.
    assert decompose.between("What is the difference between cats and dogs?") == []
    assert decompose.between("How long is the gap between jobs?") == []
    # A span between two times is a period (the time leg's), not two things.
    assert decompose.between("Where was John between August 11 and August 15 2023?") == []
    assert decompose.between("What did I do between Monday morning and Friday night?") == []


def test_recall_brings_the_second_event_into_the_head(config: Config, store_location: str) -> None:
    turns = [
        ("how many days are there since the writing session I missed", "s1"),
        ("how many days was the writing session I missed", "s1"),
        ("there are days when the writing session I missed feels long", "s1"),
        ("the abstract is due", "s2"),
        ("the weather was grey", "s3"),
    ]
    question = "How many days are there between the writing session I missed and the abstract due?"
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        for text, session in turns:
            mem.add(text, namespace="chat", session_id=session)

        def head(on: bool) -> list[str]:
            recall = mem.recall(  # the dense leg alone: the hash embedder's word overlap
                question,
                namespace="chat",
                limit=3,
                between_parts=on,
                abstain=False,
                strategy="dense",
            )
            return [h.memory.session_id or "" for h in recall.hits]

        assert RecallConfig().between_parts is True
        assert head(False) == ["s1", "s1", "s1"]  # the whole question: the nearer event
        assert "s2" in head(True)  # the second event, asked alone, joins the head

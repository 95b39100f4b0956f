"""issue 24 (T2): a question that lists three or more things is also ranked once per
thing (recall.list_parts)."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import lists


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Considering my cover letter deadlines, the Zoom call with the creative director, "
            "and my interview clarity improvements, how should I prioritize?",
            (
                "my cover letter deadlines",
                "the Zoom call with the creative director",
                "my interview clarity improvements",
            ),
        ),
        (
            "What dates did I mention for the scholarship deadline, visa application, and "
            "university application?",
            ("the scholarship deadline", "visa application", "university application"),
        ),
        (
            "I moved house last year. What did we decide about the roof tiles, garden "
            "fence and kitchen floor?",
            ("the roof tiles", "garden fence", "kitchen floor"),
        ),
    ],
)
def test_a_list_of_things_asked_about_is_split(query: str, expected: tuple[str, ...]) -> None:
    assert lists.items(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        # no list, or two things only (recall.decompose's business)
        "What did we decide about the roof?",
        "What did Jon and Gina decide about the roof tiles?",
        # a choice, and a pair whose first side holds a list
        "Which did I fix first: the roof tiles, garden fence, or kitchen floor?",
        "How many days between the roof tiles, garden fence, and kitchen floor and the move?",
        # examples of one thing, and what describes one thing
        "Which HTML elements define sections like the page header, navigation, and footer?",
        "What dessert has an almond flour crust, chocolate ganache, and fresh raspberries?",
        "What cake did Jo bake that has an almond crust, dark ganache, and fresh raspberries?",
        # items too thin to rank on their own ("achievements" matches everything)
        "Considering my progress, achievements, and interview successes, what next?",
        # the list in a statement before the question is context
        "I'm adding user login, expense tracking, and basic analytics. Which libraries fit?",
        # a thread question: its spread covers the thread (recall.coverage)
        "Can you summarize how the roof tiles, garden fence, and kitchen floor developed?",
    ],
)
def test_other_questions_stay_whole(query: str) -> None:
    assert lists.items(query) == ()


def test_parts_follow_the_settings() -> None:
    listed = "What did we decide about the roof tiles, garden fence and kitchen floor?"
    joined = "What do Jon and Gina both like?"
    on, off = RecallConfig(list_parts=True), RecallConfig()
    assert off.list_parts is False  # off by default: no gain out of fold (T2)
    assert lists.parts(listed, on) == ["the roof tiles", "garden fence", "kitchen floor"]
    assert lists.parts(listed, off) == []
    assert lists.parts(joined, on) == []  # decompose is off by default
    assert lists.parts(joined, RecallConfig(decompose=True)) == [
        "What do Jon like?",
        "What do Gina like?",
    ]


def test_list_parts_is_a_recall_setting() -> None:
    assert Config.load(env={"ENGRAM_RECALL_LIST_PARTS": "true"}).recall.list_parts is True
    with pytest.raises(Exception, match="list_parts"):
        Config.load(env={"ENGRAM_RECALL_LIST_PARTS": "sometimes"})


def test_recall_ranks_every_listed_thing(config: Config, store_location: str) -> None:
    # The roof was talked about at length; the fence and the floor were each settled
    # once, in a long note of their own session.
    other = " ".join(f"word{i}" for i in range(120))
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        for n in range(20):
            mem.add(
                f"note {n}: what did we decide about the roof tiles? we decide clay roof tiles",
                namespace="house",
                session_id="roof",
            )
        mem.add(f"the garden fence is cedar boards. {other}", namespace="house", session_id="fence")
        mem.add(f"the kitchen floor is oak planks. {other}", namespace="house", session_id="floor")
        asked = "What did we decide about the roof tiles, garden fence and kitchen floor?"

        def head(on: bool) -> list[str]:
            recall = mem.recall(asked, namespace="house", limit=4, list_parts=on, abstain=False)
            return [h.memory.session_id or "" for h in recall.hits]

        assert head(False) == ["roof"] * 4
        assert head(True)[0] == "roof"  # the whole question's best stays first
        assert set(head(True)) == {"roof", "fence", "floor"}
        assert "decompose" in mem.recall(asked, namespace="house", list_parts=True).timings
        assert "decompose" not in mem.recall(asked, namespace="house").timings  # off by default

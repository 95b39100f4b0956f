"""issue 24: the dense query without anchor names (recall.anchor_share)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import anchors

# Melanie opens most turns, as a speaker does in a chat transcript.
TURNS = [
    "Melanie: Melanie, Melanie!",
    "Caroline: my pottery is done",
    "Melanie: see you soon",
    "Melanie: the weather is nice",
    "Melanie: the kids are fine",
    "Caroline: hiking again",
]
QUESTION = "What pottery did Melanie make?"


@pytest.fixture
def chat(config: Config, store_location: str) -> Iterator[Memory]:
    # A wide hash space, so the bag-of-words cosines below have no collisions.
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        for turn in TURNS:
            mem.add(turn, namespace="chat")
        yield mem


def test_capitalised_words_are_the_names_a_query_could_hold() -> None:
    assert anchors.capitalised("What activities does Melanie partake in?") == ["Melanie"]
    assert anchors.capitalised("When did Caroline's mom visit New York?") == [
        "Caroline",
        "New",
        "York",
    ]
    assert anchors.capitalised("what about it") == []


def test_without_drops_a_name_and_its_possessive() -> None:
    assert anchors.without("What is Caroline's identity?", ["Caroline"]) == "What is identity?"
    assert anchors.without("Did Mel meet Melanie?", ["Mel"]) == "Did meet Melanie?"


def test_a_name_most_memories_mention_leaves_the_dense_query(chat: Memory) -> None:
    graph, memories = chat.store.graph, chat.store.memories
    found = anchors.dense_query(QUESTION, "chat", graph, memories, 0.2, [])
    assert found == anchors.DenseQuery("What pottery did make?", ("Melanie",))
    # Caroline is named by two of six turns: above a share of 0.2, below one of 0.5.
    asked = "What did Caroline make of pottery?"
    assert anchors.dense_query(asked, "chat", graph, memories, 0.2, []).dropped == ("Caroline",)
    assert anchors.dense_query(asked, "chat", graph, memories, 0.5, []).dropped == ()
    # A name the graph does not know stays; so does a query with no keyword left.
    assert anchors.dense_query("What did Zed make?", "chat", graph, memories, 0.2, []).dropped == ()
    assert (
        anchors.dense_query("What about Melanie?", "chat", graph, memories, 0.2, []).dropped == ()
    )


def test_recall_ranks_by_the_rest_of_the_question(chat: Memory) -> None:
    def top(share: float | None) -> str:
        recall = chat.recall(
            QUESTION, namespace="chat", limit=2, strategy="dense", anchor_share=share, abstain=False
        )
        return recall.hits[0].memory.content

    # The whole question matches the turn that only repeats the name best ...
    assert RecallConfig().anchor_share is None
    assert top(None) == "Melanie: Melanie, Melanie!"
    # ... without the name, the turn about pottery.
    assert top(0.2) == "Caroline: my pottery is done"


def test_a_failing_graph_keeps_the_whole_query(chat: Memory) -> None:
    class Broken:
        def entity(self, namespace: str, name: str) -> None:
            raise RuntimeError("graph tables are locked")

    warnings: list[str] = []
    found = anchors.dense_query(QUESTION, "chat", Broken(), chat.store.memories, 0.2, warnings)  # type: ignore[arg-type]
    assert found == anchors.DenseQuery(QUESTION)
    assert warnings and "graph tables are locked" in warnings[0]


def test_anchor_share_is_a_recall_setting() -> None:
    config = Config.load(env={"ENGRAM_RECALL_ANCHOR_SHARE": "0.3"})
    assert config.recall.anchor_share == 0.3
    with pytest.raises(Exception, match="anchor_share"):
        Config.load(env={"ENGRAM_RECALL_ANCHOR_SHARE": "2"})


def test_namespace_counts_are_reused_for_a_while() -> None:
    class Counting:
        calls = 0

        def count(self, namespace: str) -> int:
            self.calls += 1
            return 10 * self.calls

    memories = Counting()
    sizes = anchors.NamespaceSizes(ttl=60.0)
    assert sizes.count(memories, "a") == 10  # type: ignore[arg-type]
    assert sizes.count(memories, "a") == 10  # type: ignore[arg-type]
    assert memories.calls == 1
    assert sizes.count(memories, "b") == 20  # type: ignore[arg-type]
    stale = anchors.NamespaceSizes(ttl=0.0)
    assert stale.count(memories, "a") == 30  # type: ignore[arg-type]
    assert stale.count(memories, "a") == 40  # type: ignore[arg-type]

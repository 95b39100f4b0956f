"""issue 24 (R1): the question without its anchor names as a second, rank-fused leg."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import anchors, residual
from test_recall_anchors import QUESTION, TURNS


@pytest.fixture
def chat(config: Config, store_location: str) -> Iterator[Memory]:
    """test_recall_anchors' chat (Melanie opens most turns), written in one call."""
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        mem.add_many(TURNS, namespace="chat")
        yield mem


def test_fuse_adds_reciprocal_ranks_and_stays_in_unit_range() -> None:
    fused = {"a": 1.0, "b": 0.9, "c": 0.5}
    cosines = {"a": 0.1, "b": 0.8, "c": 0.3}
    out = residual.fuse(fused, cosines, 1.0, 1)
    # b ranks first by cosine (gain 1/2), c second (1/3), a third (1/4); scaled by 1.5.
    assert out == pytest.approx({"a": 1.25 / 1.5, "b": 1.4 / 1.5, "c": (0.5 + 1 / 3) / 1.5})
    assert max(out, key=out.__getitem__) == "b"
    assert all(0.0 <= v <= 1.0 for v in residual.fuse({"x": 1.0}, {"x": 1.0}, 5.0, 1).values())


def test_fuse_leaves_the_order_alone_when_off_or_without_cosines() -> None:
    fused = {"a": 0.2, "b": 0.7}
    assert residual.fuse(fused, {"a": 0.9}, 0.0, 5) == fused
    assert residual.fuse(fused, {}, 1.0, 5) == fused
    # A candidate the second leg has no cosine for gains nothing; the other gains.
    out = residual.fuse(fused, {"a": 0.9}, 1.0, 5)
    assert out["a"] > fused["a"] / (1 + 1 / 6) and out["b"] == pytest.approx(0.7 / (1 + 1 / 6))


def test_vector_is_none_without_an_anchor_name(chat: Memory) -> None:
    graph, memories = chat.store.graph, chat.store.memories
    embedded: list[str] = []

    def embed(text: str) -> residual.Vector:
        embedded.append(text)
        return np.ones(3, dtype=np.float32)

    assert residual.vector("What did Zed make?", "chat", graph, memories, 0.2, embed, []) is None
    assert embedded == []  # no anchor: no second embedding
    found = residual.vector(QUESTION, "chat", graph, memories, 0.2, embed, [])
    assert found is not None and embedded == ["What pottery did make?"]

    def broken(text: str) -> residual.Vector:
        raise RuntimeError("model unloaded")

    warnings: list[str] = []
    assert residual.vector(QUESTION, "chat", graph, memories, 0.2, broken, warnings) is None
    assert warnings and "model unloaded" in warnings[0]


def test_recall_reorders_by_the_rest_but_keeps_the_whole_question_cosine(
    chat: Memory,
) -> None:
    def ask(weight: float) -> list[tuple[str, float | None]]:
        recall = chat.recall(
            QUESTION,
            namespace="chat",
            limit=6,
            strategy="dense",
            residual_weight=weight,
            residual_k=1,
            abstain=False,
        )
        return [(h.memory.content, h.breakdown.sim) for h in recall.hits]

    assert RecallConfig().residual_weight == 0.0  # off by default
    off, on = ask(0.0), ask(10.0)
    assert off[0][0] == "Melanie: Melanie, Melanie!"
    assert on[0][0] == "Caroline: my pottery is done"
    # Only the order moves: each memory keeps its cosine to the whole question.
    assert dict(off) == pytest.approx(dict(on))


def test_residual_settings_are_recall_settings() -> None:
    config = Config.load(
        env={"ENGRAM_RECALL_RESIDUAL_WEIGHT": "0.3", "ENGRAM_RECALL_RESIDUAL_K": "3"}
    )
    assert (config.recall.residual_weight, config.recall.residual_k) == (0.3, 3)
    with pytest.raises(Exception, match="residual_share"):
        Config.load(env={"ENGRAM_RECALL_RESIDUAL_SHARE": "2"})


def test_mention_counts_are_reused_for_a_while() -> None:
    class Entity:
        def __init__(self, mentions: int) -> None:
            self.mentions = mentions

    class Graph:
        calls = 0

        def entity(self, namespace: str, name: str) -> Entity | None:
            self.calls += 1
            return Entity(7 * self.calls) if name == "Melanie" else None

    graph = Graph()
    sizes = anchors.NamespaceSizes(ttl=60.0)
    assert sizes.mentions(graph, "chat", "Melanie") == 7  # type: ignore[arg-type]
    assert sizes.mentions(graph, "chat", "Melanie") == 7  # type: ignore[arg-type]
    assert sizes.mentions(graph, "chat", "Zed") == 0  # type: ignore[arg-type]
    assert graph.calls == 2
    stale = anchors.NamespaceSizes(ttl=0.0)
    assert stale.mentions(graph, "chat", "Melanie") == 21  # type: ignore[arg-type]
    assert stale.mentions(graph, "chat", "Melanie") == 28  # type: ignore[arg-type]

"""Hints in recall (seed 004): the keyword leg searches the hint index beside the content
index and keeps, per memory, the larger of the two BM25 scores, never their sum.

The retriever is built over the store's parts, as ``Core`` builds it, with the store's
hint index passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engram import Memory
from engram.errors import StoreError
from engram.recall.hints import merge_by_max
from engram.recall.pipeline import Retriever
from engram.recall.request import RecallRequest
from engram.records import Recall
from engram.store.protocols import HintSet, HintStore
from engram.text import fts_query

NS = "user:alice"


def retriever(mem: Memory, hints: HintStore | None = None) -> Retriever:
    store = mem.store
    return Retriever(
        store.memories,
        store.keyword,
        store.vectors,
        mem.config.recall,
        None,
        None,
        hints=hints or store.hints,
    )


def ask(mem: Memory, query: str, *, hints: bool, found_by: Retriever | None = None) -> Recall:
    cfg = mem.config.with_overrides(
        recall={"strategy": "bm25", "hints": hints, "min_relevance": 0.0}
    ).recall
    finder = found_by or retriever(mem)
    try:
        return finder.recall(RecallRequest(query, NS, limit=20, config=cfg))
    finally:
        finder.close()


def world(mem: Memory) -> dict[str, str]:
    """A few memories with hints; ``quiet`` is reachable by its hint only."""
    ids: dict[str, str] = {}
    texts = {
        "race": "Melanie: I ran a charity race for mental health last Saturday.",
        "pottery": "Melanie: I signed up for a pottery class yesterday.",
        "quiet": "Melanie: Finished the 5k for the animal shelter, so proud!",
        "violin": "Jon: I play the violin every evening.",
        "garden": "Jon: The tomatoes in the garden are ripe.",
        "trip": "Caroline: We drove to the coast for the weekend.",
    }
    hints = {
        "race": ["When did Melanie run a charity race?"],
        "pottery": ["When did Melanie sign up for a pottery class?"],
        "quiet": ["Did Melanie run a charity race for a shelter?"],
        "violin": ["What instrument does Jon play?"],
        "garden": ["What grows in Jon's garden?"],
        "trip": ["Where did Caroline drive for the weekend?"],
    }
    for key, text in texts.items():
        ids[key] = mem.add(text, namespace=NS).id
        mem.store.hints.put(NS, ids[key], hints[key], model="template")
    return ids


def test_merge_keeps_each_memorys_larger_score_not_the_sum() -> None:
    content = [("a", 3.0), ("b", 1.0)]
    hints = [("b", 2.0), ("c", 0.5), ("a", 1.0)]
    assert merge_by_max(content, hints) == [("a", 3.0), ("b", 2.0), ("c", 0.5)]
    assert merge_by_max(content, []) == content
    assert merge_by_max([], hints) == [("b", 2.0), ("a", 1.0), ("c", 0.5)]
    # Ties keep the content ranking's order.
    assert merge_by_max([("x", 1.0), ("y", 1.0)], [("y", 1.0)]) == [("x", 1.0), ("y", 1.0)]


def test_a_memory_only_a_hint_matches_is_found(mem: Memory) -> None:
    ids = world(mem)
    query = "Which charity race was it?"
    on = [h.memory.id for h in ask(mem, query, hints=True).hits]
    off = [h.memory.id for h in ask(mem, query, hints=False).hits]
    assert ids["quiet"] in on
    assert ids["quiet"] not in off
    assert ids["race"] in on and ids["race"] in off


def test_a_memory_matched_by_content_and_hint_is_not_double_boosted(mem: Memory) -> None:
    ids = world(mem)
    query = "When did Melanie run the charity race?"
    match = fts_query(query)
    assert match is not None
    content = dict(mem.store.keyword.search(NS, match, 1000))
    hinted = dict(mem.store.hints.search(NS, match, 1000))
    both = set(content) & set(hinted)
    assert ids["race"] in both and content[ids["race"]] > 0 and hinted[ids["race"]] > 0
    merged = {i: max(content.get(i, 0.0), hinted.get(i, 0.0)) for i in {*content, *hinted}}
    best = max(merged.values())
    recall = ask(mem, query, hints=True)
    bm25 = {h.memory.id: h.breakdown.bm25 for h in recall.hits}
    assert set(bm25) == set(merged)
    for memory_id, score in merged.items():
        assert bm25[memory_id] == pytest.approx(score / best)
    summed = {i: content.get(i, 0.0) + hinted.get(i, 0.0) for i in merged}
    top_sum = max(summed.values())
    assert any(bm25[i] != pytest.approx(summed[i] / top_sum) for i in both)


def test_hints_off_is_the_content_index_alone(mem: Memory) -> None:
    world(mem)
    query = "When did Melanie run the charity race?"
    match = fts_query(query)
    assert match is not None
    content = dict(mem.store.keyword.search(NS, match, 1000))
    recall = ask(mem, query, hints=False)
    best = max(content.values())
    assert {h.memory.id: h.breakdown.bm25 for h in recall.hits} == pytest.approx(
        {i: s / best for i, s in content.items()}
    )


def test_a_namespace_without_hints_recalls_as_before(mem: Memory) -> None:
    for text in ("Jon plays the violin", "Jon grows tomatoes", "Mel runs races"):
        mem.add(text, namespace=NS)
    on = ask(mem, "what does Jon play", hints=True)
    off = ask(mem, "what does Jon play", hints=False)
    # Scores differ only by recency (time passes between the two calls).
    assert [(h.memory.id, h.breakdown.fused) for h in on.hits] == [
        (h.memory.id, h.breakdown.fused) for h in off.hits
    ]
    assert on.warnings == off.warnings


class BrokenHints:
    """A hint index whose search fails (through the real ``hints`` seam)."""

    def put(self, namespace: str, memory_id: str, hints: Sequence[str], *, model: str) -> Any:
        raise StoreError("down")

    def get(self, namespace: str, memory_id: str) -> HintSet | None:
        return None

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        raise StoreError("hint index unavailable")

    def delete(self, namespace: str, memory_id: str) -> int:
        return 0

    def count(self, namespace: str | None = None) -> int:
        return 0

    def missing(self, namespace: str, limit: int = 1000) -> list[str]:
        return []


def test_a_failing_hint_index_degrades_loudly(mem: Memory) -> None:
    world(mem)
    broken = BrokenHints()
    assert isinstance(broken, HintStore)
    query = "When did Melanie run the charity race?"
    recall = ask(mem, query, hints=True, found_by=retriever(mem, broken))
    off = ask(mem, query, hints=False)
    assert [h.memory.id for h in recall.hits] == [h.memory.id for h in off.hits]
    assert any("hint search unavailable" in w for w in recall.warnings)

"""Diversity in the final ranking (issue 24): per-session caps and MMR."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conftest import ranked_hit
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import diversity
from engram.records import Hit


def hit(memory_id: str, score: float, session: str | None = None, **metadata: Any) -> Hit:
    return ranked_hit(memory_id, score, session=session, **metadata)


def order(hits: list[Hit]) -> list[str]:
    return [h.id for h in hits]


def test_session_comes_from_session_id_then_metadata() -> None:
    assert diversity.session_of(hit("a", 0.5, "s1")) == "s1"
    assert diversity.session_of(hit("b", 0.5, session_id="s2")) == "s2"
    assert diversity.session_of(hit("c", 0.5, session=7)) == "7"
    assert diversity.session_of(hit("d", 0.5)) is None


def test_at_most_k_per_session_ahead_of_close_hits_of_other_sessions() -> None:
    hits = [
        hit("a1", 0.90, "a"),
        hit("a2", 0.89, "a"),
        hit("a3", 0.88, "a"),
        hit("b1", 0.86, "b"),
        hit("a4", 0.85, "a"),
        hit("c1", 0.84, "c"),
    ]
    # One per session: a2 and a3 wait until the rest scores more than 0.05 below them.
    assert order(diversity.by_session(hits, 1, 0.05)) == ["a1", "b1", "c1", "a2", "a3", "a4"]
    assert order(diversity.by_session(hits, 2, 0.05)) == ["a1", "a2", "b1", "c1", "a3", "a4"]
    # The same set of hits, only reordered.
    assert sorted(order(diversity.by_session(hits, 1, 0.05))) == sorted(order(hits))


def test_a_held_hit_comes_back_before_clearly_weaker_hits() -> None:
    hits = [hit("a1", 0.9, "a"), hit("a2", 0.8, "a"), hit("b1", 0.5, "b"), hit("x", 0.4)]
    # b1 scores 0.3 below a2, more than the margin: relevance wins over spread.
    assert order(diversity.by_session(hits, 1, 0.1)) == ["a1", "a2", "b1", "x"]
    # A margin of 1 is a plain cap: every other session first.
    assert order(diversity.by_session(hits, 1, 1.0)) == ["a1", "b1", "x", "a2"]


def test_hits_without_a_session_are_never_held_back() -> None:
    hits = [hit("x", 0.9), hit("y", 0.8), hit("z", 0.7)]
    assert order(diversity.by_session(hits, 1, 1.0)) == ["x", "y", "z"]


def test_mmr_skips_near_duplicates_of_what_was_chosen() -> None:
    hits = [hit("a", 0.9), hit("a-copy", 0.85), hit("b", 0.8)]
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    assert order(diversity.mmr(hits, vectors, 0.7)) == ["a", "b", "a-copy"]
    # All relevance, no diversity: the ranking stays.
    assert order(diversity.mmr(hits, vectors, 1.0)) == ["a", "a-copy", "b"]


def test_apply_leaves_the_ranking_alone_by_default() -> None:
    hits = [hit("a1", 0.9, "a"), hit("a2", 0.89, "a"), hit("b1", 0.88, "b")]
    assert RecallConfig().diversity == "none"
    assert diversity.apply(RecallConfig(), hits, None) == hits
    # MMR needs vectors: without an embedder the ranking stays.
    assert diversity.apply(RecallConfig(diversity="mmr"), hits, None) == hits
    capped = diversity.apply(RecallConfig(diversity="session", diversity_per_session=1), hits, None)
    assert order(capped) == ["a1", "b1", "a2"]


@pytest.mark.parametrize("mode", ["none", "session", "mmr"])
def test_recall_spreads_hits_over_sessions(mem: Memory, mode: str) -> None:
    turns = [
        ("deploy script for the api needs the vpn", "monday"),
        ("deploy of the api failed on the vpn again", "monday"),
        ("the api deploy waits for the vpn team", "monday"),
        ("deploy notes: api keys rotate after the vpn change", "friday"),
    ]
    for text, session in turns:
        mem.add(text, namespace="ops", session_id=session)
    recall = mem.recall(
        "api deploy vpn",
        namespace="ops",
        limit=4,
        diversity=mode,
        diversity_per_session=1,
        diversity_margin=1.0,
        abstain=False,
    )
    sessions = [h.memory.session_id for h in recall.hits]
    assert sorted(sessions) == ["friday", "monday", "monday", "monday"]
    if mode == "session":
        assert sessions[:2] in (["monday", "friday"], ["friday", "monday"])


def test_diversity_is_a_recall_setting(tmp_path: Any) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[recall]\ndiversity = "session"\ndiversity_per_session = 3\n')
    config = Config.load(path, env={})
    assert config.recall.diversity == "session"
    assert config.recall.diversity_per_session == 3
    with pytest.raises(Exception, match="diversity"):
        Config.load(env={"ENGRAM_RECALL_DIVERSITY": "random"})


def test_bench_keeps_only_the_named_conversations() -> None:
    from engram.bench.dataset import Conversation, Dataset
    from engram.errors import InvalidInputError

    data = Dataset(
        "t", [Conversation(c, [], []) for c in ("c1", "c2", "c3")], lambda *a: {}, 10, ()
    )
    assert [c.id for c in data.only(["c3", "c1"]).conversations] == ["c1", "c3"]
    assert data.only([]) is data
    with pytest.raises(InvalidInputError, match="c9"):
        data.only(["c9"])

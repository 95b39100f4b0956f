"""The scale benchmark's peer path (``engram bench scale --peer chroma``): skipped
without chromadb, except for the parts that never import it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engram.bench import peers, scale_reuse
from engram.bench.scale import peer_table
from engram.errors import InvalidInputError


def test_keyword_overlap_is_the_share_of_query_keywords_held() -> None:
    assert peers.keyword_overlap(
        "hiking trip Rainier", "We went hiking at Rainier"
    ) == pytest.approx(2 / 3)
    assert peers.keyword_overlap("the a of", "anything") == 0.0


def test_interleaving_rotates_the_order_and_times_every_question() -> None:
    calls: list[str] = []
    times = peers.interleaved(
        ["q1", "q2", "q3"],
        {"a": lambda q: calls.append("a"), "b": lambda q: calls.append("b")},
    )
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert {k: len(v) for k, v in times.items()} == {"a": 3, "b": 3}
    summary = peers.summary({"a": [1.0, 2.0, 3.0], "b": [2.0, 4.0, 6.0]}, "b")
    assert summary["a"]["p50_vs_b"] == 0.5 and summary["b"]["p50_vs_b"] == 1.0


def test_peer_table_shows_the_ratio_per_size() -> None:
    row = {
        "memories": 1000,
        "add_no_embedding_per_s": 900.0,
        "peer": {
            "add_per_s": 500.0,
            "latency": {
                "engram": {
                    "p50_ms": 4.0,
                    "p95_ms": 9.0,
                    "p50_vs_chroma": 0.8,
                    "p95_vs_chroma": 1.5,
                },
                "chroma": {"p50_ms": 5.0, "p95_ms": 6.0},
                "chroma_keyword": {"p50_ms": 5.5, "p95_ms": 7.0},
            },
        },
    }
    text = peer_table([row])
    assert "engram/chroma p50" in text and "0.8" in text and "1.5" in text


def test_without_chromadb_the_peer_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(peers, "chroma_available", lambda: False)
    with pytest.raises(InvalidInputError, match=r"engramdb\[bench\]"):
        peers.ChromaPeer("/nonexistent")


def test_chroma_finds_the_same_neighbours_as_exact_search(tmp_path: Path) -> None:
    pytest.importorskip("chromadb")
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = [f"memory number {i} about topic{i % 7}" for i in range(300)]
    chroma = peers.ChromaPeer(tmp_path / "chroma")
    assert chroma.load(texts, vectors) > 0
    query = vectors[42]
    assert chroma.query(query, 3)[0] == "42"
    exact = {str(i) for i in np.argsort(-(vectors @ query))[:5]}
    assert len(set(chroma.query(query, 5)) & exact) >= 4
    rescored = chroma.query_rescored("topic0 memory", query, 3)
    assert len(rescored) == 3 and "42" in chroma.query_rescored("memory number 42", query, 3)
    assert chroma.disk_bytes() > 0
    del chroma
    # ``--reuse``: the collection a kept run loaded opens again, with its rows.
    assert peers.ChromaPeer(tmp_path / "chroma", existing=True).query(query, 1) == ["42"]


def test_reuse_without_a_kept_store_says_how_to_keep_one(tmp_path: Path) -> None:
    from engram.config import Config

    with pytest.raises(InvalidInputError, match=r"no scale-10\.db.*--keep"):
        scale_reuse.side_by_side(
            10, config=Config(), locomo="unused", queries=1, directory=str(tmp_path)
        )


def test_reuse_table_shows_ratios_model_share_and_stages() -> None:
    side = {"p50_ms": 5.0, "p95_ms": 6.0, "p50_vs_chroma": 1.0, "p95_vs_chroma": 1.0}
    row = {
        "memories": 1000,
        "latency": {
            "engram": {"p50_ms": 8.0, "p95_ms": 9.0, "p50_vs_chroma": 1.6, "p95_vs_chroma": 1.5},
            "chroma": side,
            "embed": {**side, "p50_ms": 3.0},
        },
        "beyond_embed_p50_ms": {"engram": 5.0, "chroma": 2.0},
        "serving_rss_mb": 300.0,
        "engram_stage_median_ms": {"embed": 3.0, "fuse": 2.0, "time": 0.1},
        "engram_stage_questions": {"time": 9},
        "queries": 300,
    }
    text = scale_reuse.table([row])
    assert (
        "| 1000 | 8.000 | 9.000 | 5.000 | 6.000 | 1.600 | 1.500 | 3.000 | 5.000 | 2.000 |" in text
    )
    # A stage only some recalls ran says how many: its median is not every recall's.
    assert "embed 3.0 fuse 2.0 time 0.1 (9 of 300)" in text


def test_partial_stages_are_the_ones_some_recalls_skipped() -> None:
    stages = {"embed": [1.0, 2.0, 3.0], "time": [0.1], "fuse": [1.0, 1.0, 1.0]}
    assert scale_reuse.partial_stages(stages, 3) == {"time": 1}
    assert scale_reuse.partial_stages({}, 3) == {}

"""The graph view (FEATURES H5, seed 000): UMAP (random_state 42, low_memory) over the
newest memories' vectors, KMeans with k = min(8, max(1, N // 3)), the node payload, and
the fallbacks without the [viz] extra (PCA by numpy's SVD, a numpy KMeans), which the
tests reach by hiding the modules from ``import``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Config, EmbeddingError, InvalidInputError, Memory
from engram.bench import graph_view as graph_bench
from engram.cli.main import cli
from engram.review import projection
from engram.review.graph_view import task_type

NODE_KEYS = {
    "id", "x", "y", "cluster", "title", "task_type", "quality", "score", "type", "created_at",
}  # fmt: skip
TOPICS = ["kites wind flying", "tea green brewing", "deploy friday freeze", "postgres index vacuum"]


def fill(mem: Memory, n: int, **scope: str) -> list[str]:
    """``n`` memories on four topics, one minute apart (the last is the newest)."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    ids = []
    for i in range(n):
        record = mem.add(
            f"note {i}: {TOPICS[i % 4]} detail{i}",
            title=f"Note {i}",
            created_at=(start + timedelta(minutes=i)).isoformat(),
            metadata={"task_type": "research"} if i % 2 else {},
            category="episodic" if i % 3 == 0 else None,
            score=float(i % 10),
            **scope,
        )
        ids.append(record.id)
    return ids


@pytest.fixture
def no_umap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import umap`` raises ImportError, as without the [viz] extra."""
    monkeypatch.setitem(sys.modules, "umap", None)


@pytest.fixture
def no_viz(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither umap nor scikit-learn's KMeans can be imported."""
    monkeypatch.setitem(sys.modules, "umap", None)
    monkeypatch.setitem(sys.modules, "sklearn.cluster", None)


@pytest.fixture
def plain(config: Config) -> Iterator[Memory]:
    with Memory(":memory:", config=config, embedder=None) as m:
        yield m


def test_cluster_count_follows_the_seed() -> None:
    assert [projection.cluster_count(n) for n in (0, 1, 2, 3, 5, 6, 20, 24, 25, 600)] == [
        1, 1, 1, 1, 1, 2, 6, 8, 8, 8,
    ]  # fmt: skip


# -- the PCA fallback (fast, both backends) -----------------------------------------------
def test_pca_fallback_payload_order_and_total(mem: Memory, no_umap: None) -> None:
    ids = fill(mem, 24, user_id="ann")
    mem.add("someone else's note", user_id="bob")
    view = mem.review.graph(user_id="ann", limit=20)
    assert view.method == "pca"
    assert view.note is not None and "umap-learn is not installed" in view.note
    assert view.total == 24
    assert [n["id"] for n in view.nodes] == ids[::-1][:20]  # the 20 newest, newest first
    node = view.nodes[0]
    assert set(node) == NODE_KEYS
    assert node["title"] == "Note 23" and node["score"] == 3.0 and node["type"] == "fact"
    assert node["task_type"] == "research" and node["quality"] == 0
    assert node["created_at"] == "2025-01-01T00:23:00Z"
    # k = min(8, max(1, 20 // 3)) = 6; cluster ids by size, largest first.
    assert len(view.clusters) == 6
    assert [c["id"] for c in view.clusters] == list(range(6))
    sizes = [c["size"] for c in view.clusters]
    assert sizes == sorted(sizes, reverse=True) and sum(sizes) == 20
    assert {n["cluster"] for n in view.nodes} == set(range(6))
    assert set(view.to_dict()) == {"nodes", "clusters", "method", "note", "total"}


def test_pca_fallback_is_deterministic(mem: Memory, no_umap: None) -> None:
    fill(mem, 15)
    first, second = mem.review.graph(), mem.review.graph()
    assert first.to_dict() == second.to_dict()
    xs = [n["x"] for n in first.nodes]
    assert max(xs) > min(xs)  # a real spread, not all at the origin


def test_quality_and_type_filters_reach_the_nodes(mem: Memory, no_umap: None) -> None:
    ids = fill(mem, 6)
    mem.feedback(ids[0], "down")
    obs = mem.add("an observation of a run", type="observation")
    by_id = {n["id"]: n for n in mem.review.graph().nodes}
    assert by_id[ids[0]]["quality"] == -1
    only = mem.review.graph(type="observation")
    assert [n["id"] for n in only.nodes] == [obs.id] and only.total == 1
    with pytest.raises(InvalidInputError, match="type must be one of"):
        mem.review.graph(type="gossip")


def test_the_default_limit_is_the_setting(config: Config, no_umap: None) -> None:
    small = config.with_overrides(review={"graph_max_nodes": 5})
    with Memory(":memory:", config=small, embedder=HashEmbedder()) as mem:
        fill(mem, 9)
        view = mem.review.graph()
        assert (len(view.nodes), view.total) == (5, 9)
        assert len(mem.review.graph(limit=7).nodes) == 7
        with pytest.raises(InvalidInputError, match="limit"):
            mem.review.graph(limit=0)


def test_deleted_memories_and_other_namespaces_stay_out(mem: Memory, no_umap: None) -> None:
    ids = fill(mem, 6, user_id="ann")
    mem.delete(ids[-1], user_id="ann")
    view = mem.review.graph(user_id="ann")
    assert ids[-1] not in {n["id"] for n in view.nodes} and view.total == 5
    empty = mem.review.graph(user_id="carol")
    assert empty.to_dict() == {
        "nodes": [], "clusters": [], "method": "pca", "note": empty.note, "total": 0,
    }  # fmt: skip


def test_numpy_kmeans_stands_in_for_scikit_learn(mem: Memory, no_viz: None) -> None:
    fill(mem, 24)
    view = mem.review.graph()
    assert view.note is not None and "scikit-learn is not installed" in view.note
    assert len(view.clusters) == 8 and sum(c["size"] for c in view.clusters) == 24
    assert view.to_dict() == mem.review.graph().to_dict()


def test_numpy_kmeans_separates_clear_groups() -> None:
    rng = np.random.default_rng(0)
    centres = np.array([[0, 0], [10, 0], [0, 10]], dtype=np.float32)
    points = np.vstack([c + rng.normal(scale=0.3, size=(5, 2)) for c in centres]).astype(np.float32)
    labels = projection._lloyd(points, 3)
    assert [len(set(labels[i * 5 : i * 5 + 5])) for i in range(3)] == [1, 1, 1]
    assert len(set(labels)) == 3


def test_pca_of_a_line_is_the_line() -> None:
    points = np.array([[1, 1, 0], [2, 2, 0], [3, 3, 0], [4, 4, 0]], dtype=np.float32)
    coords = projection.pca(points)
    assert np.allclose(coords[:, 1], 0, atol=1e-6)
    assert np.allclose(np.diff(coords[:, 0]), np.sqrt(2), atol=1e-5)
    assert projection.pca(points[:1]).tolist() == [[0.0, 0.0]]


def test_no_embedder_is_a_clear_error(plain: Memory) -> None:
    plain.add("a note")
    with pytest.raises(EmbeddingError, match="no embedder is configured"):
        plain.review.graph()


def test_task_type_comes_from_metadata_then_category(mem: Memory) -> None:
    a = mem.add("with a task type", metadata={"task_type": "lit-review"}, category="episodic")
    b = mem.add("with a category", category="procedural")
    c = mem.add("with neither", metadata={"task_type": 7})
    assert [task_type(r) for r in (a, b, c)] == ["lit-review", "procedural", None]


# -- UMAP (the [viz] extra is installed in the dev environment) ---------------------------
def test_umap_path_is_deterministic_with_random_state_42(file_mem: Memory) -> None:
    fill(file_mem, 30)
    first = file_mem.review.graph()
    assert first.method == "umap" and first.note is None
    second = file_mem.review.graph()
    assert [(n["x"], n["y"]) for n in first.nodes] == [(n["x"], n["y"]) for n in second.nodes]
    assert [n["cluster"] for n in first.nodes] == [n["cluster"] for n in second.nodes]
    assert len(first.clusters) == 8  # min(8, 30 // 3)
    assert all(np.isfinite([n["x"], n["y"]]).all() for n in first.nodes)


def test_umap_uses_the_seed_parameters() -> None:
    assert projection.UMAP_PARAMS == {"n_components": 2, "random_state": 42, "low_memory": True}


def test_too_few_points_for_umap_fall_back_to_pca_and_say_so(file_mem: Memory) -> None:
    fill(file_mem, 3)
    view = file_mem.review.graph()
    assert view.method == "pca" and view.note is not None and "too few for UMAP" in view.note


def test_warm_up_is_idempotent(monkeypatch: pytest.MonkeyPatch) -> None:
    first = projection.warm_up()
    assert first["umap"] is True

    def compile_again(*_: object) -> None:
        raise AssertionError("a second warm-up projected (compiled) again")

    # The second call answers from what the first found, without projecting: its
    # time (issue 15's "fast first graph") is `engram bench graph-view`'s rewarm_s.
    monkeypatch.setattr(projection, "project", compile_again)
    monkeypatch.setattr(projection, "clusters", compile_again)
    assert projection.warm_up() == first


def test_auto_answers_with_pca_until_umap_is_compiled(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a server does before its warm-up ends: no 30 s wait, PCA and a note, and
    the compilation starts in the background."""
    fill(mem, 12)
    started: list[bool] = []
    monkeypatch.setattr(projection, "_warm", {})
    monkeypatch.setattr(projection, "warm_up_in_background", lambda: started.append(True))
    view = mem.review.graph(method="auto")
    assert view.method == "pca" and started == [True]
    assert view.note is not None and "compiling in the background" in view.note
    assert mem.review.graph(method="pca").note is None
    with pytest.raises(InvalidInputError, match="method is"):
        mem.review.graph(method="tsne")


def test_auto_uses_umap_once_compiled(file_mem: Memory) -> None:
    projection.warm_up()
    fill(file_mem, 12)
    view = file_mem.review.graph(method="auto")
    assert view.method == "umap" and view.note is None
    assert view.to_dict() == file_mem.review.graph().to_dict()  # the same projection


@pytest.mark.slow
def test_600_nodes_after_warm_up_are_projected_by_umap(file_mem: Memory) -> None:
    """issue 15: the graph tab shows its 600 nodes (the default cap) by UMAP after the
    warm-up. Its "within 2 s of opening" is a speed target, measured by
    `engram bench graph-view` (docs/benchmarks.md), not timed here: a wall-clock
    assertion failed at load 7-12 on a shared machine."""
    projection.warm_up()
    file_mem.add_many(
        [f"memory {i} about {TOPICS[i % 4]} and item {i * 7 % 101}" for i in range(600)]
    )
    view = file_mem.review.graph()
    assert len(view.nodes) == 600 and view.method == "umap" and view.note is None
    assert len({n["id"] for n in view.nodes}) == 600
    assert set(view.timings) == {"load", "project", "cluster"}


LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10_dev.json"


@pytest.mark.skipif(not LOCOMO.exists(), reason="the LoCoMo dev set is not here")
def test_the_graph_view_bench_writes_json_and_markdown(tmp_path: Path) -> None:
    """`engram bench graph-view` on a tiny input: it runs and writes both files (what
    it measures is a figure for docs/benchmarks.md, not checked here)."""
    out = tmp_path / "out"
    args = ["--home", str(tmp_path / "home"), "bench", "graph-view", "--data", str(LOCOMO)]
    args += ["--nodes", "12", "--runs", "2", "--out", str(out)]
    ran = CliRunner().invoke(cli, args, env={"ENGRAM_CONFIG": ""})
    assert ran.exit_code == 0, ran.output
    result = json.loads((out / "graph-view.json").read_text(encoding="utf-8"))
    assert (result["nodes"], result["method"], result["runs"]) == (12, "umap", 2)
    assert len(result["seconds"]) == 2 and result["median_s"] > 0
    assert result["target_s"] == graph_bench.TARGET_SECONDS == 2.0
    markdown = (out / "graph-view.md").read_text(encoding="utf-8")
    assert "| graph(), median of 2 |" in markdown and "| 12 (umap) |" in markdown


def test_the_graph_view_bench_refuses_zero_runs(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"runs \(0\) must be at least 1"):
        graph_bench.run(Config.load(env={}, home=str(tmp_path)), str(LOCOMO), runs=0)

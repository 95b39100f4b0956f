"""``mem.admin.warm_indexes``: what ``engram serve`` runs at start, so the first recall
of a large namespace does not wait for its vectors, HNSW graph and term index."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory

WORDS = [f"w{i}" for i in range(200)]


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(WORDS, 6)) for _ in range(count)]


def _config(config: Config) -> Config:
    # Namespaces of 20 memories or more count as large here (the defaults: 200 for the
    # term index, 20,000 for HNSW).
    return config.with_overrides(
        recall={"keyword_index_min": 20, "ann_min_vectors": 20, "ann_background": True}
    )


def _graphs(mem: Memory) -> set[str]:
    assert mem.index is not None
    state = mem.index.state().get("ann")
    graphs = state.get("graphs") if isinstance(state, dict) else None
    return set(graphs) if isinstance(graphs, dict) else set()


def test_warms_the_largest_namespaces_first_and_changes_nothing(
    config: Config, reopenable: str, backend: str
) -> None:
    with Memory(reopenable, config=_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(25, seed=1), namespace="middle")
        mem.add_many(_texts(40, seed=2), namespace="big")
        mem.add_many(_texts(5, seed=3), namespace="small")
        before = {ns: mem.get_all(namespace=ns, limit=100) for ns in ("big", "middle", "small")}

        assert mem.admin.warm_indexes(most=1) == ["big"]
        assert mem.admin.warm_indexes() == ["big", "middle"]

        if backend == "sqlite":  # PostgreSQL's indexes live in the database
            deadline = time.monotonic() + 30
            keyword = mem.store.keyword
            while time.monotonic() < deadline and not (
                keyword.exact("big")
                and keyword.exact("middle")
                and {"big", "middle"} <= _graphs(mem)
            ):
                time.sleep(0.05)
            assert keyword.exact("big") and keyword.exact("middle")
            assert {"big", "middle"} <= _graphs(mem)
            assert not keyword.exact("small") and "small" not in _graphs(mem)
        # A warm-up is a read: every memory is still there, unchanged.
        after = {ns: mem.get_all(namespace=ns, limit=100) for ns in ("big", "middle", "small")}
        assert after == before


def test_a_stop_already_set_warms_nothing(config: Config) -> None:
    with Memory(":memory:", config=_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(30, seed=4), namespace="big")
        stop = threading.Event()
        stop.set()
        assert mem.admin.warm_indexes(stop=stop) == []
        assert not mem.store.keyword.exact("big")


def test_rejects_a_count_below_one(config: Config) -> None:
    with (
        Memory(":memory:", config=_config(config), embedder=HashEmbedder()) as mem,
        pytest.raises(InvalidInputError, match="most"),
    ):
        mem.admin.warm_indexes(most=0)


def test_the_server_warms_them_at_start(config: Config, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from engram.api.app import create_app

    with Memory(tmp_path / "e.db", config=_config(config), embedder=HashEmbedder()) as mem:
        mem.add_many(_texts(30, seed=5), namespace="big")
        app = create_app(mem, auth=False, mcp=False, worker=False, warm_indexes=True)
        with TestClient(app) as client:
            # Both indexes are built on the warm-up thread, one after the other: wait for
            # both, not the first (a loaded machine finished the graph well before the
            # term index, and the test read the second too early).
            def warmed() -> bool:
                return "big" in _graphs(mem) and mem.store.keyword.exact("big")

            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not warmed():
                time.sleep(0.05)
            assert warmed()
            assert client.get("/health").status_code == 200

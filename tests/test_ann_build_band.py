"""A large HNSW graph is built wider (issue 29, ann26): built at ef_construction 80, no
search breadth held recall@10 0.98 at 500k or 1M, built at 160 the ``scaled_ef`` breadth
does. Past ``ef_construction_rows`` nodes a graph is built at ``ef_construction_large``,
and the build key carries the band, so a graph saved below it (or by older code) is built
again once it is read past it, and one below it is reused as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite import ann, vector_block
from test_ann import SIZE, THRESHOLD, _texts
from test_ann_snapshot import _ann, _manifest, _matches_exact, _persisted, _query

pytestmark = pytest.mark.skipif(not ann.available(), reason="usearch is not installed")

#: What every saved graph's manifest held before the band (M 32, ef_construction 80).
KEY_BEFORE = {"version": 2, "dtype": "i8", "m": 32, "ef_construction": 80}


def test_the_default_build_breadth_doubles_past_200k() -> None:
    settings = AnnSettings()
    assert [ann.construction_ef(settings, n) for n in (0, 100_000, 200_000)] == [80, 80, 80]
    assert [ann.construction_ef(settings, n) for n in (200_001, 500_000, 10**6)] == [160] * 3
    # The band is in the key: either side of it, two graphs are not the same build.
    assert ann.build_key(settings, 200_001) != ann.build_key(settings, 200_000)
    assert ann.build_key(settings, 1_000_000) == KEY_BEFORE | {"ef_construction": 160}
    # Below it, the key every graph was saved with before: nothing is rebuilt there.
    assert ann.build_key(settings, 200_000) == KEY_BEFORE
    assert ann.build_key(settings, 20_000) == KEY_BEFORE


@pytest.mark.parametrize(("nodes", "breadth"), [(200, 16), (300, 48)])
def test_a_graph_is_built_at_its_bands_breadth(nodes: int, breadth: int) -> None:
    data = np.random.default_rng(5).standard_normal((nodes, 16)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    settings = AnnSettings(
        m=8, ef_construction=16, ef_construction_large=48, ef_construction_rows=250
    )
    graph = ann.HnswGraph.build(np.arange(nodes, dtype=np.int64), data, settings)
    assert graph._index.expansion_add == breadth
    assert graph.build_info["ef_construction"] == breadth
    assert graph.build_info == ann.build_key(settings, nodes)


def _open(path: Path, config: Config, **recall: object) -> Memory:
    settings = {"ann_min_vectors": THRESHOLD, "ann_background": False} | recall
    return Memory(path, config=config.with_overrides(recall=settings), embedder=HashEmbedder())


@pytest.fixture
def saved(tmp_path: Path, config: Config) -> Path:
    """A store whose namespace "big" (``SIZE`` vectors) has its graph saved beside it,
    built under the default band (80: far below 200k)."""
    path = tmp_path / "store.db"
    with _open(path, config) as mem:
        mem.add_many(_texts(), namespace="big")
        assert mem.index is not None
        mem.index.search("big", _query(mem, "w1 w2"), 10)  # builds (in the call) and saves
        assert _persisted(mem)["saved"] == 1
    assert _manifest(path)["graph_build"] == KEY_BEFORE
    return path


def test_a_saved_graph_from_below_the_band_is_rebuilt_past_it(saved: Path, config: Config) -> None:
    past = {"ann_ef_construction_rows": SIZE - 1}  # the same graph now lies past the band
    with _open(saved, config, **past) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _ann(mem)["graphs"] == {"big": SIZE}
        # The rows came from the snapshot; the graph was built again, at the band's
        # breadth, and saved.
        counts = _persisted(mem)
        assert [counts[k] for k in ("loaded", "caught_up", "saved")] == [1, 0, 1]
    assert _manifest(saved)["graph_build"] == KEY_BEFORE | {"ef_construction": 160}
    with _open(saved, config, **past) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _persisted(mem)["saved"] == 0  # the wider graph is reused


@pytest.mark.parametrize("rows", [SIZE, 10 * SIZE])
def test_a_saved_graph_below_the_band_is_reused(saved: Path, config: Config, rows: int) -> None:
    # ``SIZE`` nodes with the band at ``SIZE``: not past it (the default's 200k is the
    # other case), so the graph saved before is the current build.
    with _open(saved, config, ann_ef_construction_rows=rows) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _persisted(mem)["saved"] == 0
    assert _manifest(saved)["graph_build"] == KEY_BEFORE


def test_a_namespace_growing_past_the_band_gets_the_wider_graph_at_its_next_build(
    saved: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The graph is rebuilt once its delta passes max(DELTA_MIN, nodes // DELTA_SHARE)
    # rows (5,000 or 5 %); a small floor here so 40 rows make that happen.
    monkeypatch.setattr(vector_block, "DELTA_MIN", 30)
    with _open(saved, config, ann_ef_construction_rows=SIZE + 10) as mem:
        assert mem.index is not None
        query = _query(mem, "w3 w4 w5")
        mem.add_many([f"grown note {i} w{i % 7}" for i in range(20)], namespace="big")
        mem.index.search("big", query, 10)
        # 260 rows, past the band, but the delta (20) is searched beside the old graph.
        assert _ann(mem)["graphs"] == {"big": SIZE}
        assert _persisted(mem)["saved"] == 0
        mem.add_many([f"more note {i} w{i % 5}" for i in range(20)], namespace="big")
        mem.index.search("big", query, 10)  # delta 40 > 30: built again, at 160
        assert _ann(mem)["graphs"] == {"big": SIZE + 40}
        assert _matches_exact(mem, "w3 w4 w5")
    assert _manifest(saved)["graph_build"] == KEY_BEFORE | {"ef_construction": 160}

"""The persisted ANN index of the SQLite backend (issue 29).

A large namespace's block (ids, float32 matrix, HNSW graph) is saved beside the store
file once its graph is built, memory-mapped on the next open, caught up from the store
when the store moved since, and dropped and rebuilt when damaged. A namespace searched
exactly (below ``ann_min_vectors``) is saved the same way without a graph, after its
first load from the store: the ``saved`` tests run on both kinds. These tests are
SQLite-only by nature: PostgreSQL's HNSW index lives in the database (pgvector), so
there is no file beside the store to persist, go stale or break.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite import ann
from test_ann import SIZE, THRESHOLD, _texts

T = TypeVar("T")
NEW_TEXT = "alpaca mango kettle saxophone"
UPDATED_TEXT = "zebra quartz violin lantern"


#: The exact kind's namespaces stay below ``ann_min_vectors``.
EXACT_CONFIG = {"ann_min_vectors": 1_000_000}


def _config(config: Config, **recall: object) -> Config:
    settings = {"ann_min_vectors": THRESHOLD, "ann_background": False} | recall
    return config.with_overrides(recall=settings)


def _open(path: Path, config: Config, kind: str = "graph") -> Memory:
    recall = EXACT_CONFIG if kind == "exact" else {}
    return Memory(path, config=_config(config, **recall), embedder=HashEmbedder())


def _settled(mem: Memory) -> None:
    """Wait for the exact snapshots being written on worker threads."""
    assert mem.index is not None
    deadline = time.monotonic() + 30
    while mem.index.state()["saving"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mem.index.state()["saving"] == []


def _ann(mem: Memory) -> dict[str, object]:
    assert mem.index is not None
    state = mem.index.state()["ann"]
    assert isinstance(state, dict)
    return state


def _persisted(mem: Memory) -> dict[str, object]:
    snapshots = _ann(mem)["snapshots"]
    assert isinstance(snapshots, dict)
    return snapshots


def _query(mem: Memory, text: str) -> np.ndarray:
    assert mem.embedder is not None
    return mem.embedder.embed_batch([text])[0]


def _exact_sims(mem: Memory, query: np.ndarray, k: int = 10) -> list[float]:
    records = mem.get_all(namespace="big", limit=10_000)
    vectors = HashEmbedder().embed_batch([r.content for r in records])
    return sorted((float(s) for s in vectors @ query), reverse=True)[:k]


def _matches_exact(mem: Memory, text: str) -> bool:
    assert mem.index is not None
    query = _query(mem, text)
    found = [s for _, s in mem.index.search("big", query, 10)]
    return bool(np.allclose(found, _exact_sims(mem, query), atol=1e-5))


@pytest.fixture(params=["graph", "exact"])
def kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which snapshot the ``saved`` store has: with an HNSW graph, or without (exact)."""
    from engram.store.sqlite import vector_index

    monkeypatch.setattr(vector_index, "EXACT_SNAPSHOT_MIN", 50)
    return str(request.param)


@pytest.fixture
def saved(tmp_path: Path, config: Config, kind: str) -> Path:
    """A store whose namespace "big" is saved beside it: with its built graph, or
    (exact) as read from the store at its first search."""
    path = tmp_path / "store.db"
    with _open(path, config, kind) as mem:
        mem.add_many(_texts(), namespace="big")
        assert mem.index is not None
        mem.index.search("big", _query(mem, "w1 w2"), 10)  # builds (in the call) and saves
        _settled(mem)
        assert _persisted(mem)["saved"] == 1
    assert ("graph" in _manifest(path)["files"]) == (kind == "graph")  # type: ignore[operator]
    return path


def _files(path: Path, kind: str = "vectors") -> list[Path]:
    """The persisted files of one kind: the vector snapshots, or the term indexes."""
    terms = kind == "terms"
    found = Path(str(path) + ".vindex").iterdir()
    return sorted(p for p in found if p.name.startswith("terms-") == terms)


def _manifest(path: Path) -> dict[str, object]:
    [manifest] = [p for p in _files(path) if p.suffix == ".json"]
    loaded = json.loads(manifest.read_text())
    assert isinstance(loaded, dict)
    return loaded


def _part(path: Path, part: str) -> Path:
    files = _manifest(path)["files"]
    assert isinstance(files, dict)
    return Path(str(path) + ".vindex") / files[part]["name"]


def test_a_reopened_store_searches_its_saved_graph(saved: Path, config: Config, kind: str) -> None:
    manifest = _manifest(saved)
    assert manifest["count"] == SIZE and manifest["complete"] is True
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        state = _ann(mem)
        graphs = {"big": SIZE} if kind == "graph" else {}
        assert state["graphs"] == graphs and not state.get("building")
        assert mem.index is not None and mem.index.state()["saving"] == []
        loads = mem.index.state()["loads"] if mem.index else {}
        assert isinstance(loads, dict) and loads["big"]["from"] == "snapshot"
        assert _persisted(mem) | {"directory": ""} == {
            "directory": "",
            "loaded": 1,
            "caught_up": 0,  # the epoch matched: nothing was read but the epoch
            "saved": 0,  # and nothing was built
        }


def test_a_stale_snapshot_is_caught_up_and_a_delete_never_comes_back(
    saved: Path, config: Config, kind: str
) -> None:
    # Another session writes while nothing of it touches the snapshot (its namespaces
    # stay below its own, higher, threshold).
    other_config = _config(config, ann_min_vectors=1_000_000)
    with Memory(saved, config=other_config, embedder=HashEmbedder()) as other:
        records = other.get_all(namespace="big", limit=10_000)
        target, changed = records[17], records[5]
        other.delete(target.id, namespace="big")
        other.update(changed.id, content=UPDATED_TEXT, namespace="big")
        added = other.add(NEW_TEXT, namespace="big")
    with _open(saved, config, kind) as mem:
        assert mem.index is not None
        found = [i for i, _ in mem.index.search("big", _query(mem, target.content), SIZE)]
        assert target.id not in found
        assert all(
            hit.memory.id != target.id for hit in mem.recall(target.content, namespace="big").hits
        )
        assert mem.index.search("big", _query(mem, NEW_TEXT), 3)[0][0] == added.id
        assert mem.index.search("big", _query(mem, UPDATED_TEXT), 3)[0][0] == changed.id
        old = dict(mem.index.search("big", _query(mem, changed.content), 50))
        assert old.get(changed.id, -1.0) < 0.99  # scored by its new vector
        assert _persisted(mem)["loaded"] == 1 and _persisted(mem)["caught_up"] == 1
        if kind == "graph":
            assert _ann(mem)["delta"] == {"big": 2}  # the added and the updated row
        assert _matches_exact(mem, "w3 w4 w5")
        _settled(mem)
        assert _persisted(mem)["saved"] == 0  # 4 rows read: not worth writing again


@pytest.mark.parametrize(
    "damage",
    ["truncated graph", "truncated manifest", "corrupt ids", "no manifest (crash before it)"],
)
def test_a_snapshot_broken_mid_write_is_dropped_and_rebuilt(
    saved: Path, config: Config, damage: str, kind: str
) -> None:
    ids = _part(saved, "ids")
    manifest = Path(str(saved) + ".vindex") / next(
        p.name for p in _files(saved) if p.suffix == ".json"
    )
    if damage == "truncated graph":
        if kind == "exact":
            pytest.skip("an exact snapshot has no graph")
        graph = _part(saved, "graph")
        graph.write_bytes(graph.read_bytes()[: graph.stat().st_size // 2])
    elif damage == "truncated manifest":
        manifest.write_text(manifest.read_text()[:40])
    elif damage == "corrupt ids":
        raw = bytearray(ids.read_bytes())
        raw[-5] ^= 0xFF
        ids.write_bytes(bytes(raw))
    else:
        manifest.unlink()
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        _settled(mem)
        persisted = _persisted(mem)
        assert persisted["loaded"] == 0 and persisted["saved"] == 1  # rebuilt from the store
        if damage != "no manifest (crash before it)":
            assert "dropped" in str(_ann(mem)["failures"])
    # One generation is left, and it loads.
    generations = {p.name.split(".")[1] for p in _files(saved) if p.suffix != ".json"}
    assert len(generations) == 1
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _persisted(mem)["loaded"] == 1


def test_a_matrix_damaged_in_place_is_found_after_the_open(
    saved: Path, config: Config, kind: str
) -> None:
    matrix = _part(saved, "matrix")
    raw = bytearray(matrix.read_bytes())
    raw[len(raw) // 2 : len(raw) // 2 + 64] = bytes(64)  # same size: only the CRC tells
    matrix.write_bytes(bytes(raw))
    with _open(saved, config, kind) as mem:
        assert mem.index is not None
        mem.index.search("big", _query(mem, "w1"), 10)
        deadline = time.monotonic() + 30
        while "checksum" not in str(_ann(mem).get("failures")) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "checksum" in str(_ann(mem)["failures"])
        assert _matches_exact(mem, "w3 w4 w5")  # reloaded from the store


@pytest.mark.parametrize("kind", ["graph"], indirect=True)
@pytest.mark.parametrize("build", ["none (older code)", "version 1", "other M"])
def test_a_graph_of_another_build_is_built_again(
    saved: Path, config: Config, kind: str, build: str
) -> None:
    # A graph persisted by older code (or other build settings) keeps its quality while
    # its snapshot matches the store: its rows are reused, the graph is not.
    manifest = _manifest(saved)
    key = manifest.pop("graph_build", None)
    if build != "none (older code)":
        assert isinstance(key, dict)
        manifest["graph_build"] = key | ({"version": 1} if build == "version 1" else {"m": 8})
    [path] = [p for p in _files(saved) if p.suffix == ".json"]
    path.write_text(json.dumps(manifest))
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _ann(mem)["graphs"] == {"big": SIZE}
        assert _persisted(mem) | {"directory": ""} == {
            "directory": "",
            "loaded": 1,  # the rows came from the snapshot
            "caught_up": 0,
            "saved": 1,  # and the graph was built again, and saved
        }
    assert _manifest(saved)["graph_build"] == ann.build_key(AnnSettings(), SIZE)
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _persisted(mem)["saved"] == 0  # the new graph is reused


def other_process(script: str, *args: str) -> str:
    """The last line ``script`` prints, run by another Python process (``src`` and
    the tests' helpers importable) with ``args``; it must succeed."""
    tests = Path(__file__).parent
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(tests.parent / "src"), str(tests)])}
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_two_processes_share_one_store(saved: Path, config: Config, kind: str) -> None:
    threshold = EXACT_CONFIG["ann_min_vectors"] if kind == "exact" else THRESHOLD
    with _open(saved, config, kind) as mem:
        assert mem.index is not None
        records = mem.get_all(namespace="big", limit=10_000)
        target = records[17]
        assert mem.index.search("big", _query(mem, target.content), 1)[0][0] == target.id
        # The other process writes (and, searching, builds and saves its own snapshot).
        script = (
            "import sys\n"
            "from hashembed import HashEmbedder\n"
            "from engram import Config, Memory\n"
            "config = Config.load(env={}, home=sys.argv[2]).with_overrides(\n"
            f"    recall={{'ann_min_vectors': {threshold}, 'ann_background': False}})\n"
            "with Memory(sys.argv[1], config=config, embedder=HashEmbedder()) as m:\n"
            f"    m.delete({target.id!r}, namespace='big')\n"
            f"    added = m.add({NEW_TEXT!r}, namespace='big')\n"
            "    m.recall('w1 w2', namespace='big')\n"
            "    print(added.id)\n"
        )
        added_id = other_process(script, str(saved), str(config.home_path))
        assert mem.index.search("big", _query(mem, NEW_TEXT), 3)[0][0] == added_id
        found = [i for i, _ in mem.index.search("big", _query(mem, target.content), SIZE)]
        assert target.id not in found
        assert _matches_exact(mem, "w3 w4 w5")


@pytest.mark.parametrize("kind", ["exact"], indirect=True)
def test_an_exact_snapshot_far_behind_the_store_is_saved_again(
    saved: Path, config: Config, kind: str
) -> None:
    # 60 rows written elsewhere: at least EXACT_SNAPSHOT_MIN (50 here) read at the open.
    other_config = _config(config, ann_min_vectors=1_000_000)
    with Memory(saved, config=other_config, embedder=HashEmbedder()) as other:
        added = other.add_many(_texts(seed=11)[:60], namespace="big")
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        _settled(mem)
        assert _persisted(mem) | {"directory": ""} == {
            "directory": "",
            "loaded": 1,
            "caught_up": 1,
            "saved": 1,  # written again, with the 60 rows
        }
    assert _manifest(saved)["count"] == SIZE + len(added)
    with _open(saved, config, kind) as mem:
        assert mem.index is not None
        query = _query(mem, added[0].content)
        assert mem.index.search("big", query, 1)[0][0] == added[0].id
        assert _persisted(mem)["loaded"] == 1 and _persisted(mem)["caught_up"] == 0


def test_deleting_a_models_vectors_removes_its_snapshots(
    saved: Path, config: Config, kind: str
) -> None:
    with _open(saved, config, kind) as mem:
        assert _files(saved)
        mem.store.vectors.delete("another-model")
        assert any(p.suffix == ".json" for p in _files(saved))  # not this model's
        mem.store.vectors.delete(HashEmbedder.name)
        assert _files(saved) == []


def _keyword_open(path: Path, config: Config) -> Memory:
    recall = {"keyword_index_min": 20, "keyword_index_background": False}
    return Memory(path, config=config.with_overrides(recall=recall), embedder=HashEmbedder())


def test_the_term_index_is_read_back_and_caught_up(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "terms.db"
    with _keyword_open(path, config) as mem:
        mem.add_many(_texts(), namespace="big")
        before = mem.store.keyword.search("big", "w3 OR w4 OR w5", 20)
        assert mem.store.keyword.state()["builds"] == 1  # built (in the call) and saved
    assert _files(path, "terms")
    with _keyword_open(path, config) as mem:
        assert mem.store.keyword.search("big", "w3 OR w4 OR w5", 20) == before
        state = mem.store.keyword.state()
        assert state["loaded_from_disk"] == 1 and state["builds"] == 0
        added = mem.add("quokka w3", namespace="big")  # applied from the change log
        gone = before[0][0]
        mem.delete(gone, namespace="big")
    with _keyword_open(path, config) as mem:
        found = [i for i, _ in mem.store.keyword.search("big", "quokka OR w3", 50)]
        assert found[0] == added.id and gone not in found
        assert mem.store.keyword.state()["builds"] == 0  # caught up, not rebuilt


def saved_terms(tmp_path: Path, config: Config, match: str) -> tuple[Path, list[tuple[str, float]]]:
    """A store whose namespace "big" has its term index saved, and ``match``'s ranking."""
    path = tmp_path / "terms.db"
    with _keyword_open(path, config) as mem:
        mem.add_many(_texts(), namespace="big")
        return path, mem.store.keyword.search("big", match, 20)


def test_a_damaged_term_snapshot_is_rebuilt(tmp_path: Path, config: Config) -> None:
    path, before = saved_terms(tmp_path, config, "w3 OR w4")
    [rows] = [p for p in _files(path, "terms") if p.name.endswith(".rows")]
    rows.write_bytes(rows.read_bytes()[:-8])
    with _keyword_open(path, config) as mem:
        assert mem.store.keyword.search("big", "w3 OR w4", 20) == before
        state = mem.store.keyword.state()
        assert state["builds"] == 1 and "dropped" in str(state["failures"])


def test_a_cold_load_does_not_hold_other_namespaces(
    tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.store.sqlite.vectors import SQLiteVectors

    with Memory(tmp_path / "two.db", config=_config(config), embedder=HashEmbedder()) as mem:
        assert mem.index is not None
        mem.add_many(_texts()[:50], namespace="a")
        mem.add_many(_texts(seed=3)[:50], namespace="b")
        query = _query(mem, "w3 w4")
        expected = mem.index.search("b", query, 5)
        mem.index.invalidate("a")
        entered, release = threading.Event(), threading.Event()
        real = SQLiteVectors.load

        def slow(self: SQLiteVectors, namespace: str, model: str) -> object:
            loaded = real(self, namespace, model)
            if namespace == "a":  # a cold load that takes its time
                entered.set()
                release.wait(30)
            return loaded

        monkeypatch.setattr(SQLiteVectors, "load", slow)
        loading = threading.Thread(target=mem.index.search, args=("a", query, 5))
        loading.start()
        try:
            assert entered.wait(30)
            # Meanwhile another namespace searches and the main connection serves reads
            # (on a thread: were they held by the load, they would wait for ``release``).
            done: list[object] = []

            def other() -> None:
                found = mem.index.search("b", query, 5) if mem.index else []
                done.append((found, len(mem.get_all(namespace="b", limit=5))))

            answering = threading.Thread(target=other)
            answering.start()
            answering.join(10)
            assert done == [(expected, 5)]
        finally:
            release.set()
            loading.join(30)
        assert mem.index.state()["loaded_namespaces"] == {"a": 50, "b": 50}


def test_a_slow_cold_load_does_not_delay_another_namespaces_recall(
    tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole recall (vector and keyword legs) of one namespace, timed while another
    namespace's cold load is held inside its read of the store for ``HOLD`` seconds:
    it must finish well within that, so the load held no connection or lock it needs."""
    from engram.store.sqlite import vectors

    hold = 3.0
    with Memory(tmp_path / "two.db", config=_config(config), embedder=HashEmbedder()) as mem:
        assert mem.index is not None
        mem.add_many(_texts()[:50], namespace="a")
        mem.add_many(_texts(seed=3)[:50], namespace="b")
        expected = [h.memory.id for h in mem.recall("w3 w4", namespace="b").hits]
        mem.index.invalidate("a")
        entered = threading.Event()
        real = vectors._matrix

        def slow(rows: list[tuple[str, bytes, int]], dim: int) -> np.ndarray:
            if threading.current_thread().name == "cold-load":
                entered.set()
                time.sleep(hold)  # inside the load's read snapshot
            return real(rows, dim)

        monkeypatch.setattr(vectors, "_matrix", slow)
        query = _query(mem, "w3 w4")
        index = mem.index
        found, took = _beside_a_load(
            lambda: index.search("a", query, 5),
            entered,
            lambda: [h.memory.id for h in mem.recall("w3 w4", namespace="b").hits],
        )
        assert found == expected
        # Generous (a loaded machine), yet under the hold the load keeps.
        assert took < hold / 2, f"the recall of 'b' took {took:.2f} s beside a cold load"
        assert mem.index.state()["loaded_namespaces"] == {"a": 50, "b": 50}


def _beside_a_load(
    load: Callable[[], object], entered: threading.Event, other: Callable[[], T]
) -> tuple[T, float]:
    """``other()`` and its seconds, timed while ``load()`` runs on a thread (named
    "cold-load") that has set ``entered``; the load must still run when it ends."""
    loading = threading.Thread(target=load, name="cold-load")
    loading.start()
    assert entered.wait(30)
    started = time.perf_counter()
    found = other()
    took = time.perf_counter() - started
    still_loading = loading.is_alive()
    loading.join(30)
    assert still_loading, "the load ended first: nothing was measured"
    return found, took


def test_a_slow_term_index_load_does_not_delay_another_namespaces_keywords(
    tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyword side of the same: a saved term index read back for ``HOLD`` seconds
    must not hold the keyword connection another namespace searches through."""
    from engram.store.sqlite import term_snapshot

    hold = 3.0
    path = tmp_path / "terms.db"
    with _keyword_open(path, config) as mem:
        mem.add_many(_texts(), namespace="a")
        mem.add_many(_texts(seed=3), namespace="b")
        mem.store.keyword.search("a", "w3 OR w4", 5)  # built and saved
        expected = mem.store.keyword.search("b", "w3 OR w4", 5)
    real = term_snapshot.load
    entered = threading.Event()

    def slow(directory: Path, namespace: str, conn: object) -> object:
        if namespace == "a":
            entered.set()
            time.sleep(hold)
        return real(directory, namespace, conn)  # type: ignore[arg-type]

    monkeypatch.setattr(term_snapshot, "load", slow)
    with _keyword_open(path, config) as mem:
        keyword = mem.store.keyword
        keyword.search("b", "w3 OR w4", 5)  # b's own block is loaded first
        found, took = _beside_a_load(
            lambda: keyword.search("a", "w3", 5),
            entered,
            lambda: keyword.search("b", "w3 OR w4", 5),
        )
        assert found == expected
        assert took < hold / 2, f"b's keyword search took {took:.2f} s beside a cold load"
        state = mem.store.keyword.state()
        assert state["loaded_from_disk"] == 2 and set(state["load_ms"]) == {"a", "b"}  # type: ignore[arg-type]

"""scripts/tail27_laps.py: the per-recall laps, faults and lock waits that
docs/benchmarks.md ("The tail at 1M") rests on."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import import_script
from engram.config import Config
from engram.memory import Memory
from engram.store.sqlite import vector_index
from hashembed import HashEmbedder

#: The vector index's search as the library defines it (before any test wraps it).
SEARCH = vector_index.VectorIndex.search


@pytest.fixture(scope="module")
def script() -> Any:
    """The script as a module."""
    return import_script("tail27_laps")


@pytest.fixture
def instrumented(script: Any) -> Iterator[Any]:
    """The store's methods wrapped for one test, put back after it."""
    script.instrument()
    try:
        yield script
    finally:
        script.uninstrument()


def _row(ms: float, laps: dict[str, float] | None = None) -> dict[str, Any]:
    return {
        "q": f"q{ms}",
        "ms": ms,
        "cpu_ms": ms / 2,
        "stages": {"embed": 1.0},
        "laps": laps or {},
        "faults": {"fetch": [4, 1]} if laps else {},
        "minflt": 10,
        "majflt": 1 if laps else 0,
        "read_bytes": 2048,
        "gc_ms": 0.0,
        "gc2_ms": 0.0,
        "load": 1.0,
    }


def test_compare_sets_the_slowest_tenth_against_the_middle(script: Any) -> None:
    slow = {"kw.search": 5.0, "fetch": 1.0}
    rows = [_row(float(ms), slow if ms >= 19 else None) for ms in range(1, 21)]
    out = script.compare(rows)
    tail, middle = out["groups"]["tail"], out["groups"]["middle"]
    assert (tail["recalls"], middle["recalls"]) == (2, 2)
    assert (tail["ms"], middle["ms"]) == (19.5, 10.5)
    assert tail["cpu_ms"] == 9.75
    # A lap only the slow recalls ran: its mean there, and left out where it is 0.
    assert tail["lap.kw.search"] == 5.0
    assert "lap.kw.search" not in middle
    assert (tail["majflt.fetch"], tail["minflt.fetch"]) == (1.0, 4.0)
    assert out["n"] == 20
    assert out["p95_ms"] > out["p50_ms"]


def test_one_recall_reads_laps_cpu_and_faults_then_the_methods_are_put_back(
    instrumented: Any, tmp_path: Path
) -> None:
    assert vector_index.VectorIndex.search is not SEARCH
    config = Config.load(env={}, home=str(tmp_path / "home"))
    store = str(tmp_path / "laps.db")
    with Memory(store, config=config, embedder=HashEmbedder()) as mem:
        for text in ("Joanna painted a sunset", "Nate adopted two turtles", "John cooked"):
            mem.add(text, namespace=instrumented.NAMESPACE)
        row = instrumented.one(mem, "What did Joanna paint?")
        asked = mem.recall("What did Joanna paint?", namespace=instrumented.NAMESPACE)
    assert row["hits"] == [h.memory.id for h in asked.hits]
    assert row["hits"]
    laps = row["laps"]
    for lap in ("dense.search", "dense.block", "kw.search", "fetch"):
        assert laps[lap] >= laps[f"cpu.{lap}"] * 0.5 >= 0, lap
        assert lap in row["faults"], lap
    assert row["stages"]["total"] > 0 and row["ms"] >= row["stages"]["total"] * 0.5
    assert row["read_bytes"] >= 0 and row["minflt"] >= 0
    instrumented.uninstrument()
    assert vector_index.VectorIndex.search is SEARCH


def test_timed_lock_counts_the_wait_of_the_thread_that_stood_in_line(script: Any) -> None:
    lock = script.TimedLock(threading.RLock(), "conn")
    script._laps.clear()
    held = threading.Event()

    def hold() -> None:
        with lock:
            held.set()
            time.sleep(0.05)

    worker = threading.Thread(target=hold)
    worker.start()
    held.wait()
    with lock, lock:  # re-entrant, as the store's connection lock is
        pass
    worker.join()
    assert script._laps["wait.conn.main"] >= 30
    assert script._laps["wait.conn.worker"] < 30


def test_evict_drops_the_store_and_its_index_files(script: Any, tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    store.write_bytes(b"x" * 4096)
    (tmp_path / "s.db-wal").write_bytes(b"y" * 100)
    (tmp_path / "s.db.vindex").mkdir()
    (tmp_path / "s.db.vindex" / "m.matrix").write_bytes(b"z" * 10)
    (tmp_path / "other.db").write_bytes(b"o" * 7)
    assert script.evict(store) == 4096 + 100 + 10

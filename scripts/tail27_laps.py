"""Where a recall's tail comes from at 1M: per-recall laps of every stage, page faults,
bytes read and GC pauses, the slowest 10 % of recalls against the middle ones.

    PYTHONPATH=src python scripts/tail27_laps.py STORE.db OUT.json --locomo FILE [--queries 400]

Opens a COPY of a store ``engram bench scale`` kept (recall records access times) in
this process, warms it on 20 questions as ``engram bench scale --reuse`` does, waits for
background index work, then asks ``--queries`` distinct LoCoMo questions (the ones
``--reuse`` asks) one by one, the query embedded inside the timed call (the real model).
Around each recall it reads:

- the recall's own stage split (``Recall.timings``: ``embed``, ``dense``, ``bm25``, ...);
- finer laps, by wrapping the store's methods in this process only: the vector index's
  epoch read and block lookup (``dense.block``), the graph walk (``dense.walk``,
  ``HnswGraph.propose``), the re-score's gather of float32 rows from the memory-mapped
  matrix (``dense.rescore``: ``Block._graph_candidates`` less the walk), the dense
  completion (``dense.scores``), the keyword leg (``kw.search`` on its worker thread,
  ``kw.scores``), the facts (``facts``), the rows (``fetch``: ``get_many``) and
  ``ranking.fuse`` (``fuse.rank``), with the posting rows the keyword top-k planned over
  (``kw.postings``);
- each lap's CPU time on its own thread (``cpu.LABEL``: less than the lap when the
  thread waited for a core, a lock or the disk) and its minor and major page faults
  (``getrusage(RUSAGE_THREAD)``);
- the process's faults, bytes read from the disk (``/proc/self/io``), CPU time and time
  in the garbage collector (all generations, and the oldest alone), per recall.

Options: ``--time-locks`` (waits on the store's connection locks and the vector index's
lock), ``--chroma DIR`` (a kept Chroma collection queried before each recall, in this
process), ``--evict`` (the store's files dropped from the page cache after the warm-up),
``--freeze`` (``gc.freeze()`` after the warm-up), ``--madvise random`` (an experiment on
the mapped matrix). Results: docs/benchmarks.md, "The tail at 1M".
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from engram.bench.metrics import percentile
from engram.bench.scale import locomo_turns_and_questions
from engram.bench.scale_cold import NAMESPACE, rss_mb, wait_for_index
from engram.config import Config
from engram.memory import Memory

WARM = 20

_laps: dict[str, float] = {}
_undo: list[tuple[Any, str, Any]] = []
"""What ``_wrap`` replaced (owner, name, original), for ``uninstrument``."""
_faults: dict[str, list[int]] = {}
_lock = threading.Lock()


def _thread_faults() -> tuple[int, int]:
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    return usage.ru_minflt, usage.ru_majflt


def _wrap(owner: Any, name: str, label: str) -> None:
    """Time ``owner.name`` (a class's method or a module's function) into ``label``."""
    inner: Callable[..., Any] = getattr(owner, name)
    _undo.append((owner, name, vars(owner).get(name, inner)))

    def timed(*args: Any, **kwargs: Any) -> Any:
        minflt, majflt = _thread_faults()
        cpu = time.thread_time()
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            took = (time.perf_counter() - start) * 1000
            cpu_took = (time.thread_time() - cpu) * 1000
            after = _thread_faults()
            with _lock:
                _laps[label] = _laps.get(label, 0.0) + took
                _laps[f"cpu.{label}"] = _laps.get(f"cpu.{label}", 0.0) + cpu_took
                seen = _faults.setdefault(label, [0, 0])
                seen[0] += after[0] - minflt
                seen[1] += after[1] - majflt

    setattr(owner, name, timed)


def instrument() -> None:
    from engram.recall import ranking
    from engram.store.sqlite import facts, keyword, vector_index
    from engram.store.sqlite.ann import HnswGraph
    from engram.store.sqlite.vector_block import Block

    _wrap(vector_index.VectorIndex, "_block", "dense.block")
    _wrap(vector_index.VectorIndex, "search", "dense.search")
    _wrap(vector_index.VectorIndex, "scores", "dense.scores")
    _wrap(Block, "_graph_candidates", "dense.candidates")
    _wrap(HnswGraph, "propose", "dense.walk")
    _wrap(keyword.SQLiteKeyword, "search", "kw.search")
    _wrap(keyword.SQLiteKeyword, "scores", "kw.scores")
    _wrap(facts.SQLiteMemories, "facts", "facts")
    _wrap(facts.SQLiteMemories, "get_many", "fetch")
    _wrap(ranking, "fuse", "fuse.rank")
    _count_postings()
    # ``pipeline`` imported ``fuse`` through the module, so the wrapper is what it calls.


class TimedLock:
    """A lock whose waits are added to ``_laps`` as ``wait.NAME.THREAD`` (main or worker):
    how long a thread stood in line for a connection or the index while another held it."""

    def __init__(self, inner: Any, name: str) -> None:
        self._inner = inner
        self._name = name

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        start = time.perf_counter()
        got = bool(self._inner.acquire(blocking, timeout))
        took = (time.perf_counter() - start) * 1000
        who = "main" if threading.current_thread() is threading.main_thread() else "worker"
        with _lock:
            key = f"wait.{self._name}.{who}"
            _laps[key] = _laps.get(key, 0.0) + took
        return got

    def release(self) -> None:
        self._inner.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def time_locks(mem: Memory) -> None:
    """Wrap the store's connection locks and the vector index's lock in ``TimedLock``."""
    db = mem.store._db  # type: ignore[attr-defined]
    shared = db.search_lock is db.lock
    db.lock = TimedLock(db.lock, "conn")
    db.search_lock = db.lock if shared else TimedLock(db.search_lock, "search_conn")
    index = mem.index
    if index is not None and hasattr(index, "_lock"):
        index._lock = TimedLock(index._lock, "vindex")


def _count_postings() -> None:
    """``kw.postings``: the rows of the posting lists the keyword leg's top-k plans over
    (the query's terms' document frequencies), per recall."""
    from engram.store.sqlite.term_index import TermBlock

    inner = TermBlock.top

    def top(self: TermBlock, query: Any, k: int) -> Any:
        rows = sum(len(step.postings.rows) for step in self._plan(query))
        with _lock:
            _laps["kw.postings"] = _laps.get("kw.postings", 0.0) + rows
        return inner(self, query, k)

    _undo.append((TermBlock, "top", inner))
    TermBlock.top = top  # type: ignore[method-assign]


def uninstrument() -> None:
    """Put back every method ``instrument`` wrapped (last wrapped first)."""
    while _undo:
        owner, name, original = _undo.pop()
        setattr(owner, name, original)


_gc_ms = [0.0, 0.0]
"""Milliseconds in the collector during the current recall: all generations, the oldest."""
_gc_start = [0.0]


def _gc_callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _gc_start[0] = time.perf_counter()
    else:
        took = (time.perf_counter() - _gc_start[0]) * 1000
        _gc_ms[0] += took
        if info["generation"] == 2:
            _gc_ms[1] += took


def _io() -> dict[str, int]:
    out = {}
    for line in Path("/proc/self/io").read_text().splitlines():
        key, value = line.split(":")
        out[key] = int(value)
    return out


def evict(store: Path) -> int:
    """Drop this store's files (and its ``.vindex``) from the page cache, as another
    process's large load would have: ``posix_fadvise(DONTNEED)`` on each file, which
    touches no other file on the machine. The bytes asked to be dropped."""
    files = [store, *store.parent.glob(store.name + "-*")]
    vindex = Path(str(store) + ".vindex")
    if vindex.is_dir():
        files += [p for p in vindex.iterdir() if p.is_file()]
    dropped = 0
    for path in files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            dropped += os.fstat(fd).st_size
        finally:
            os.close(fd)
    return dropped


def advise_matrix(mem: Memory, advice: int) -> int:
    """madvise the loaded blocks' memory-mapped matrices (an experiment: ``--madvise``)."""
    import mmap

    index = mem.index
    done = 0
    for block in getattr(index, "_blocks", {}).values():
        base = block.data
        while base is not None and not isinstance(base, mmap.mmap):
            base = getattr(base, "_mmap", None) or getattr(base, "base", None)
        if isinstance(base, mmap.mmap):
            base.madvise(advice)
            done += 1
    return done


def one(mem: Memory, q: str) -> dict[str, Any]:
    _laps.clear()
    _faults.clear()
    _gc_ms[0] = _gc_ms[1] = 0.0
    before = resource.getrusage(resource.RUSAGE_SELF)
    io = _io()
    cpu = time.process_time()
    start = time.perf_counter()
    recall = mem.recall(q, namespace=NAMESPACE)
    total = (time.perf_counter() - start) * 1000
    cpu_ms = (time.process_time() - cpu) * 1000
    after = resource.getrusage(resource.RUSAGE_SELF)
    io_after = _io()
    with _lock:
        laps = {k: round(v, 3) for k, v in _laps.items()}
        faults = {k: list(v) for k, v in _faults.items()}
    if "dense.candidates" in laps:
        laps["dense.rescore"] = round(laps["dense.candidates"] - laps.get("dense.walk", 0.0), 3)
    return {
        "q": q,
        "ms": round(total, 3),
        "cpu_ms": round(cpu_ms, 3),
        "stages": recall.timings,
        "laps": laps,
        "faults": faults,
        "minflt": after.ru_minflt - before.ru_minflt,
        "majflt": after.ru_majflt - before.ru_majflt,
        "read_bytes": io_after["read_bytes"] - io["read_bytes"],
        "rchar": io_after["rchar"] - io["rchar"],
        "gc_ms": round(_gc_ms[0], 3),
        "gc2_ms": round(_gc_ms[1], 3),
        "hits": [h.memory.id for h in recall.hits],
        "load": os.getloadavg()[0],
    }


def _mean(rows: list[dict[str, Any]], get: Callable[[dict[str, Any]], float]) -> float:
    return round(statistics.fmean(get(r) for r in rows), 3) if rows else 0.0


def _read(part: str, key: str, index: int | None, row: dict[str, Any]) -> float:
    """``row[part][key]`` (its ``index``-th item for faults), 0 when the recall had none."""
    value = row[part].get(key)
    if value is None:
        return 0.0
    return float(value if index is None else value[index])


def compare(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The slowest 10 % against the middle 10 % (45th-55th percentile) of recalls."""
    ordered = sorted(rows, key=lambda r: r["ms"])
    n = len(ordered)
    tail = ordered[int(n * 0.9) :]
    middle = ordered[int(n * 0.45) : int(n * 0.55)]
    keys = sorted({k for r in rows for k in r["laps"]} | {k for r in rows for k in r["stages"]})
    out: dict[str, Any] = {
        "n": n,
        "p50_ms": round(percentile([r["ms"] for r in rows], 50), 3),
        "p95_ms": round(percentile([r["ms"] for r in rows], 95), 3),
        "groups": {},
    }
    for name, group in (("middle", middle), ("tail", tail)):
        g: dict[str, Any] = {
            "recalls": len(group),
            "ms": _mean(group, lambda r: r["ms"]),
            "cpu_ms": _mean(group, lambda r: r["cpu_ms"]),
            "minflt": _mean(group, lambda r: r["minflt"]),
            "majflt": _mean(group, lambda r: r["majflt"]),
            "read_kb": _mean(group, lambda r: r["read_bytes"] / 1024),
            "gc_ms": _mean(group, lambda r: r["gc_ms"]),
            "gc_recalls": sum(1 for r in group if r["gc_ms"] > 0),
            "gc2_recalls": sum(1 for r in group if r["gc2_ms"] > 0),
            "load": _mean(group, lambda r: r["load"]),
        }
        for key in keys:
            g[f"lap.{key}"] = _mean(group, partial(_read, "laps", key, None))
            g[f"stage.{key}"] = _mean(group, partial(_read, "stages", key, None))
            g[f"majflt.{key}"] = _mean(group, partial(_read, "faults", key, 1))
            g[f"minflt.{key}"] = _mean(group, partial(_read, "faults", key, 0))
        out["groups"][name] = {k: v for k, v in g.items() if v}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("store")
    parser.add_argument("out")
    parser.add_argument("--locomo", required=True)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=1, help="ask the questions this often")
    parser.add_argument(
        "--evict", action="store_true", help="drop the store's files from the page cache"
    )
    parser.add_argument("--madvise", help="an madvise for the mapped matrix: random, normal")
    parser.add_argument("--chroma", help="a kept Chroma collection to query beside engram")
    parser.add_argument("--time-locks", action="store_true", help="time waits on locks")
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() after warming")
    args = parser.parse_args()
    _, questions = locomo_turns_and_questions(args.locomo)
    questions = list(dict.fromkeys(questions))
    asked = [questions[(300 + 20 + i) % len(questions)] for i in range(args.queries + WARM)]
    config = Config().with_overrides(injection_mode="flag")  # as `engram bench scale`
    instrument()
    gc.callbacks.append(_gc_callback)
    opened = time.perf_counter()
    with Memory(args.store, config=config) as mem:
        first = one(mem, asked[0])
        open_ms = (time.perf_counter() - opened) * 1000
        for q in asked[1:WARM]:
            mem.recall(q, namespace=NAMESPACE)
        wait_for_index(mem)
        for thread in threading.enumerate():
            if "(_verify)" in thread.name or "(_save" in thread.name:
                thread.join()
        serving = rss_mb()
        if args.evict:
            # After the warm-up and the matrix's checksum: the serving process's pages
            # stay mapped, the page cache under them is what is dropped.
            evicted = evict(Path(args.store))
        if args.time_locks:
            time_locks(mem)
        if args.madvise:
            import mmap

            advised = advise_matrix(mem, getattr(mmap, f"MADV_{args.madvise.upper()}"))
        tracked = len(gc.get_objects())
        if args.freeze:
            gc.freeze()
        peer = None
        if args.chroma:
            # Chroma's collection in this process and a query of it before each recall,
            # as ``engram bench scale --reuse --peer chroma`` interleaves them: its
            # memory and reads are what engram's pages compete with there.
            from engram.bench.peers import ChromaPeer

            peer = ChromaPeer(args.chroma, existing=True)
            embedder = mem.embedder
            assert embedder is not None
            for q in asked[:WARM]:
                peer.query(embedder.embed_batch([q])[0], 10)
        rows = []
        for _ in range(args.rounds):
            for q in asked[WARM:]:
                if peer is not None and mem.embedder is not None:
                    peer.query(mem.embedder.embed_batch([q])[0], 10)
                rows.append(one(mem, q))
    summary = {
        "open_and_first_recall_ms": round(open_ms, 1),
        "first_recall": {k: first[k] for k in ("ms", "majflt", "minflt", "read_bytes")},
        "serving_rss_mb": round(serving, 1),
        "gc_tracked_objects": tracked,
        "advised": advised if args.madvise else None,
        "evicted_mb": round(evicted / 2**20, 1) if args.evict else None,
        "gc_stats": gc.get_stats(),
        "serving_rss_file_mb": round(rss_mb("RssFile"), 1),
        **compare(rows),
    }
    print(json.dumps(summary, indent=1))
    Path(args.out).write_text(json.dumps({"summary": summary, "rows": rows}))


if __name__ == "__main__":
    main()

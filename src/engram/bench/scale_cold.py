"""The scale benchmark's fresh processes (``scale``): each store size is measured in a
child of its own, and the store is then opened cold in further children, so a cold
open sees nothing the build cached and its RSS is a server's, not the benchmark's (the
1M corpus and its vectors alone are ~2 GB of the build's process)."""

from __future__ import annotations

import ctypes
import dataclasses
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from queue import Empty
from typing import Any

from engram.bench.scale_pg import server_pss_mb
from engram.config import Config
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.store import is_postgres

NAMESPACE = "bench-scale"


def wait_for_index(mem: Memory, timeout: float = 3600.0) -> float:
    """Seconds until no HNSW graph of the vector index is still building or being saved,
    no exact snapshot is being saved, no term index of the keyword search is still
    building (a term index is saved before its build ends), and no fact block of a
    SQLite store is still loading or being made (``fact_index``)."""
    index = mem.index
    start = time.perf_counter()
    blocks = getattr(mem.store.memories, "blocks", None)
    if blocks is not None:
        blocks.wait(timeout)
    while time.perf_counter() - start < timeout:
        state = index.state() if index is not None else {}
        ann = state.get("ann")
        graphs = isinstance(ann, dict) and bool(ann.get("building") or ann.get("saving"))
        graphs = graphs or bool(state.get("saving"))
        if not graphs and not mem.store.keyword.state().get("building"):
            break
        time.sleep(0.2)
    return time.perf_counter() - start


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident set (``VmHWM``: its peak) in MB, from /proc (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def cold_open(location: str, config: Config, questions: Sequence[str]) -> dict[str, Any]:
    """Open a store whose indexes were built and saved before, load the model, then
    time the first recalls (one per question); with where each index came from and
    this process's RSS once serving and at its peak (and a PostgreSQL server's own
    memory, ``server_pss_mb``, when it runs on this machine)."""
    start = time.perf_counter()
    with Memory(location, config=config) as mem:
        result: dict[str, Any] = {"open_ms": round((time.perf_counter() - start) * 1000, 1)}
        assert mem.embedder is not None
        mem.embedder.embed_batch(["load the model before the clock starts"])
        times = []
        for q in questions:
            start = time.perf_counter()
            mem.recall(q, namespace=NAMESPACE)
            times.append(round((time.perf_counter() - start) * 1000, 1))
        result["recalls_ms"] = times
        result["cold_first_recall_ms"] = times[0] if times else None
        result["cold_second_recall_ms"] = times[1] if len(times) > 1 else None
        if mem.index is not None:
            state = mem.index.state()
            result["loads"] = state.get("loads")
            result["index"] = state.get("ann")
        terms = mem.store.keyword.state()
        result["terms"] = {
            k: terms.get(k) for k in ("loaded_from_disk", "load_ms", "builds", "building")
        }
        wait_for_index(mem)  # whatever the recalls started, so the RSS is a server's
        result["serving_rss_mb"] = round(rss_mb(), 1)
        # Split, because mapped files (graph, matrix, postings) count once touched, and
        # how many pages a fault maps depends on the page cache (``RssFile``): the
        # process's own memory is ``RssAnon``.
        result["serving_rss_anon_mb"] = round(rss_mb("RssAnon"), 1)
        result["serving_rss_file_mb"] = round(rss_mb("RssFile"), 1)
        result["peak_rss_mb"] = round(rss_mb("VmHWM"), 1)
        if is_postgres(location):
            # The client holds the model and the recall's Python; the rows, the GIN
            # and HNSW indexes are the server's memory.
            result["server_pss_mb"] = server_pss_mb(location)
    return result


def cold_child(args: dict[str, Any], out: Any) -> None:
    answer(out, lambda: cold_open(args["path"], config_of(args), args["questions"]))


def config_args(config: Config) -> dict[str, Any]:
    """What a child process needs to load ``config`` again (``config_of``)."""
    return {
        "config": {
            "home": str(config.home_path),
            "embedder": {"name": config.embedder.name, "model_dir": config.embedder.model_dir},
            "injection_mode": config.injection_mode,
        },
        "overrides": {"recall": recall_overrides(config)},
    }


def config_of(args: dict[str, Any]) -> Config:
    """The config ``config_args`` described (its entries are popped from ``args``)."""
    given = args.pop("config")
    return Config.load(env={}, **given["config"]).with_overrides(**given["overrides"])


def answer(out: Any, work: Callable[[], dict[str, Any]]) -> None:
    try:
        out.put(work())
    except Exception as exc:  # the parent waits on the queue: never leave it empty
        out.put({"error": f"{type(exc).__name__}: {exc}"})
        raise


def in_child(target: Callable[[dict[str, Any], Any], None], args: dict[str, Any]) -> Any:
    """``target(args, queue)`` in a fresh (spawned) process; what it put on the queue.

    The child never outlives this process: it exits when its parent dies, however the
    parent died (``_orphan_guard``), and the parent ends it on the way out of an
    exception (Ctrl-C's ``KeyboardInterrupt`` included). A child that dies without an
    answer (the OOM killer) is an error, not a wait on the queue forever."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=_guarded, args=(target, args, queue))
    child.start()
    try:
        result = _answer_of(child, queue)
        child.join()
    finally:
        if child.is_alive():
            child.terminate()
            child.join(_TERM_GRACE_S)
            if child.is_alive():
                child.kill()
                child.join()
    if "error" in result:
        raise InvalidInputError(f"a scale benchmark process failed: {result['error']}")
    return result


#: How long a child has to exit after SIGTERM before it is killed.
_TERM_GRACE_S = 10.0


def _answer_of(child: Any, queue: Any) -> Any:
    """What ``child`` put on ``queue``; an error once it has exited without putting."""
    while True:
        try:
            return queue.get(timeout=1.0)
        except Empty:
            if child.exitcode is None:
                continue
        try:  # it may have put its answer just before it exited
            return queue.get(timeout=1.0)
        except Empty:
            code = child.exitcode
            raise InvalidInputError(
                f"a scale benchmark process ended without an answer (exit code {code}"
                + (f", signal {-code}" if code < 0 else "")
                + "): a signal -9 with no other cause is most often the kernel's "
                "out-of-memory killer; try a smaller --n or free memory"
            ) from None


def _guarded(target: Callable[[dict[str, Any], Any], None], args: dict[str, Any], out: Any) -> None:
    """The child's entry: ``_orphan_guard`` first, then ``target``."""
    _orphan_guard()
    target(args, out)


def _orphan_guard() -> None:
    """End this (child) process when its parent dies. On Linux the kernel sends SIGTERM
    (``PR_SET_PDEATHSIG``), which ends it even inside a long native call that holds the
    GIL; elsewhere a daemon thread waits on the parent's sentinel (the pipe multiprocessing
    keeps open to a spawned child) and exits when it closes."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a multiprocessing child: nothing to follow
        return
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    sentinel = parent.sentinel

    def follow() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)

    threading.Thread(target=follow, name="engram-parent-watch", daemon=True).start()
    if not parent.is_alive():  # it died before the guard was up
        os._exit(1)


#: ``prctl``'s option that asks for a signal when the parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def recall_overrides(config: Config) -> dict[str, Any]:
    """The parent's recall settings (``--set`` included), for the child's config."""
    return dataclasses.asdict(config.recall)

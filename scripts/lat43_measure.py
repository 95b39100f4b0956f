"""Recall's "fuse" stage at 100k, taken apart (session thirty-seven, lat43): which calls
inside the stage hold its time, on a kept ``engram bench scale`` store (namespace
``bench-scale``; point it at a COPY: recall records access times).

The stage is the clock's lap "fuse" in ``recall/pipeline.py`` (``_rank``): from the
keyword leg's join to the fused scores. Every call the stage makes on the calling
thread (and the store reads inside them) is wrapped by a timer; a call counts for a
recall's stage when it starts between the lap before "fuse" and the "fuse" lap itself.
The stage's own lines (list comprehensions over the candidates, dict merges) are what
is left: the stage's time less its calls' (nested reads are not subtracted twice).

    # the real model inside each recall, as the issue's harness runs it (default)
    PYTHONPATH=src /tmp/bench-venv-lat38/bin/python scripts/lat43_measure.py \\
        --store /tmp/lat43-100k/scale-100000.db
    # or the vectors looked up (lat38's questions file), a 1.5 ms sleep for the model
    PYTHONPATH=src /tmp/bench-venv-lat38/bin/python scripts/lat43_measure.py \\
        --store /tmp/lat43-100k/scale-100000.db --questions /tmp/lat38-q.npz

It reports the stage's median, each call's median own time over the recalls (and in
how many it ran), and the median of what the calls leave. The questions and the
store opening are lat38's (``scripts/lat38_measure.py``), so the two read alike.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lat38_measure as lat38  # noqa: E402

#: The calls of the fuse stage on the calling thread, by module (top level: the
#: pipeline's own names are wrapped where it looks them up).
_CALLS = {
    "waiting": ("facts_of", "time_scores"),
    "completion": ("cosines",),
    "fusion": ("normalize_bm25",),
    "ranking": ("fuse",),
    "context": ("read", "sessionless"),
    "statement": ("fuse_legs",),
    "judgement": ("fuse",),
    "pipeline": ("closed", "untimed", "directive_ids", "long_ids", "self_contained"),
}
#: Store reads inside those calls (nested: not subtracted from the stage again).
_READS = (
    ("engram.store.sqlite.term_search", "TermSearch", "_catch_up", "term index: catch-up"),
    ("engram.store.sqlite.term_index", "TermBlock", "live_rows", "term index: id search"),
    ("engram.store.sqlite.term_index", "TermBlock", "scores", "term index: scores of rows"),
    ("engram.store.sqlite.fact_block", "FactBlock", "facts", "fact block: facts"),
    ("engram.store.sqlite.fact_block", "FactBlock", "_gather", "fact block: gather"),
    ("engram.store.sqlite.facts", "SQLiteMemories", "_current", "facts: data_version"),
)


class Timers:
    """Each wrapped call's (start, seconds, top level) on the calling thread."""

    def __init__(self) -> None:
        self.main = threading.get_ident()
        self.calls: list[tuple[str, float, float, bool]] = []
        self.laps: list[tuple[str, float]] = []

    def wrap(self, owner: Any, name: str, label: str, top: bool) -> None:
        call = getattr(owner, name)

        @functools.wraps(call)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != self.main:
                return call(*args, **kwargs)
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                self.calls.append((label, start, time.perf_counter() - start, top))

        setattr(owner, name, timed)

    def watch_laps(self) -> None:
        from engram.recall import request

        lap = request.Clock.lap

        def timed_lap(clock: Any, stage: str) -> None:
            lap(clock, stage)
            if threading.get_ident() == self.main:
                self.laps.append((stage, clock._last))

        request.Clock.lap = timed_lap  # type: ignore[method-assign]

    def one_recall(self) -> tuple[float, dict[str, float], float] | None:
        """The fuse stage's seconds, its calls' own seconds, and what they leave."""
        names = [stage for stage, _ in self.laps]
        if "fuse" not in names or names.index("fuse") == 0:
            return None
        at = names.index("fuse")
        begin, end = self.laps[at - 1][1], self.laps[at][1]
        own: dict[str, float] = {}
        top_total = 0.0
        for label, start, seconds, top in self.calls:
            if begin <= start < end:
                own[label] = own.get(label, 0.0) + seconds
                top_total += seconds if top else 0.0
        return end - begin, own, end - begin - top_total


def measure(store: str, questions: str | None, model_ms: float, count: int) -> None:
    timers = Timers()
    for module, names in _CALLS.items():
        found = importlib.import_module(f"engram.recall.{module}")
        for name in names:
            timers.wrap(found, name, f"{module}.{name}", True)
    for module, cls, name, label in _READS:
        timers.wrap(getattr(importlib.import_module(module), cls), name, label, False)
    timers.watch_laps()
    mem, texts = lat38._open(store, questions, model_ms)
    stage: list[float] = []
    left: list[float] = []
    per: dict[str, list[float]] = {}
    with mem:
        retriever = mem._core.retriever
        timers.wrap(retriever.keyword, "scores", "keyword.scores", True)
        timers.wrap(type(retriever.index), "scores", "vector index: scores", True)
        lat38._warm(mem, texts)
        for q in texts[lat38.WARM : lat38.WARM + count]:
            timers.calls.clear()
            timers.laps.clear()
            mem.recall(q, namespace=lat38.NAMESPACE)
            got = timers.one_recall()
            if got is None:
                continue
            seconds, own, rest = got
            stage.append(seconds * 1e3)
            left.append(rest * 1e6)
            for label, value in own.items():
                per.setdefault(label, []).append(value * 1e6)
    print("load", os.getloadavg()[0], "recalls", len(stage))
    print(f"fuse stage median {statistics.median(stage):.3f} ms")
    for label, us in sorted(per.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"{label:32s} in {len(us):4d} recalls, median {statistics.median(us):7.1f} us")
    print(f"{'the stage less its calls':32s} median {statistics.median(left):7.1f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--questions", default=None, help="lat38's vectors: no model")
    parser.add_argument("--model-ms", type=float, default=1.5, help="the lookup's sleep")
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args()
    measure(args.store, args.questions, args.model_ms, args.count)


if __name__ == "__main__":
    main()

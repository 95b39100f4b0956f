"""Issue 24, task beam22: recall latency on a kept ``engram bench scale --keep`` store,
for running old and new trees alternately (the thread detector's cost on ordinary
questions). Times ``--queries`` LoCoMo questions (none is a thread question) after 20
warm-up recalls, then the same count of thread-shaped ones, and prints p50 / p95 and the
stage medians as JSON. Point it at a copy: recall records access times. Usage:

    PYTHONPATH=src python scripts/beam22_latency.py STORE [--queries 300]
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from engram import Memory
from engram.bench import locomo
from engram.config import Config

NAMESPACE = "bench-scale"  # engram bench scale's namespace
THREAD = (
    "Can you summarize how {} came up over our conversations?",
    "In what order did we talk about {}?",
    "How many times have I mentioned {} in total?",
)


def timed(mem: Memory, asked: list[str]) -> dict[str, object]:
    latencies: list[float] = []
    stages: dict[str, list[float]] = {}
    for q in asked:
        start = time.perf_counter()
        recall = mem.recall(q, namespace=NAMESPACE)
        latencies.append((time.perf_counter() - start) * 1000)
        for stage, ms in recall.timings.items():
            stages.setdefault(stage, []).append(ms)
    cuts = statistics.quantiles(latencies, n=20)
    return {
        "p50_ms": round(statistics.median(latencies), 2),
        "p95_ms": round(cuts[18], 2),
        "stage_median_ms": {k: round(statistics.median(v), 3) for k, v in stages.items()},
    }


def main(store: str, queries: int) -> None:
    data = locomo.load("../shared/bench/locomo/locomo10_dev.json")
    questions = [q.text for c in data.conversations for q in c.questions]
    ordinary = questions[:queries]
    words = [q.rstrip("?").split()[-1] for q in questions[queries : 2 * queries]]
    thread = [THREAD[i % len(THREAD)].format(w) for i, w in enumerate(words)]
    with Memory(store, config=Config()) as mem:
        for q in questions[-20:]:
            mem.recall(q, namespace=NAMESPACE)
        out = {"ordinary": timed(mem, ordinary), "thread": timed(mem, thread)}
    print(json.dumps(out))


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--queries") + 1]) if "--queries" in sys.argv else 300
    main(sys.argv[1], n)

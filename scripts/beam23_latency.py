"""Issue 24, task beam23: recall latency of ordinary questions on a kept bench store, for
running old and new trees alternately (the list detector and the thread floor's
dispatch on questions that are neither). Recalls every LoCoMo dev question once after 20
warm-up recalls, with recall's defaults (limit 4, the abstain decision on), and prints
p50 / p95 and the stage medians as JSON. Point it at a copy: recall records access
times. Usage:

    PYTHONPATH=src python scripts/beam23_latency.py LOCOMO_STORE
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from engram import Memory
from engram.bench import locomo
from engram.bench.runner import namespace_for
from engram.config import Config


def main(store: str) -> None:
    data = locomo.load("../shared/bench/locomo/locomo10_dev.json")
    asked = [
        (namespace_for(data.name, c.id), q.text) for c in data.conversations for q in c.questions
    ]
    latencies: list[float] = []
    stages: dict[str, list[float]] = {}
    with Memory(store, config=Config().with_overrides(injection_mode="flag")) as mem:
        for ns, q in asked[:20]:
            mem.recall(q, namespace=ns)
        for ns, q in asked:
            start = time.perf_counter()
            recall = mem.recall(q, namespace=ns)
            latencies.append((time.perf_counter() - start) * 1000)
            for stage, ms in recall.timings.items():
                stages.setdefault(stage, []).append(ms)
    cuts = statistics.quantiles(latencies, n=20)
    out = {
        "p50_ms": round(statistics.median(latencies), 2),
        "p95_ms": round(cuts[18], 2),
        "stages": {k: round(statistics.median(v), 4) for k, v in stages.items()},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])

"""Round eighteen's cost check (batch40): ``add_many`` of 1,000 memories (the first
1,000 LoCoMo dev turns, "Speaker: text", one namespace, library defaults, no embedder)
into a fresh in-memory store, timed on two source trees, runs interleaved (A B, B A,
...) in fresh processes, so the machine's load falls on both alike; each run's
figure is the process's CPU time of the ``add_many`` call.

    PYTHONPATH=src python scripts/batch40_cost.py BASE_SRC NEW_SRC [RUNS]

Prints each run's seconds, both medians and the median of the paired ratios new/base.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10_dev.json"
COUNT = 1000


def turns() -> list[str]:
    out: list[str] = []
    for conv in json.loads(LOCOMO.read_text(encoding="utf-8")):
        chat = conv["conversation"]
        n = 1
        while f"session_{n}" in chat and len(out) < COUNT:
            out.extend(f"{t['speaker']}: {t['text']}" for t in chat[f"session_{n}"])
            n += 1
    return out[:COUNT]


def once() -> float:
    from engram import Memory

    texts = turns()
    with Memory(":memory:", embedder=None) as mem:
        # CPU seconds of this process: on a shared machine, wall time mostly measures
        # the other jobs (an A/A run of the base against itself read 0.95 by wall time).
        start = time.process_time()
        mem.add_many(texts, namespace="cost")
        return time.process_time() - start


def timed(src: str) -> float:
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, __file__, "--once"], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main(base: str, new: str, runs: int) -> None:
    times: dict[str, list[float]] = {"base": [], "new": []}
    for k in range(runs):
        order = [("base", base), ("new", new)] if k % 2 == 0 else [("new", new), ("base", base)]
        for name, src in order:
            times[name].append(timed(src))
        print(f"run {k}: base {times['base'][-1]:.3f}s new {times['new'][-1]:.3f}s", flush=True)
    ratios = [n / b for b, n in zip(times["base"], times["new"], strict=True)]
    print(
        f"median base {statistics.median(times['base']):.3f}s, new "
        f"{statistics.median(times['new']):.3f}s, paired ratio new/base "
        f"{statistics.median(ratios):.3f}"
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["--once"]:
        print(f"{once():.4f}")
    else:
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10)

"""Issue 24, task beam30: what the standing block costs a recall, on a BEAM store.

Every BEAM dev question is recalled as ``engram bench beam`` asks (``best``, 50 deep,
the abstain decision off), with the block on (``standing_items`` 3) and off (0), the two
interleaved question by question for ``ROUNDS`` rounds; prints p50 / p95 of the whole
recall for each, over all questions and over the requests the block serves, and the
median of the block's own stage (``timings["standing"]``).

Usage: ``PYTHONPATH=src python scripts/beam30_cost.py STORE [ROUNDS]``
"""

from __future__ import annotations

import sys
import time

import numpy as np

from engram import Memory
from engram.bench import beam
from engram.bench.runner import MODES, namespace_for
from engram.recall.standing_items import is_request

DATA = "../shared/bench/beam-100k"


def main(store: str, rounds: int) -> None:
    data = beam.load(DATA)
    asked = [
        (namespace_for(data.name, c.id), q.text) for c in data.conversations for q in c.questions
    ]
    took: dict[tuple[int, bool], list[float]] = {(k, r): [] for k in (0, 3) for r in (0, 1)}
    stage: list[float] = []
    with Memory(store) as mem:
        for n in range(rounds):
            for ns, text in asked:
                for k in (0, 3) if n % 2 == 0 else (3, 0):
                    start = time.perf_counter()
                    found = mem.recall(
                        text,
                        namespace=ns,
                        limit=50,
                        abstain=False,
                        standing_items=k,
                        **MODES["best"],
                    )
                    ms = (time.perf_counter() - start) * 1000
                    took[(k, False)].append(ms)
                    if is_request(text):
                        took[(k, True)].append(ms)
                        if k:
                            stage.append(found.timings.get("standing", 0.0))
    for only in (False, True):
        cells = []
        for k in (0, 3):
            v = np.array(took[(k, only)])
            cells.append(
                f"block {k}: p50 {np.percentile(v, 50):.2f} p95 {np.percentile(v, 95):.2f}"
            )
        print(("requests" if only else "all") + f" ({len(took[(0, only)])}): " + "; ".join(cells))
    print(
        f"the block's stage, median {np.median(stage):.3f} ms, p95 {np.percentile(stage, 95):.3f}"
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)

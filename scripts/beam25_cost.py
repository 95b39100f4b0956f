"""Issue 24, task beam25 (C1): what the conditions' dense leg costs per recall. On a
kept bench store, every question's vector goes through the dense leg's search (at the
recall's candidate depth) and a completion of 30 scores, once with
``condition_weight = 0`` (the memories' own vectors) and once with the default, the two
alternated question by question in one process; prints the medians in microseconds as
JSON. A namespace without standing instructions reads the chunk table once per
``conditions.REFRESH`` seconds; one with them (BEAM) searches their conditions every
time. Point it at a copy. Usage:

    PYTHONPATH=src python scripts/beam25_cost.py STORE locomo|beam
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import replace

from engram import Memory
from engram.bench import beam, locomo
from engram.bench.runner import namespace_for


def main(store: str, which: str) -> None:
    if which == "beam":
        data = beam.load("../shared/bench/beam-100k")
    else:
        data = locomo.load("../shared/bench/locomo/locomo10_dev.json")
    asked = [
        (namespace_for(data.name, c.id), q.text) for c in data.conversations for q in c.questions
    ]
    times: dict[str, list[float]] = {"off": [], "on": []}
    with Memory(store) as mem:
        core = mem._core
        assert core.embedder is not None and core.index is not None
        retriever = core.retriever
        cfg = core.config.recall
        settings = {"off": replace(cfg, condition_weight=0.0), "on": cfg}
        vectors = core.embedder.embed_batch([q for _, q in asked])
        for n, ((ns, _), vector) in enumerate(zip(asked, vectors, strict=True)):
            ids = [i for i, _ in core.index.search(ns, vector, 30)]
            order = ("off", "on") if n % 2 else ("on", "off")
            for name in order:
                start = time.perf_counter()
                dense = retriever._dense(settings[name], ns)
                dense.search(ns, vector, cfg.dense_top_n)
                dense.scores(ns, vector, ids)
                times[name].append((time.perf_counter() - start) * 1e6)
    print(
        json.dumps(
            {
                "questions": len(asked),
                **{f"{k}_p50_us": round(statistics.median(v), 1) for k, v in times.items()},
                **{
                    f"{k}_p95_us": round(statistics.quantiles(v, n=20)[18], 1)
                    for k, v in times.items()
                },
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""The SQLite graph at its default settings at 200k-1M: build time, recall@10 after the
exact re-score, search microseconds and stranded rows (issue 29, ann26).

Builds ``ann.HnswGraph`` with ``AnnSettings()`` as the imported engram has them (run it
once with ``PYTHONPATH`` at the old tree and once at the new: the old builds every graph
with ef_construction 80, the new past ``ef_construction_rows`` nodes with
``ef_construction_large``) over the first ``--n`` vectors of the scale corpus, then on
two folds of distinct LoCoMo questions (A: the first ``--queries``, B: the next) reports
recall@10 after the re-score against exact search at the graph's own breadth (the
``scaled_ef`` rule) and at each ``--efs``, the breadths interleaved question by question
so the machine's load falls on all of them; the median and p90 microseconds of one search
(the graph's proposals plus the re-score, ``vector_block.Block.top``'s order); how many of
``--probe`` sampled rows miss themselves in the graph's proposals for their own vector at
the graph's own breadth; the build's wall and CPU seconds and the process's peak RSS.
``--orphans`` then times the ann25 fix (every node searched for itself after the build,
the misses kept as a list scanned exactly beside the graph) and measures it again.

    PYTHONPATH=src python scripts/ann26_graph.py --n 500000
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # build25_graph beside it


def _load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def _rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def _exact(data: np.ndarray, queries: np.ndarray, k: int) -> list[set[int]]:
    """Each query's exact top ``k`` rows, 16 queries a product (a small peak at 1M)."""
    tops: list[set[int]] = []
    for chunk in np.array_split(np.asarray(queries, np.float32), max(1, len(queries) // 16)):
        sims = chunk @ data.T
        tops.extend(set(row.tolist()) for row in np.argpartition(-sims, k, axis=1)[:, :k])
    return tops


def _orphans(graph: Any, data: np.ndarray, k: int) -> np.ndarray:
    """The rows the graph does not propose for their own vector: every node searched
    for itself at the graph's breadth, one batched search on one thread."""
    graph._index.expansion_search = graph.ef_search
    keys = np.asarray(graph._index.search(data, k, threads=1).keys, np.int64)
    missed: np.ndarray = np.flatnonzero((keys != np.arange(len(data))[:, None]).all(axis=1))
    return missed.astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200000)
    parser.add_argument("--efs", default="128", help="breadths besides the graph's own")
    parser.add_argument("--probe", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the folds")
    parser.add_argument("--orphans", action="store_true")
    parser.add_argument(
        "--efc-rows", type=int, default=0, help="new tree only: ef_construction_rows"
    )
    parser.add_argument("--label", default="")
    parser.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    args = parser.parse_args()

    from build25_graph import scale_corpus

    import engram
    from engram.store.protocols.vectors import AnnSettings
    from engram.store.sqlite import ann

    data, asked, embed = scale_corpus(args.n, args.data)
    k = 10
    folds = {
        name: embed(asked[start : start + args.queries])
        for name, start in (("A", 0), ("B", args.queries))
    }
    exact = {name: _exact(data, queries, k) for name, queries in folds.items()}
    probe = np.random.default_rng(26).choice(args.n, size=min(args.probe, args.n), replace=False)

    settings = AnnSettings(ef_construction_rows=args.efc_rows) if args.efc_rows else AnnSettings()
    rows = np.arange(args.n, dtype=np.int64)
    head = {"label": args.label, "engram": str(Path(engram.__file__).parent), "n": args.n}
    load = _load()
    wall, cpu = time.perf_counter(), time.process_time()
    graph = ann.HnswGraph.build(rows, data, settings)
    built = {
        "build_s": round(time.perf_counter() - wall, 1),
        "build_cpu_s": round(time.process_time() - cpu, 1),
        "build_key": graph.build_info,
        "ef_search": graph.ef_search,
        "load_before": load,
        "load_after": _load(),
        "peak_rss_mb": _rss_mb(),
    }
    print(json.dumps(head | built), flush=True)

    orphans = np.zeros(0, np.int64)

    def search(q: np.ndarray) -> np.ndarray:
        proposed = graph.propose(q, k)
        if orphans.size:
            proposed = np.union1d(proposed, orphans)
        sims = data[proposed] @ q
        found: np.ndarray = proposed[np.argsort(-sims)[:k]]
        return found

    own = graph.ef_search
    efs = [own, *(int(e) for e in args.efs.split(",") if e and int(e) != own)]

    def measure(tag: str) -> None:
        load = _load()
        micros: dict[int, list[float]] = {ef: [] for ef in efs}
        recall: dict[tuple[int, str], list[float]] = {}
        for rnd in range(args.rounds):
            for name, queries in folds.items():
                for i, (q, truth) in enumerate(zip(queries, exact[name], strict=True)):
                    q = np.asarray(q, np.float32)
                    shift = (i + rnd) % len(efs)  # the order rotates per question
                    for ef in efs[shift:] + efs[:shift]:
                        graph.ef_search = ef
                        start = time.perf_counter()
                        found = search(q)
                        micros[ef].append((time.perf_counter() - start) * 1e6)
                        if rnd == 0:
                            hit = len(set(found.tolist()) & truth) / k
                            recall.setdefault((ef, name), []).append(hit)
        for ef in efs:
            out: dict[str, object] = head | {"tag": tag, "ef": ef, "own": ef == own}
            for name in folds:
                per = recall[(ef, name)]
                out[f"recall_{name}"] = round(float(np.mean(per)), 4)
                out[f"below_0.8_{name}"] = int(sum(p < 0.8 for p in per))
            out["search_us_p50"] = round(float(np.median(micros[ef])))
            out["search_us_p90"] = round(float(np.percentile(micros[ef], 90)))
            if ef == own:
                graph.ef_search = own
                # A probed row on the orphan list is found by its exact scan.
                unlisted = np.setdiff1d(probe, orphans)
                found_self = [int(i) in graph.propose(data[i], k) for i in unlisted]
                out.update(probe=len(probe), self_missing=found_self.count(False))
            out.update(load_before=load, load_after=_load(), peak_rss_mb=_rss_mb())
            print(json.dumps(out), flush=True)
        graph.ef_search = own

    measure("graph")
    if args.orphans:
        started, load = time.perf_counter(), _load()
        orphans = _orphans(graph, data, k)
        took = round(time.perf_counter() - started, 1)
        extra = {"orphans": int(orphans.size), "orphan_pass_s": took, "load_before": load}
        print(json.dumps(head | extra | {"load_after": _load()}), flush=True)
        measure("orphans")


if __name__ == "__main__":
    main()

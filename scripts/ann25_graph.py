"""The SQLite graph's recall@10 at 100k-1M against ef_search, OVERFETCH and retry_ef,
and its stranded rows (issue 29, ann25).

Builds engram's HNSW graph (``ann.HnswGraph.build``: one thread, i8 copy, M 32,
ef_construction 80 unless ``--m``/``--efc``) over the first ``--n`` vectors of the scale
corpus once per size, saves it under ``--keep`` (a second run with the same settings
reuses it), then for every ef_search x OVERFETCH x retry factor reports, on two folds of
distinct LoCoMo questions (A: the first ``--queries``, B: the next), recall@10 after
engram's exact re-score against exact search (mean and p50 per question), the median
and p90 microseconds of one search (the graph's proposals plus the re-score), and how
many of ``--probe`` sampled rows miss themselves in the graph's proposals for their own
vector. A row that misses itself is then told apart: *tied* when a proposed row has the
same vector to 1e-6 (the copy cannot tell them apart, the re-score can), *stranded*
otherwise (a memory no dense search near its own vector reaches).

    PYTHONPATH=src python scripts/ann25_graph.py --n 200000 --efs 128,192,256
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np


def _load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200000)
    parser.add_argument("--efs", default="128,192,256,384")
    parser.add_argument("--overfetch", default="2")
    parser.add_argument("--retry", default="1", help="retry factors (1: no second search)")
    parser.add_argument("--m", type=int, default=32)
    parser.add_argument("--efc", type=int, default=80)
    parser.add_argument("--dtype", default="i8", help="the graph's copy of the vectors")
    parser.add_argument("--probe", type=int, default=20000)
    parser.add_argument("--probe-efs", default="128", help="ef_search values to probe at")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--orphan-ef",
        type=int,
        default=0,
        help="after the sweep: search every node for itself at this breadth, "
        "keep the rows that miss as orphans scanned exactly beside the graph, "
        "and sweep again",
    )
    parser.add_argument("--keep", default="/tmp/ann25-graphs")
    parser.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    args = parser.parse_args()

    from build25_graph import scale_corpus  # this directory: run as scripts/ann25_graph.py

    from engram.store.protocols.vectors import AnnSettings
    from engram.store.sqlite import ann

    data, asked, embed = scale_corpus(args.n, args.data)
    folds = {
        "A": embed(asked[: args.queries]),
        "B": embed(asked[args.queries : 2 * args.queries]),
    }
    k = 10
    exact: dict[str, list[set[int]]] = {}
    for name, queries in folds.items():
        exact[name] = []
        for start in range(0, len(queries), 20):  # 20 queries at a time: a small peak
            sims = data @ np.asarray(queries[start : start + 20], np.float32).T
            tops = np.argpartition(-sims, k, axis=0)[:k].T
            exact[name].extend(set(t.tolist()) for t in tops)
        del sims
    rng = np.random.default_rng(25)
    probe = rng.choice(args.n, size=min(args.probe, args.n), replace=False)

    ann.GRAPH_DTYPE = args.dtype
    settings = AnnSettings(m=args.m, ef_construction=args.efc)
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    path = keep / f"n{args.n}-m{args.m}-efc{args.efc}-{args.dtype}.usearch"
    rows = np.arange(args.n, dtype=np.int64)
    build_s = None
    if path.exists():
        graph = ann.HnswGraph.view(path, rows, settings)
    else:
        load = _load()
        start = time.perf_counter()
        graph = ann.HnswGraph.build(rows, data, settings)
        build_s = round(time.perf_counter() - start, 1)
        graph.save(path)
        print(
            json.dumps(
                {
                    "n": args.n,
                    "m": args.m,
                    "efc": args.efc,
                    "dtype": args.dtype,
                    "build_s": build_s,
                    "load_before": load,
                    "load_after": _load(),
                }
            ),
            flush=True,
        )

    orphans = np.zeros(0, np.int64)  # rebound by the orphan pass below

    def search(q: np.ndarray, retry_ef: int) -> np.ndarray:
        # vector_block.Block.top's order: propose, re-score exactly, search wider when
        # the best cosine is unsure; the top k of the union.
        proposed = graph.propose(q, k)
        if orphans.size:
            proposed = np.union1d(proposed, orphans)
        sims = data[proposed] @ q
        if retry_ef > graph.ef_search and (not sims.size or float(sims.max()) < 0.45):
            wider = np.setdiff1d(graph.propose(q, k, wider=True), proposed)
            proposed = np.concatenate([proposed, wider])
            sims = np.concatenate([sims, data[wider] @ q])
        found: np.ndarray = proposed[np.argsort(-sims)[:k]]
        return found

    probe_efs = {int(e) for e in args.probe_efs.split(",")}

    def sweep(orphan_ef: int) -> None:
        for ef in (int(e) for e in args.efs.split(",")):
            for overfetch in (int(o) for o in args.overfetch.split(",")):
                for factor in (int(f) for f in args.retry.split(",")):
                    ann.OVERFETCH = overfetch
                    graph.ef_search = ef
                    graph.retry_ef = ef * factor
                    load = _load()
                    out: dict[str, object] = {
                        "n": args.n,
                        "m": args.m,
                        "efc": args.efc,
                        "dtype": args.dtype,
                        "orphan_ef": orphan_ef,
                        "ef": ef,
                        "overfetch": overfetch,
                        "retry_factor": factor,
                    }
                    micros: list[float] = []
                    for name, queries in folds.items():
                        per = []
                        for q, truth in zip(queries, exact[name], strict=True):
                            q = np.asarray(q, np.float32)
                            start = time.perf_counter()
                            found = search(q, graph.retry_ef)
                            micros.append((time.perf_counter() - start) * 1e6)
                            per.append(len(set(found.tolist()) & truth) / k)
                        out[f"recall_{name}"] = round(float(np.mean(per)), 4)
                        out[f"recall_{name}_p50"] = round(float(np.median(per)), 2)
                        out[f"recall_{name}_below_0.8"] = int(sum(p < 0.8 for p in per))
                    out["search_us_p50"] = round(float(np.median(micros)))
                    out["search_us_p90"] = round(float(np.percentile(micros, 90)))
                    if ef in probe_efs and overfetch == 2 and factor == 1:
                        scanned = set(orphans.tolist())
                        missing = [
                            int(i)
                            for i in probe
                            if int(i) not in scanned
                            and int(i) not in set(graph.propose(data[i], k).tolist())
                        ]
                        tied = 0
                        for i in missing:
                            near = graph.propose(data[i], k)
                            if near.size and float(np.max(data[near] @ data[i])) > 1 - 1e-6:
                                tied += 1
                        out.update(
                            probe=len(probe),
                            self_missing=len(missing),
                            tied=tied,
                            stranded=len(missing) - tied,
                            missing_rows=missing[:50],
                        )
                    out.update(load_before=load, load_after=_load())
                    print(json.dumps(out), flush=True)

    for orphan_ef in [0, args.orphan_ef] if args.orphan_ef else [0]:
        if orphan_ef:
            load = _load()
            start = time.perf_counter()
            graph._index.expansion_search = orphan_ef
            found = graph._index.search(data, k, threads=1).keys
            hit = (found == np.arange(args.n, dtype=np.uint64)[:, None]).any(axis=1)
            orphans = np.flatnonzero(~hit).astype(np.int64)
            print(
                json.dumps(
                    {
                        "n": args.n,
                        "orphan_ef": orphan_ef,
                        "orphans": int(orphans.size),
                        "orphan_scan_s": round(time.perf_counter() - start, 1),
                        "load_before": load,
                        "load_after": _load(),
                    }
                ),
                flush=True,
            )
        sweep(orphan_ef)


if __name__ == "__main__":
    main()

"""The 1M dense stage's breadth against recall@10 and time, on a kept snapshot (issue 29,
dense29).

Opens a persisted ``<store>.vindex`` read-only (the graph memory-mapped as recall opens
it, or loaded into memory with ``--loaded``; the float32 matrix memory-mapped), embeds
three sets of distinct LoCoMo questions with the real model (A: the first ``--queries``,
B: the next, as ann25/ann26 measured; "bench": the questions ``engram bench scale
--reuse`` times), takes each question's exact top 10 from the matrix, then for each
``--efs`` breadth searches the graph (``ann.HnswGraph.propose``: ``max(2 k, ef)`` rows,
k = 50 as recall asks), re-scores the proposals exactly and reports recall@10 against
exact search, questions below 0.8, and the microseconds of the graph's search and of
the whole search with its re-score (median and p90; the breadths interleaved question by
question over ``--rounds`` passes so the machine's load falls on all of them).

    PYTHONPATH=src python scripts/dense29_sweep.py COPY/scale-1000000.db.vindex --efs 341,224
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import time
from pathlib import Path
from typing import Any

import numpy as np


def _exact(data: np.ndarray, queries: np.ndarray, k: int) -> list[list[int]]:
    """Each query's exact top ``k`` rows, best first, 16 queries a product (a small peak
    at 1M)."""
    tops: list[list[int]] = []
    for chunk in np.array_split(queries, max(1, len(queries) // 16)):
        sims = chunk @ data.T
        part = np.argpartition(-sims, k, axis=1)[:, :k]
        order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1)
        tops.extend(np.take_along_axis(part, order, axis=1).tolist())
    return tops


def _open(mode: str, path: Path, labels: np.ndarray, settings: Any) -> Any:
    from engram.store.sqlite import ann

    if mode == "view":
        return ann.HnswGraph.view(path, labels, settings)
    if mode == "loaded":
        return ann.HnswGraph(ann._usearch().restore(str(path), view=False), labels, settings)
    buf = mmap.mmap(-1, path.stat().st_size)
    buf.madvise(mmap.MADV_HUGEPAGE)
    with path.open("rb") as fh:
        fh.readinto(buf)
    graph = ann.HnswGraph(ann._usearch().restore(buf, view=True), labels, settings)
    graph.buffer = buf  # the view reads it: it lives as long as the graph
    return graph


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("vindex", help="a store's .vindex directory holding one graph")
    parser.add_argument("--efs", default="341,288,256,224,192,160,128")
    parser.add_argument(
        "--rescore",
        default="0",
        help="comma-separated: re-score only the graph's first R proposals (its int8 "
        "order; 0: what `HnswGraph.propose` of the imported tree proposes; -1: the whole "
        "walk, as 160b940 proposed)",
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--bench", type=int, default=300, help="the bench's timed questions")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--graph",
        default="view",
        help="comma-separated, interleaved: view (memory-mapped, as recall opens it), "
        "loaded (read into memory by usearch), huge (read into an anonymous map advised "
        "to use huge pages, and viewed there)",
    )
    parser.add_argument(
        "--flush-mb", type=int, default=0, help="touch this many MB between searches"
    )
    parser.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    args = parser.parse_args()

    from engram.bench.scale import locomo_turns_and_questions
    from engram.config import Config
    from engram.embed import create_embedder
    from engram.store.protocols.vectors import AnnSettings

    folder = Path(args.vindex)
    manifest = next(
        json.loads(p.read_text()) for p in folder.glob("*.json") if "graph" in p.read_text()
    )
    files = {part: folder / f["name"] for part, f in manifest["files"].items()}
    data = np.load(files["matrix"], mmap_mode="r")
    labels = np.arange(len(data), dtype=np.int64)
    settings = AnnSettings()
    graphs = {mode: _open(mode, files["graph"], labels, settings) for mode in args.graph.split(",")}
    flush = np.ones(args.flush_mb * 2**18, np.float32)

    config = Config.load(env={})
    embedder = create_embedder(config.embedder, config.home_path)
    assert embedder is not None
    _, questions = locomo_turns_and_questions(args.data)
    questions = list(dict.fromkeys(questions))
    # ``scale_reuse.side_by_side``'s timed questions (after its 20 warm ones).
    asked = [questions[(args.bench + 20 + i) % len(questions)] for i in range(20, args.bench + 20)]
    texts = {
        "A": questions[: args.queries],
        "B": questions[args.queries : 2 * args.queries],
        "bench": asked,
    }
    folds = {n: np.asarray(embedder.embed_batch(t), np.float32) for n, t in texts.items()}
    k, top = 50, 10
    exact = {n: _exact(np.asarray(data), q, k) for n, q in folds.items()}
    own = next(iter(graphs.values())).ef_search
    efs = [int(e) for e in args.efs.split(",")]
    widths = [int(r) for r in args.rescore.split(",")]
    variants = [(mode, ef, r) for mode in graphs for ef in efs for r in widths]
    search_us: dict[tuple[str, int, int], list[float]] = {v: [] for v in variants}
    total_us: dict[tuple[str, int, int], list[float]] = {v: [] for v in variants}
    recall: dict[tuple[str, int, int, str], list[float]] = {}
    recall50: dict[tuple[str, int, int, str], list[float]] = {}
    load = os.getloadavg()[0]
    for rnd in range(args.rounds):
        for name, queries in folds.items():
            for i, (q, truth) in enumerate(zip(queries, exact[name], strict=True)):
                shift = (i + rnd) % len(variants)
                for mode, ef, width in variants[shift:] + variants[:shift]:
                    graph = graphs[mode]
                    graph.ef_search = ef
                    if flush.size:
                        flush += 1.0  # the other stages of a recall evict the caches
                    start = time.perf_counter()
                    if width:
                        graph._index.expansion_search = ef
                        count = ef if width < 0 else width
                        keys = graph._index.search(q, count, threads=1).keys
                        rows = graph.labels[np.asarray(keys, np.int64)]
                    else:
                        rows = graph.propose(q, k)
                    mid = time.perf_counter()
                    sims = data[rows] @ q
                    found = rows[np.argsort(-sims)[:k]]
                    end = time.perf_counter()
                    v = (mode, ef, width)
                    search_us[v].append((mid - start) * 1e6)
                    total_us[v].append((end - start) * 1e6)
                    if rnd == 0:
                        hit = len(set(found[:top].tolist()) & set(truth[:top])) / top
                        recall.setdefault((*v, name), []).append(hit)
                        hit = len(set(found.tolist()) & set(truth)) / k
                        recall50.setdefault((*v, name), []).append(hit)
    for mode, ef, width in variants:
        v = (mode, ef, width)
        out: dict[str, object] = {"graph": mode, "ef": ef, "rescore": width, "own": ef == own}
        out["flush_mb"] = args.flush_mb
        for name in folds:
            per = recall[(*v, name)]
            out[f"recall_{name}"] = round(float(np.mean(per)), 4)
            out[f"recall50_{name}"] = round(float(np.mean(recall50[(*v, name)])), 4)
            out[f"below_0.8_{name}"] = int(sum(p < 0.8 for p in per))
        for label, us in (("search", search_us[v]), ("total", total_us[v])):
            out[f"{label}_us_p50"] = round(float(np.median(us)))
            out[f"{label}_us_p90"] = round(float(np.percentile(us, 90)))
        out["load"] = [round(load, 2), round(os.getloadavg()[0], 2)]
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()

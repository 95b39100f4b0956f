"""Short queries against the HNSW graph at 100k (issue 29, session fifteen).

``collect STORE HOME OUT``: on a *copy* of a kept 100k store (namespace bench-scale),
embed the 327 category labels and 300 LoCoMo questions, and for each query record
what the graph proposes at several ``ef_search`` (re-scored exactly, as
``vector_block.Block.top`` does) against the exact float32 top 10, with the signals a
second search could key on (best re-scored cosine, the gaps to the 2nd and 10th) and
each search's time. Queries alternate between a tune half and a check half.

``fit OUT``: on the tune half only, recall@10 and the share of queries searched twice
for each signal and threshold (the first search at 128, the second at 4x, merged).
``check OUT SIGNAL THRESHOLD``: the same for one rule on the check half (read it only
after the rule is pre-registered in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

import numpy as np

K = 10
EFS = (128, 256, 512, 2048)
FIRST, SECOND = 128, 512
NAMESPACE = "bench-scale"
#: The rule chosen on the tune half (``fit``), timed by ``timing`` whatever the default.
RETRY_BELOW = 0.45


def collect(store: str, home: str, out: str) -> None:
    from engram import Config, Memory
    from engram.bench.scale import locomo_turns_and_questions
    from engram.recall.standing import load_labels

    config = Config.load(env={}, home=home)
    mem = Memory(store, config=config)
    index = mem.index
    embedder = mem.embedder
    assert embedder is not None
    labels = load_labels()
    _, questions = locomo_turns_and_questions("/work/shared/bench/locomo/locomo10_dev.json")
    questions = list(dict.fromkeys(questions))[:300]
    texts = [("label", t) for t in labels] + [("question", t) for t in questions]
    vectors = np.asarray(embedder.embed_batch([t for _, t in texts]), dtype=np.float32)
    index.search(NAMESPACE, vectors[0], 1)
    for _ in range(1800):
        block = index._blocks[NAMESPACE]  # noqa: SLF001 - a probe reads the live block
        if block.graph is not None and block.building is None:
            break
        time.sleep(1)
    graph = block.graph
    assert graph is not None
    data = block.data[: block.size]
    rows: list[dict[str, Any]] = []
    for i, ((kind, text), query) in enumerate(zip(texts, vectors, strict=True)):
        exact = data @ query
        truth = np.argsort(-exact)[:K]
        row: dict[str, Any] = {
            "kind": kind,
            "text": text,
            "half": "tune" if i % 2 == 0 else "check",
            "words": len(text.split()),
            "truth": truth.tolist(),
            "proposed": {},
            "ms": {},
        }
        for ef in EFS:
            graph.ef_search = ef
            start = time.perf_counter()
            proposed = graph.propose(query, K)
            row["ms"][ef] = 1000 * (time.perf_counter() - start)
            row["proposed"][ef] = proposed.tolist()
        sims = np.sort(exact[np.asarray(row["proposed"][FIRST])])[::-1]
        row["best"] = float(sims[0])
        row["gap2"] = float(sims[0] - sims[1])
        row["gap10"] = float(sims[0] - sims[K - 1])
        row["exact_sims"] = {str(r): float(exact[r]) for ef in EFS for r in row["proposed"][ef]}
        rows.append(row)
    graph.ef_search = FIRST
    mem.close()
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rows, f)


def builds(store: str, home: str, out: str, rows_file: str) -> None:
    """Graphs built with other (M, ef_construction) from the store's saved matrix,
    each searched once at ``FIRST`` by the labels and questions of ``rows_file``."""
    from engram import Config, Memory
    from engram.store.protocols.vectors import AnnSettings
    from engram.store.sqlite.ann import HnswGraph

    with open(rows_file, encoding="utf-8") as f:
        rows = json.load(f)
    config = Config.load(env={}, home=home)
    with Memory(store, config=config) as mem:
        embedder = mem.embedder
        assert embedder is not None
        vectors = np.asarray(embedder.embed_batch([r["text"] for r in rows]), dtype=np.float32)
        data = np.ascontiguousarray(mem.store.vectors.load(NAMESPACE, mem.index.model).matrix)
    results = []
    for m, ef_construction in ((32, 160), (48, 128)):
        settings = AnnSettings(m=m, ef_construction=ef_construction, ef_search=FIRST)
        start = time.perf_counter()
        graph = HnswGraph.build(np.arange(len(data), dtype=np.int64), data, settings)
        built = time.perf_counter() - start
        for row, query in zip(rows, vectors, strict=True):
            row["proposed"] = {str(FIRST): graph.propose(query, K).tolist()}
            exact = data[np.asarray(row["proposed"][str(FIRST)])] @ query
            row["exact_sims"] |= {
                str(r): float(s) for r, s in zip(row["proposed"][str(FIRST)], exact, strict=True)
            }
        found = single(rows, FIRST)
        results.append({"m": m, "ef_construction": ef_construction, "build_s": built, **found})
        print(json.dumps(results[-1]), flush=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(results, f)


def timing(store: str, home: str, out: str) -> None:
    """``Memory.recall`` of each label with the second search (``RETRY_BELOW``, 4x) off
    and on, interleaved per label in alternating order on one store and graph (each
    query's vector cached by a first pass, so both sides skip the model); the graph's
    counters tell how many took the second search."""
    from engram import Config, Memory
    from engram.bench.scale_cold import wait_for_index
    from engram.recall.standing import load_labels

    labels = load_labels()
    with Memory(store, config=Config.load(env={}, home=home)) as mem:
        for label in labels:
            mem.recall(label, namespace=NAMESPACE)
        wait_for_index(mem)
        graph = mem.index._blocks[NAMESPACE].graph  # type: ignore[union-attr]  # noqa: SLF001
        assert graph is not None
        graph.retry_below = RETRY_BELOW
        wide = graph.ef_search * (SECOND // FIRST)
        times: dict[str, list[float]] = {"off": [], "on": []}
        taken = graph.retries
        for i, label in enumerate(labels * 2):
            for side in ("off", "on") if i % 2 == 0 else ("on", "off"):
                graph.retry_ef = wide if side == "on" else graph.ef_search
                start = time.perf_counter()
                mem.recall(label, namespace=NAMESPACE)
                times[side].append(1000 * (time.perf_counter() - start))
        result = {
            side: {
                "p50_ms": round(float(np.percentile(ms, 50)), 2),
                "p95_ms": round(float(np.percentile(ms, 95)), 2),
            }
            for side, ms in times.items()
        }
        result["second_search_share"] = round((graph.retries - taken) / (2 * len(labels)), 3)
    print(json.dumps(result))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f)


def _top(row: dict[str, Any], proposed: set[int]) -> list[int]:
    sims = row["exact_sims"]
    return sorted(proposed, key=lambda r: -sims[str(r)])[:K]


def _score(row: dict[str, Any], proposed: set[int]) -> tuple[float, bool]:
    got = _top(row, proposed)
    return len(set(got) & set(row["truth"])) / K, bool(got) and got[0] == row["truth"][0]


def evaluate(rows: list[dict[str, Any]], retry: Any) -> dict[str, dict[str, float]]:
    """Per kind: recall@10, top-1 misses, the share searched twice, and the graph's time
    (first search, plus the second where taken) at the median and p95."""
    result = {}
    for kind in ("label", "question"):
        mine = [r for r in rows if r["kind"] == kind]
        recalls, misses, twice, ms = [], 0, 0, []
        for r in mine:
            proposed = set(r["proposed"][str(FIRST)])
            took = r["ms"][str(FIRST)]
            if retry(r):
                twice += 1
                proposed |= set(r["proposed"][str(SECOND)])
                took += r["ms"][str(SECOND)]
            recall, hit = _score(r, proposed)
            recalls.append(recall)
            misses += not hit
            ms.append(took)
        result[kind] = {
            "n": len(mine),
            "recall@10": round(statistics.fmean(recalls), 3),
            "top1_misses": misses,
            "twice": round(twice / len(mine), 3),
            "graph_ms_p50": round(float(np.percentile(ms, 50)), 2),
            "graph_ms_p95": round(float(np.percentile(ms, 95)), 2),
        }
    return result


def single(rows: list[dict[str, Any]], ef: int) -> dict[str, dict[str, float]]:
    """What one search at ``ef`` alone reaches (raising the default instead)."""
    result = {}
    for kind in ("label", "question"):
        mine = [r for r in rows if r["kind"] == kind]
        scores = [_score(r, set(r["proposed"][str(ef)])) for r in mine]
        result[kind] = {
            "recall@10": round(statistics.fmean(s for s, _ in scores), 3),
            "top1_misses": sum(not hit for _, hit in scores),
            "graph_ms_p50": round(float(np.percentile([r["ms"][str(ef)] for r in mine], 50)), 2),
        }
    return result


SIGNALS = {
    "best": lambda t: lambda r: r["best"] < t,
    "gap2": lambda t: lambda r: r["gap2"] < t,
    "gap10": lambda t: lambda r: r["gap10"] < t,
    "words": lambda t: lambda r: r["words"] <= t,
}
GRID = {
    "best": (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65),
    "gap2": (0.005, 0.01, 0.02, 0.03, 0.05),
    "gap10": (0.03, 0.05, 0.08, 0.1, 0.15),
    "words": (2, 3, 4),
}


def main(argv: list[str]) -> None:
    command, *args = argv
    if command == "collect":
        collect(*args)
        return
    if command == "timing":
        timing(*args)
        return
    if command == "builds":
        builds(*args)
        return
    with open(args[0], encoding="utf-8") as f:
        rows = json.load(f)
    if command == "fit":
        tune = [r for r in rows if r["half"] == "tune"]
        for ef in EFS:
            print(f"ef {ef} alone", json.dumps(single(tune, ef)))
        print("never twice", json.dumps(evaluate(tune, lambda r: False)))
        print("always twice", json.dumps(evaluate(tune, lambda r: True)))
        for name, thresholds in GRID.items():
            for t in thresholds:
                print(name, t, json.dumps(evaluate(tune, SIGNALS[name](t))))
    elif command == "check":
        check = [r for r in rows if r["half"] == "check"]
        name, threshold = args[1], float(args[2])
        for ef in EFS:
            print(f"ef {ef} alone", json.dumps(single(check, ef)))
        print("never twice", json.dumps(evaluate(check, lambda r: False)))
        print(name, threshold, json.dumps(evaluate(check, SIGNALS[name](threshold))))


if __name__ == "__main__":
    main(sys.argv[1:])

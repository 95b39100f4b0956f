"""Recall's work beyond the model at 100k (session thirty-four, lat38): the profile, the
answers check and the paired old/new stage timings, on a kept ``engram bench scale``
store (``--keep DIR``; namespace ``bench-scale``).

Each mode opens the store it is given (point it at a COPY: recall records access
times) under the ``src`` first on ``PYTHONPATH``, so the same file measures two trees:

    # the 320 questions the modes ask, and their vectors from the real model (once)
    PYTHONPATH=src .venv/bin/python scripts/lat38_measure.py vectors --out /tmp/q.npz
    # cProfile of 300 recalls, the model out of the picture (vectors looked up)
    PYTHONPATH=src .venv/bin/python scripts/lat38_measure.py profile \\
        --store /tmp/copy/scale-100000.db --questions /tmp/q.npz
    # each call's own time inside the stages after the model (wrappers, no profiler)
    PYTHONPATH=src .venv/bin/python scripts/lat38_measure.py laps \\
        --store /tmp/copy/scale-100000.db --questions /tmp/q.npz
    # the top 4 ids and the warnings of 300 recalls, the recency clock frozen: a digest
    PYTHONPATH=src .venv/bin/python scripts/lat38_measure.py answers \\
        --store /tmp/copy/scale-100000.db --questions /tmp/q.npz
    # old and new in two processes, asked in turn (the first alternating), each recall
    # running the real model inside it as the harness does: paired stage medians
    .venv/bin/python scripts/lat38_measure.py pair --a /tmp/base/src --b src \\
        --store-a /tmp/copy-a/scale-100000.db --store-b /tmp/copy-b/scale-100000.db

``pair`` reports per stage old and new medians, the paired median of new - old, and in
how many questions new was lower; ``--rounds`` repeats the questions.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "bench" / "locomo" / "locomo10_dev.json"
NAMESPACE = "bench-scale"
FROZEN = "2026-12-01T00:00:00+00:00"
WARM = 20


def _questions(count: int) -> list[str]:
    from engram.bench.scale import locomo_turns_and_questions

    _, asked = locomo_turns_and_questions(str(LOCOMO))
    return list(dict.fromkeys(asked))[:count]


def make_vectors(out: str, count: int) -> None:
    import numpy as np

    from engram import Config
    from engram.embed import create_embedder

    texts = _questions(count)
    config = Config.load()
    embedder = create_embedder(config.embedder, config.home_path)
    assert embedder is not None
    np.savez(out, q=np.array(texts, dtype=object), v=embedder.embed_batch(texts))


def _open(store: str, questions: str | None, model_ms: float = 0.0) -> tuple[Any, list[str]]:
    """The store opened with its questions' vectors looked up (``questions``), or with
    the default model (None), the recency clock frozen. ``model_ms``: each lookup sleeps
    this long first, releasing the GIL as the model does, so the keyword leg's worker
    runs beside it as it does beside the model (without it, the worker and the calling
    thread take turns at the GIL after the lookup, and the profile reads the turns)."""
    from datetime import datetime

    from engram import Config, Memory
    from engram.recall import ranking

    frozen = datetime.fromisoformat(FROZEN)
    ranking.utcnow = lambda: frozen  # type: ignore[attr-defined]
    config = Config.load(env={}, home=tempfile.mkdtemp(prefix="lat38-"))
    if questions is None:
        return Memory(store, config=config), _questions(WARM + 300)
    import numpy as np

    from engram.bench.pg_scale import LookupEmbedder

    data = np.load(questions, allow_pickle=True)
    texts = [str(q) for q in data["q"]]

    class SlowLookup(LookupEmbedder):
        def embed_batch(self, texts: Any) -> Any:
            time.sleep(model_ms / 1000)
            return super().embed_batch(texts)

    embedder = SlowLookup("all-MiniLM-L6-v2", dict(zip(texts, data["v"], strict=True)))
    return Memory(store, config=config, embedder=embedder), texts


def _warm(mem: Any, texts: list[str]) -> None:
    from engram.bench.scale_cold import wait_for_index

    for q in texts[:WARM]:
        mem.recall(q, namespace=NAMESPACE)
    wait_for_index(mem)
    for q in texts[:WARM]:
        mem.recall(q, namespace=NAMESPACE)


def profile(store: str, questions: str, top: int, model_ms: float) -> None:
    from engram.embed.cache import QueryVectorCache

    mem, texts = _open(store, questions, model_ms)
    with mem:
        _warm(mem, texts)
        timed = texts[WARM : WARM + 300]
        stages: dict[str, list[float]] = {}
        for q in timed:  # unprofiled: the stage medians without the profiler's cost
            mem._core.retriever.query_vectors = QueryVectorCache()  # the "model" runs
            for stage, ms in mem.recall(q, namespace=NAMESPACE).timings.items():
                stages.setdefault(stage, []).append(ms)
        prof = cProfile.Profile()
        for q in timed:
            mem._core.retriever.query_vectors = QueryVectorCache()
            prof.enable()
            mem.recall(q, namespace=NAMESPACE)
            prof.disable()
    print("load", os.getloadavg()[0])
    print("stage medians ms:", {k: round(statistics.median(v), 3) for k, v in stages.items()})
    stats = pstats.Stats(prof)
    total_calls = sum(v[1] for v in stats.stats.values())  # type: ignore[attr-defined]
    print(f"calls per recall (primitive + recursive): {total_calls / len(timed):.0f}")
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(key).print_stats(top)
        print(out.getvalue())
    out = io.StringIO()  # what the fuse and fetch stages call, one level down
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_callees("_rank|_candidates")
    print(out.getvalue())


#: The calls ``laps`` times: module, attribute (those ``pipeline`` calls through a module
#: or imported by name), and on the retriever's stores.
_LAPPED = {
    "waiting": ("facts_of", "time_scores"),
    "completion": ("cosines",),
    "fusion": ("normalize_bm25",),
    "ranking": ("fuse", "rank"),
    "context": ("read", "sessionless"),
    "keyword_share": ("rescored",),
    "restated": ("ordered",),
    "echoes": ("demoted",),
    "coverage": ("depth",),
    "pipeline": ("closed", "untimed", "demoted", "directive_ids", "long_ids"),
}


def laps(store: str, questions: str, model_ms: float) -> None:
    """The median own time of each call above, and of the store's reads inside them, on
    the calling thread (a wrapper's ~0.2 us each aside), over 300 recalls."""
    import functools
    import importlib
    import threading

    from engram.embed.cache import QueryVectorCache
    from engram.store.sqlite import fact_block, facts, term_index, term_search

    acc: dict[str, list[float]] = {}
    main = threading.get_ident()

    def wrap(owner: Any, name: str, label: str) -> None:
        call = getattr(owner, name)

        @functools.wraps(call)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != main:  # the workers' reads are not the stages'
                return call(*args, **kwargs)
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                acc.setdefault(label, []).append((time.perf_counter() - start) * 1e6)

        setattr(owner, name, timed)

    for module, names in _LAPPED.items():
        found = importlib.import_module(f"engram.recall.{module}")
        for name in names:
            wrap(found, name, f"{module}.{name}")
    wrap(term_search.TermSearch, "_catch_up", "term index: catch-up check")
    wrap(term_index.TermBlock, "live_rows", "term index: live_rows (id search)")
    wrap(term_index.TermBlock, "scores", "term index: scores of rows")
    wrap(fact_block.FactBlock, "facts", "fact block: facts")
    wrap(fact_block.FactBlock, "_gather", "fact block: gather (id search)")
    wrap(facts.SQLiteMemories, "_current", "facts: data_version")
    mem, texts = _open(store, questions, model_ms)
    stages: dict[str, list[float]] = {}
    with mem:
        retriever = mem._core.retriever
        wrap(retriever.keyword, "scores", "keyword.scores")
        wrap(retriever.memories, "get_many", "memories.get_many (fetch)")
        _warm(mem, texts)
        acc.clear()
        for q in texts[WARM : WARM + 300]:
            retriever.query_vectors = QueryVectorCache()
            for stage, ms in mem.recall(q, namespace=NAMESPACE).timings.items():
                stages.setdefault(stage, []).append(ms)
    print("load", os.getloadavg()[0])
    print("stage medians ms:", {k: round(statistics.median(v), 3) for k, v in stages.items()})
    for label, us in sorted(acc.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"{label:36s} {len(us):4d} calls, median {statistics.median(us):7.1f} us")


def answers(store: str, questions: str, limit: int) -> None:
    mem, texts = _open(store, questions)
    digest = hashlib.sha256()
    with mem:
        _warm(mem, texts)
        for q in texts[WARM : WARM + 300]:
            got = mem.recall(q, namespace=NAMESPACE, limit=limit)
            line = json.dumps([[h.memory.id for h in got.hits[:4]], list(got.warnings)])
            digest.update(line.encode())
    print(f"answers digest (300 questions, limit {limit}): {digest.hexdigest()[:16]}")


def serve(store: str) -> None:
    """A worker: the real model inside each recall (no query vector kept), a question
    index on stdin, the recall's ms and stage timings on stdout."""
    from engram.embed.cache import QueryVectorCache

    if os.environ.get("LAT38_SWITCH"):  # an experiment: the interpreter's switch interval
        sys.setswitchinterval(float(os.environ["LAT38_SWITCH"]))
    mem, texts = _open(store, None)
    with mem:
        _warm(mem, texts)
        print("ready", flush=True)
        for line in sys.stdin:
            q = texts[int(line)]
            mem._core.retriever.query_vectors = QueryVectorCache()
            start = time.perf_counter()
            got = mem.recall(q, namespace=NAMESPACE)
            ms = (time.perf_counter() - start) * 1000
            print(json.dumps({"ms": ms, "timings": got.timings}), flush=True)


def pair(a: str, b: str, store_a: str, store_b: str, rounds: int, switch_b: str) -> None:
    workers = []
    for src, store in ((a, store_a), (b, store_b)):
        env = {**os.environ, "PYTHONPATH": src}
        if switch_b and store == store_b:
            env["LAT38_SWITCH"] = switch_b
        cmd = [sys.executable, __file__, "serve", "--store", store]
        proc = subprocess.Popen(
            cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        workers.append(proc)
    for proc in workers:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    got: list[list[dict[str, Any]]] = [[], []]
    loads = [os.getloadavg()[0]]
    asked = 0
    for _ in range(rounds):
        for i in range(WARM, WARM + 300):
            order = (0, 1) if asked % 2 == 0 else (1, 0)
            asked += 1
            for w in order:
                proc = workers[w]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{i}\n")
                proc.stdin.flush()
                got[w].append(json.loads(proc.stdout.readline()))
    loads.append(os.getloadavg()[0])
    for proc in workers:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    old, new = got
    stages = sorted({s for r in old for s in r["timings"]} & {s for r in new for s in r["timings"]})
    print(f"{asked} questions, load {loads[0]:.2f} -> {loads[1]:.2f}")
    print(f"{'stage':<10} {'old':>8} {'new':>8} {'new-old':>8}  lower")
    for stage in [*stages, "ms"]:
        pairs = [
            (o["timings"][stage], n["timings"][stage]) if stage != "ms" else (o["ms"], n["ms"])
            for o, n in zip(old, new, strict=True)
            if stage == "ms" or (stage in o["timings"] and stage in n["timings"])
        ]
        if len(pairs) < asked // 2:
            continue
        diffs = [n - o for o, n in pairs]
        print(
            f"{stage:<10} {statistics.median(p[0] for p in pairs):8.3f} "
            f"{statistics.median(p[1] for p in pairs):8.3f} {statistics.median(diffs):+8.3f}  "
            f"{sum(d < 0 for d in diffs)} of {len(diffs)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    v = sub.add_parser("vectors")
    v.add_argument("--out", required=True)
    v.add_argument("--count", type=int, default=WARM + 300)
    p = sub.add_parser("profile")
    p.add_argument("--store", required=True)
    p.add_argument("--questions", required=True)
    p.add_argument("--top", type=int, default=45)
    p.add_argument("--model-ms", type=float, default=1.5, help="the lookup's sleep")
    lp = sub.add_parser("laps")
    lp.add_argument("--store", required=True)
    lp.add_argument("--questions", required=True)
    lp.add_argument("--model-ms", type=float, default=1.5, help="the lookup's sleep")
    a = sub.add_parser("answers")
    a.add_argument("--store", required=True)
    a.add_argument("--questions", required=True)
    a.add_argument("--limit", type=int, default=4)
    s = sub.add_parser("serve")
    s.add_argument("--store", required=True)
    r = sub.add_parser("pair")
    r.add_argument("--a", required=True, help="the old tree's src")
    r.add_argument("--b", required=True, help="the new tree's src")
    r.add_argument("--store-a", required=True)
    r.add_argument("--store-b", required=True)
    r.add_argument("--rounds", type=int, default=1)
    r.add_argument("--switch-b", default="", help="b's sys.setswitchinterval (an experiment)")
    args = parser.parse_args()
    if args.mode == "vectors":
        make_vectors(args.out, args.count)
    elif args.mode == "profile":
        profile(args.store, args.questions, args.top, args.model_ms)
    elif args.mode == "laps":
        laps(args.store, args.questions, args.model_ms)
    elif args.mode == "answers":
        answers(args.store, args.questions, args.limit)
    elif args.mode == "serve":
        serve(args.store)
    else:
        pair(args.a, args.b, args.store_a, args.store_b, args.rounds, args.switch_b)


if __name__ == "__main__":
    main()

"""Two engram checkouts' whole recalls on one PostgreSQL database, question by question,
with every answer kept for comparing (issue 29: the reads after the dense leg).

Each checkout runs in its own worker process (its own ``src`` first on ``PYTHONPATH``),
both on the same loaded database (``scripts/bench_pg_scale.py --bulk``, namespace
``bench``). The driver asks both the same LoCoMo question in turn, the first one
alternating, for several rounds over the questions; recall runs without the model (the
questions' vectors are looked up) and with the recency clock frozen, so two checkouts
that rank alike give the same scores to the last bit. Per round and checkout it reports
p50 / p95, the median of each stage (``Recall.timings``), the client's CPU per recall
and the load average; over all rounds, how many answers were identical: the hits' ids,
scores and score breakdowns, the context, the shown ids, the abstention and the warnings.

    .venv/bin/python scripts/pg_recall_reads.py --url postgresql://.../bench100k \\
        --a /work/main/src --b src --rounds 3 --out /tmp/reads.json

``--questions Q.npz`` (``q``: texts, ``v``: vectors) is made with the real model on first
use. A worker is this file run with ``--serve`` under a checkout's ``src``: it needs
nothing of that checkout newer than ``Memory`` and ``LookupEmbedder``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from engram.bench.pg_ann_ab import Worker, backend_ticks

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "bench" / "locomo" / "locomo10_dev.json"
NAMESPACE = "bench"
#: The recency clock of every recall: a fixed instant, so scores do not drift between
#: the two workers' recalls of one question.
FROZEN = "2026-12-01T00:00:00+00:00"


def make_questions(path: Path, count: int) -> None:
    """The first ``count`` distinct LoCoMo questions and their real MiniLM vectors."""
    from engram import Config
    from engram.bench.scale import locomo_turns_and_questions
    from engram.embed import create_embedder

    _, asked = locomo_turns_and_questions(LOCOMO)
    questions = list(dict.fromkeys(asked))[:count]
    config = Config.load()
    embedder = create_embedder(config.embedder, config.home_path)
    if embedder is None:
        raise SystemExit("embedder.name is 'none': the questions need the model's vectors")
    np.savez(path, q=np.array(questions, dtype=object), v=embedder.embed_batch(questions))


def serve(url: str, questions: str, warm: int, limit: int, embed_ms: float) -> None:
    """A worker: answer question indexes on stdin with the time, the stage timings, the
    client's CPU and the whole answer, one JSON line each. ``embed_ms``: each query's
    "model" sleeps this long (the threads beside it run meanwhile, as beside a model
    that releases the GIL), and no query vector is kept between recalls."""
    from datetime import datetime

    from engram import Config, Memory
    from engram.bench.pg_scale import LookupEmbedder
    from engram.embed.cache import QueryVectorCache
    from engram.recall import ranking

    class SlowLookup(LookupEmbedder):
        def embed_batch(self, texts: Any) -> Any:
            time.sleep(embed_ms / 1000)
            return super().embed_batch(texts)

    frozen = datetime.fromisoformat(FROZEN)
    ranking.utcnow = lambda: frozen  # type: ignore[attr-defined]
    data = np.load(questions, allow_pickle=True)
    texts = [str(q) for q in data["q"]]
    embedder = SlowLookup("all-MiniLM-L6-v2", dict(zip(texts, data["v"], strict=True)))
    home = tempfile.mkdtemp(prefix="engram-reads-")
    config = Config.load(env={}, home=home, postgres={"pool_max_size": 20})
    name = f"engram-reads-{os.getpid()}"
    admin = psycopg.connect(url, autocommit=True)
    joined = "&" if "?" in url else "?"
    with Memory(f"{url}{joined}application_name={name}", config=config, embedder=embedder) as mem:
        for q in texts[:warm]:
            mem.recall(q, namespace=NAMESPACE, limit=limit)
        print("ready", flush=True)
        for line in sys.stdin:  # "STRATEGY INDEX" (``pg_ann_ab.Worker.ask``)
            strategy, index = line.rsplit(" ", 1)
            q = texts[int(index)]
            if embed_ms:  # every recall runs the "model"
                mem._core.retriever.query_vectors = QueryVectorCache()
            ticks = backend_ticks(admin, name)
            cpu = time.process_time()
            start = time.perf_counter()
            got = mem.recall(q, namespace=NAMESPACE, limit=limit, strategy=strategy)
            ms = (time.perf_counter() - start) * 1000
            out = {
                "ms": ms,
                "client_cpu_ms": (time.process_time() - cpu) * 1000,
                "server_ticks": backend_ticks(admin, name) - ticks,
                "timings": got.timings,
                "answer": {
                    "hits": [h.to_dict() for h in got.hits],
                    "context": got.context,
                    "shown": list(got.shown),
                    "mode": str(got.mode),
                    "abstain_reason": got.abstain_reason,
                    "low_confidence": got.low_confidence,
                    "warnings": list(got.warnings),
                },
            }
            print(json.dumps(out), flush=True)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the loaded database (namespace 'bench')")
    parser.add_argument(
        "--url-b",
        help="the second checkout's copy of it, when the checkouts' migrations differ "
        "(default: --url)",
    )
    parser.add_argument("--a", required=True, help="the first checkout's src (old)")
    parser.add_argument("--b", required=True, help="the second checkout's src (new)")
    parser.add_argument("--questions", default="/tmp/pgread18-work/questions.npz")
    parser.add_argument("--count", type=int, default=330, help="questions (the first warm up)")
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument(
        "--embed-ms",
        type=float,
        default=0.0,
        help="a query's embedding takes this long (a sleep; 0: the vectors are looked up)",
    )
    parser.add_argument("--out", help="also write the JSON here")
    args = parser.parse_args()
    qpath = Path(args.questions)
    if not qpath.is_file():
        make_questions(qpath, args.count)
    count = len(np.load(qpath, allow_pickle=True)["q"])
    workers = {
        k: Worker(
            src,
            url,
            str(qpath),
            args.warm,
            script=__file__,
            extra=[str(args.limit), str(args.embed_ms)],
        )
        for k, src, url in (("a", args.a, args.url), ("b", args.b, args.url_b or args.url))
    }
    rounds: list[dict[str, Any]] = []
    answers: dict[str, dict[int, str]] = {"a": {}, "b": {}}
    differ: set[int] = set()
    try:
        for r in range(args.rounds):
            load_before = os.getloadavg()[0]
            ms: dict[str, list[float]] = {"a": [], "b": []}
            cpu: dict[str, list[float]] = {"a": [], "b": []}
            ticks: dict[str, int] = {"a": 0, "b": 0}
            stages: dict[str, dict[str, list[float]]] = {"a": {}, "b": {}}
            for turn, index in enumerate(range(args.warm, count)):
                order = ("a", "b") if (turn + r) % 2 == 0 else ("b", "a")
                for k in order:
                    got = workers[k].ask("hybrid", index)
                    ms[k].append(got["ms"])
                    cpu[k].append(got["client_cpu_ms"])
                    ticks[k] += got["server_ticks"]
                    for stage, value in got["timings"].items():
                        stages[k].setdefault(stage, []).append(value)
                    text = json.dumps(got["answer"], sort_keys=True)
                    if answers[k].setdefault(index, text) != text:
                        differ.add(index)  # a checkout answered one question two ways
                if answers["a"][index] != answers["b"][index]:
                    differ.add(index)
            load_after = os.getloadavg()[0]
            rounds.append(
                {
                    "round": r + 1,
                    "load": [round(load_before, 2), round(load_after, 2)],
                    **{
                        k: {
                            "p50_ms": round(_pct(ms[k], 50), 2),
                            "p95_ms": round(_pct(ms[k], 95), 2),
                            "client_cpu_ms": round(statistics.mean(cpu[k]), 2),
                            # the backends' CPU from /proc, in clock ticks: a mean
                            "server_cpu_ms": round(
                                ticks[k] * 1000 / os.sysconf("SC_CLK_TCK") / len(ms[k]), 2
                            ),
                            "stage_p50_ms": {
                                s: round(statistics.median(v), 3) for s, v in stages[k].items()
                            },
                            # stages that ran in only some recalls (time leg, sessions)
                            "stage_runs": {s: len(v) for s, v in stages[k].items()},
                        }
                        for k in ("a", "b")
                    },
                }
            )
            print(json.dumps(rounds[-1]), flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    asked = count - args.warm
    result = {
        "a": args.a,
        "b": args.b,
        "url": args.url.rsplit("@", 1)[-1],
        "questions": asked,
        "embed_ms": args.embed_ms,
        "rounds": rounds,
        "answers_identical": f"{asked - len(differ)}/{asked}",
        "differing_questions": sorted(differ)[:20],
    }
    text = json.dumps(result, indent=1)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()

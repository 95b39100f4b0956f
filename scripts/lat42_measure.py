"""Recall beyond the model since lat38 (session thirty-six, lat42): which questions make
the slowest 5% of recalls at 100k, and what they run that the others do not.

Built on ``scripts/lat38_measure.py`` (its store opening, warm-up and frozen clock); run
it from the worktree root (``../shared`` is the bench data) on a COPY of a kept
``engram bench scale`` store, with the tree to measure first on ``PYTHONPATH``:

    # the issue harness's 100 timed questions (``bench scale --reuse``'s choice), five
    # rounds, the real model inside each recall: per question its ms and stages
    PYTHONPATH=src .venv/bin/python scripts/lat42_measure.py slowest \\
        --store /tmp/copy/scale-100000.db --set harness --rounds 5
    # the same over lat38's 300 questions (``answers``/``pair``'s)
    PYTHONPATH=src .venv/bin/python scripts/lat42_measure.py slowest \\
        --store /tmp/copy/scale-100000.db --set bench300 --rounds 3
    # lat38's ``answers`` digest with the real model in place of the looked-up vectors
    # (a lookup has no vector for a judgement question's second query, and warns)
    PYTHONPATH=src .venv/bin/python scripts/lat42_measure.py answers \\
        --store /tmp/copy/scale-100000.db

    # lat38's ``pair`` (its ``serve`` workers, asked in turn), read by question kind:
    # the judgement questions apart, and each tree's p50/p95 over all
    .venv/bin/python scripts/lat42_measure.py pair --a /tmp/base/src --b src \\
        --store-a /tmp/copy-a/scale-100000.db --store-b /tmp/copy-b/scale-100000.db

``slowest`` prints the recall's p50/p95, the questions that fall in a round's slowest
5% in at least half the rounds, and for them the stages they ran that most recalls do not (a
stage present in under half the recalls) and each stage's median excess over all
questions' median. ``--json OUT`` keeps every recall's figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lat38_measure as lat38  # noqa: E402  (the script beside this one)

#: ``engram bench scale --reuse``'s questions: ``(queries + 20 + i) % len`` for
#: ``queries + 20`` of them, the first 20 a warm-up.
HARNESS_QUERIES = 100


def _harness_questions() -> list[str]:
    from engram.bench.scale import locomo_turns_and_questions

    _, asked = locomo_turns_and_questions(str(lat38.LOCOMO))
    unique = list(dict.fromkeys(asked))
    first = HARNESS_QUERIES + lat38.WARM
    return [unique[(first + i) % len(unique)] for i in range(first)]


def slowest(store: str, which: str, rounds: int, out: str) -> None:
    from engram.embed.cache import QueryVectorCache
    from engram.recall.judgement import asks_judgement

    mem, texts = lat38._open(store, None)
    if which == "harness":
        texts = _harness_questions()
    timed = texts[lat38.WARM : lat38.WARM + (HARNESS_QUERIES if which == "harness" else 300)]
    runs: list[list[dict[str, Any]]] = []
    with mem:
        lat38._warm(mem, texts)
        for _ in range(rounds):
            got = []
            for q in timed:
                mem._core.retriever.query_vectors = QueryVectorCache()  # the model runs
                start = time.perf_counter()
                recall = mem.recall(q, namespace=lat38.NAMESPACE)
                ms = (time.perf_counter() - start) * 1000
                got.append({"q": q, "ms": ms, "timings": recall.timings})
            runs.append(got)
    print(f"load {os.getloadavg()[0]:.2f}; {len(timed)} questions x {rounds} rounds ({which})")
    every = [r for run in runs for r in run]
    p50s = [statistics.median(r["ms"] for r in run) for run in runs]
    p95s = [statistics.quantiles([r["ms"] for r in run], n=20)[-1] for run in runs]
    print("p50 per round:", " ".join(f"{v:.2f}" for v in p50s))
    print("p95 per round:", " ".join(f"{v:.2f}" for v in p95s))
    cut = max(1, round(len(timed) * 0.05))
    tally: dict[int, int] = {}
    for run in runs:
        for i in sorted(range(len(run)), key=lambda i: -run[i]["ms"])[:cut]:
            tally[i] = tally.get(i, 0) + 1
    stage_all: dict[str, list[float]] = {}
    for r in every:
        for stage, ms in r["timings"].items():
            stage_all.setdefault(stage, []).append(ms)
    rare = {s for s, v in stage_all.items() if len(v) < len(every) / 2}
    medians = {s: statistics.median(v) for s, v in stage_all.items()}
    print(f"stages in under half the recalls: {sorted(rare)}")
    print(f"judgement questions: {sum(asks_judgement(q) for q in timed)} of {len(timed)}")
    steady = sorted((i for i, n in tally.items() if n * 2 >= rounds), key=lambda i: -tally[i])
    print(f"in a round's slowest {cut} in at least half the rounds: {len(steady)}")
    for i in steady:
        mine = [run[i] for run in runs]
        ms = statistics.median(r["ms"] for r in mine)
        ran = sorted({s for r in mine for s in r["timings"]} & rare)
        excess = {
            s: statistics.median(r["timings"].get(s, 0.0) for r in mine) - medians[s]
            for s in stage_all
            if s != "total"
        }
        top = sorted(excess.items(), key=lambda kv: -kv[1])[:3]
        print(
            f"  {tally[i]}/{rounds} {ms:6.2f} ms judgement={asks_judgement(timed[i])!s:5} "
            f"rare stages {ran} excess "
            + ", ".join(f"{s} {v:+.2f}" for s, v in top)
            + f"  {timed[i][:70]!r}"
        )
    if out:
        Path(out).write_text(json.dumps(runs))


def answers(store: str, limit: int) -> None:
    import hashlib

    mem, texts = lat38._open(store, None)
    digest = hashlib.sha256()
    with mem:
        lat38._warm(mem, texts)
        for q in texts[lat38.WARM : lat38.WARM + 300]:
            got = mem.recall(q, namespace=lat38.NAMESPACE, limit=limit)
            line = json.dumps([[h.memory.id for h in got.hits[:4]], list(got.warnings)])
            digest.update(line.encode())
    print(
        f"answers digest, the real model (300 questions, limit {limit}): {digest.hexdigest()[:16]}"
    )


def pair(a: str, b: str, store_a: str, store_b: str, rounds: int) -> None:
    import subprocess

    from engram.recall.judgement import asks_judgement

    script = str(Path(lat38.__file__))
    workers = [
        subprocess.Popen(
            [sys.executable, script, "serve", "--store", store],
            env={**os.environ, "PYTHONPATH": src},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for src, store in ((a, store_a), (b, store_b))
    ]
    for proc in workers:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    texts = lat38._questions(lat38.WARM + 300)
    got: list[list[tuple[int, float]]] = [[], []]
    loads = [os.getloadavg()[0]]
    for r in range(rounds):
        for i in range(lat38.WARM, lat38.WARM + 300):
            for w in (0, 1) if (i + r) % 2 == 0 else (1, 0):
                proc = workers[w]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{i}\n")
                proc.stdin.flush()
                got[w].append((i, json.loads(proc.stdout.readline())["ms"]))
    loads.append(os.getloadavg()[0])
    for proc in workers:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(f"{len(got[0])} questions each, load {loads[0]:.2f} -> {loads[1]:.2f}")
    kinds = {"all": lambda i: True, "judgement": lambda i: asks_judgement(texts[i])}
    kinds["other"] = lambda i: not asks_judgement(texts[i])
    for kind, keep in kinds.items():
        old = [ms for i, ms in got[0] if keep(i)]
        new = [ms for i, ms in got[1] if keep(i)]
        diffs = [n - o for o, n in zip(old, new, strict=True)]
        p95 = [statistics.quantiles(v, n=20)[-1] for v in (old, new)]
        print(
            f"{kind:9s} n={len(old):4d} p50 {statistics.median(old):6.2f} -> "
            f"{statistics.median(new):6.2f}  p95 {p95[0]:6.2f} -> {p95[1]:6.2f}  paired "
            f"{statistics.median(diffs):+6.2f}, lower in {sum(d < 0 for d in diffs)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("slowest")
    s.add_argument("--store", required=True)
    s.add_argument("--set", choices=("harness", "bench300"), default="harness")
    s.add_argument("--rounds", type=int, default=5)
    s.add_argument("--json", default="")
    a = sub.add_parser("answers")
    a.add_argument("--store", required=True)
    a.add_argument("--limit", type=int, default=4)
    r = sub.add_parser("pair")
    r.add_argument("--a", required=True, help="the old tree's src")
    r.add_argument("--b", required=True, help="the new tree's src")
    r.add_argument("--store-a", required=True)
    r.add_argument("--store-b", required=True)
    r.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.mode == "pair":
        pair(args.a, args.b, args.store_a, args.store_b, args.rounds)
    elif args.mode == "answers":
        answers(args.store, args.limit)
    else:
        slowest(args.store, args.set, args.rounds, args.json)


if __name__ == "__main__":
    main()

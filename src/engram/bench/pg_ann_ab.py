"""Two engram checkouts side by side on PostgreSQL, one query at a time (issue 29).

On a shared machine the load moves by the minute, so two runs one after the other
compare the load as much as the code. Here each checkout runs in its own process (its
own ``src`` first on ``PYTHONPATH``) against its own copy of one loaded database, and
the driver asks both the same question in turn, alternating which goes first, for every
strategy: hybrid, dense only, keyword only (whole recalls, no model: vectors are looked
up) and the keyword leg's content search alone at recall's depth. It reports p50 / p95
of each, the median stage times of the hybrid recalls, and how many keyword rankings
(ids and scores) were identical between the two (over the shorter of the two
rankings, when one checkout reads less deep) and how many recalls' top 10 ids were,
and the client's and the server's CPU per answer (the server's from ``/proc``, so it
must run on this machine).

    python -m engram.bench.pg_ann_ab --questions Q.npz \\
        --a /work/main/src postgresql://.../old100k \\
        --b src postgresql://.../new100k --out ab.json

``Q.npz`` holds ``q`` (question texts) and ``v`` (their vectors, as the scale
benchmark embeds them). A worker is this file run with ``--serve`` under the other
checkout's ``src`` (it needs nothing of that checkout newer than its ``Memory``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Any

import numpy as np

from engram.bench.metrics import percentile

STRATEGIES = ("hybrid", "dense", "bm25", "keyword leg")
NAMESPACE = "bench"


def backend_ticks(admin: Any, name: str) -> int:
    """The CPU time (user + system, in clock ticks) the server's backends serving
    ``application_name`` ``name`` have used so far, read from ``/proc`` (the server
    runs on this machine)."""
    pids = [r[0] for r in admin.execute(SERVED_BY, (name,)).fetchall()]
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the backend ended
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (stat fields 14, 15)
    return ticks


#: The backends of one worker's pool, told apart by their ``application_name``.
SERVED_BY = "SELECT pid FROM pg_stat_activity WHERE application_name = %s"


def serve(url: str, questions: str, warm: int) -> None:
    """A worker: open ``url`` with a lookup embedder, answer "STRATEGY INDEX" lines
    with the time, the client's CPU (every thread of this process) and the server's
    CPU (this worker's backends) each answer took, and a hybrid recall's top ids."""
    import psycopg

    from engram import Config, Memory
    from engram.bench.pg_scale import LookupEmbedder
    from engram.store.protocols.keyword import DEPTH
    from engram.text import fts_query

    data = np.load(questions, allow_pickle=True)
    texts = [str(q) for q in data["q"]]
    embedder = LookupEmbedder("all-MiniLM-L6-v2", dict(zip(texts, data["v"], strict=True)))
    home = tempfile.mkdtemp(prefix="engram-ab-")
    config = Config.load(env={}, home=home, postgres={"pool_max_size": 20})
    name = f"engram-ab-{os.getpid()}"
    joined = "&" if "?" in url else "?"
    admin = psycopg.connect(url, autocommit=True)
    with Memory(f"{url}{joined}application_name={name}", config=config, embedder=embedder) as mem:
        for q in texts[:warm]:
            mem.recall(q, namespace=NAMESPACE, limit=10)
        print("ready", flush=True)
        for line in sys.stdin:
            strategy, index = line.rsplit(" ", 1)
            q = texts[int(index)]
            out: dict[str, Any] = {}
            ticks = backend_ticks(admin, name)
            cpu = time.process_time()
            start = time.perf_counter()
            if strategy == "keyword leg":
                match = fts_query(q)
                found = mem.store.keyword.search(NAMESPACE, match, DEPTH) if match else []
                out["ranked"] = found
            else:
                got = mem.recall(q, namespace=NAMESPACE, limit=10, strategy=strategy)
                out["timings"] = got.timings
                out["ids"] = [h.memory.id for h in got.hits]
            out["ms"] = (time.perf_counter() - start) * 1000
            out["client_cpu_ms"] = (time.process_time() - cpu) * 1000
            out["server_ticks"] = backend_ticks(admin, name) - ticks
            print(json.dumps(out), flush=True)
    admin.close()


class Worker:
    """One checkout's worker process: ``script`` (this file by default) run with
    ``--serve URL QUESTIONS WARM`` and ``extra`` arguments."""

    def __init__(
        self,
        src: str,
        url: str,
        questions: str,
        warm: int,
        *,
        script: str = __file__,
        extra: Sequence[str] = (),
    ) -> None:
        env = dict(os.environ, PYTHONPATH=src)
        # A file run as a script: the other checkout may not have this module.
        argv = [script, "--serve", url, questions, str(warm), *extra]
        code = (
            f"import runpy, sys; sys.argv = {argv!r}; "
            "runpy.run_path(sys.argv[0], run_name='__main__')"
        )
        self._proc = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        if self._read().strip() != "ready":
            raise RuntimeError(f"the worker for {src} did not start")

    def _read(self) -> str:
        out: IO[str] | None = self._proc.stdout
        assert out is not None
        return out.readline()

    def ask(self, strategy: str, index: int) -> dict[str, Any]:
        inp: IO[str] | None = self._proc.stdin
        assert inp is not None
        inp.write(f"{strategy} {index}\n")
        inp.flush()
        answer: dict[str, Any] = json.loads(self._read())
        return answer

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(60)
        if self._proc.stdout is not None:
            self._proc.stdout.close()


def compare(
    a: tuple[str, str], b: tuple[str, str], questions: str, indexes: Sequence[int], warm: int
) -> dict[str, Any]:
    """Both checkouts ((src, url) each) on every question and strategy, interleaved."""
    workers = {"a": Worker(*a, questions, warm), "b": Worker(*b, questions, warm)}
    ms: dict[str, dict[str, list[float]]] = {k: {s: [] for s in STRATEGIES} for k in workers}
    client: dict[str, dict[str, float]] = {k: dict.fromkeys(STRATEGIES, 0.0) for k in workers}
    server: dict[str, dict[str, int]] = {k: dict.fromkeys(STRATEGIES, 0) for k in workers}
    stages: dict[str, dict[str, list[float]]] = {k: {} for k in workers}
    same = compared = 0
    same_top = {s: 0 for s in STRATEGIES if s != "keyword leg"}
    try:
        for turn, index in enumerate(indexes):
            for j in range(len(STRATEGIES)):
                strategy = STRATEGIES[(turn + j) % len(STRATEGIES)]
                order = ("a", "b") if (turn + j) % 2 == 0 else ("b", "a")
                got = {k: workers[k].ask(strategy, index) for k in order}
                for k, answer in got.items():
                    ms[k][strategy].append(answer["ms"])
                    client[k][strategy] += answer["client_cpu_ms"]
                    server[k][strategy] += answer["server_ticks"]
                    for stage, value in answer.get("timings", {}).items():
                        if strategy == "hybrid":
                            stages[k].setdefault(stage, []).append(value)
                if strategy != "keyword leg":
                    same_top[strategy] += got["a"]["ids"] == got["b"]["ids"]
                if strategy == "keyword leg":
                    compared += 1
                    # Over the shorter one: a checkout may read the ranking shallower.
                    a_rows, b_rows = got["a"]["ranked"], got["b"]["ranked"]
                    depth = min(len(a_rows), len(b_rows))
                    same += a_rows[:depth] == b_rows[:depth]
    finally:
        for worker in workers.values():
            worker.close()
    out: dict[str, Any] = {}
    for k in workers:
        out[k] = {
            s: {"p50_ms": round(percentile(v, 50), 2), "p95_ms": round(percentile(v, 95), 2)}
            for s, v in ms[k].items()
        }
        out[k]["hybrid_stage_p50_ms"] = {
            s: round(percentile(v, 50), 2) for s, v in stages[k].items()
        }
        # Per answer, summed over the run: the server's in clock ticks (10 ms each),
        # too coarse for one answer and unbiased over hundreds.
        tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
        out[k]["cpu_ms_per_answer"] = {
            s: {
                "client": round(client[k][s] / len(ms[k][s]), 2),
                "server": round(server[k][s] * tick_ms / len(ms[k][s]), 2),
            }
            for s in STRATEGIES
            if ms[k][s]
        }
    out["keyword_rankings_identical"] = f"{same}/{compared}"
    out["top_10_identical"] = {s: f"{n}/{compared}" for s, n in same_top.items()}
    return out


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", nargs=2, metavar=("SRC", "URL"), required=True)
    parser.add_argument("--b", nargs=2, metavar=("SRC", "URL"), required=True)
    parser.add_argument("--questions", required=True, help="an .npz with q and v")
    parser.add_argument("--warm", type=int, default=20, help="questions to warm up on")
    parser.add_argument("--out", help="also write the JSON here")
    args = parser.parse_args()
    count = len(np.load(args.questions, allow_pickle=True)["q"])
    result = compare(
        (args.a[0], args.a[1]),
        (args.b[0], args.b[1]),
        args.questions,
        range(args.warm, count),
        args.warm,
    )
    text = json.dumps(result, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()

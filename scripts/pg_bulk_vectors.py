"""The PostgreSQL bulk path, old against new (issue 29, round 12): one step per run, under
whichever checkout's ``src`` is first on ``PYTHONPATH``, on a server given by
``ENGRAM_BENCH_SERVER`` (a URL ending in ``/``; the runs' databases are made there).

    PYTHONPATH=src python scripts/pg_bulk_vectors.py add 20000 s20k_new      # add_many, no model
    PYTHONPATH=src python scripts/pg_bulk_vectors.py vectors 20000 s20k_new  # the vectors phase
    PYTHONPATH=src python scripts/pg_bulk_vectors.py answers 20000 s20k_new  # 200 recalls
    PYTHONPATH=src python scripts/pg_bulk_vectors.py embed 2000 e2k_new      # add with the model

``add`` composes the scale harness's N texts (``compose_corpus``) and adds them to a new
database without an embedder; ``vectors`` stores their vectors as ``engram bench scale``
does (``store.vectors.put`` in 5,000-row batches, in ``seq`` order) and waits for a
deferred index build; ``answers`` runs 200 LoCoMo questions (vectors looked up from
``/tmp/pgread18-work/questions.npz``, the clock frozen) and writes every answer to
``/tmp/pg25-work/answers-DB.json``, with HNSW recall@10 against exact search; ``embed``
adds N LoCoMo turns with the real model beside the model alone, as the harness's sample.
"""

import json
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import psycopg

from engram import Config, Memory
from engram.bench.scale import base_vectors, compose_corpus, locomo_turns_and_questions
from engram.store.protocols.vectors import VectorRow

SERVER = os.environ.get("ENGRAM_BENCH_SERVER", "postgresql://postgres@127.0.0.1:55671/")
LOCOMO = Path("/work/shared/bench/locomo/locomo10_dev.json")
mode, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
url = SERVER + name
config = Config.load()
out = {
    "mode": mode,
    "n": n,
    "db": name,
    "src": __import__("engram").__file__,
    "load": os.getloadavg()[0],
}
if mode in ("add", "vectors"):
    turns, qs = locomo_turns_and_questions(LOCOMO)
    vecs = base_vectors(config, turns, config.home_path / "bench-cache")
    texts, tv = compose_corpus(turns, vecs, n)
if mode == "add":
    with psycopg.connect(SERVER + "postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")
    with Memory(url, config=config, embedder=None) as mem:
        t = time.perf_counter()
        mem.add_many(texts, namespace="scale")
        s = time.perf_counter() - t
    out["add_s"] = round(s, 1)
    out["add_per_s"] = round(n / s, 1)
elif mode == "vectors":
    with psycopg.connect(url) as c:
        rows = c.execute(
            "SELECT id, content_hash FROM memories WHERE namespace='scale' ORDER BY seq"
        ).fetchall()
    assert len(rows) == n, len(rows)
    began = time.perf_counter()
    with Memory(url, config=config) as mem:
        model = mem.embedder.name
        t = time.perf_counter()
        for lo in range(0, n, 5000):
            mem.store.vectors.put(
                VectorRow(r[0], model, tv[lo + i], r[1]) for i, r in enumerate(rows[lo : lo + 5000])
            )
        out["vectors_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        b = getattr(mem.store.vectors, "builds", None)
        if b is not None:
            b.wait()
        out["build_wait_s"] = round(time.perf_counter() - t, 1)
    out["vectors_total_s"] = round(time.perf_counter() - began, 1)
    out["vectors_per_s"] = round(n / out["vectors_total_s"], 1)
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("ANALYZE")
        out["index"] = c.execute(
            "SELECT indexname, pg_relation_size(indexname::regclass) FROM pg_indexes "
            "WHERE indexname LIKE 'memory_vectors_hnsw%%'"
        ).fetchall()
elif mode == "embed":
    turns, qs = locomo_turns_and_questions(LOCOMO)
    sample = turns[:n]
    with psycopg.connect(SERVER + "postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")
    with Memory(url, config=config) as mem:
        mem.recall("warm up the model", namespace="scale")
        t = time.perf_counter()
        mem.embedder.embed_batch(sample)
        s = time.perf_counter() - t
        out["embedder_alone_per_s"] = round(n / s, 1)
        t = time.perf_counter()
        mem.add_many(sample, namespace="scale")
        s = time.perf_counter() - t
        out["add_with_embedding_per_s"] = round(n / s, 1)
        out["ratio"] = round(out["add_with_embedding_per_s"] / out["embedder_alone_per_s"], 3)
        t = time.perf_counter()
    out["close_s"] = round(time.perf_counter() - t, 1)
elif mode == "answers":
    from engram.bench.pg_scale import LookupEmbedder
    from engram.recall import ranking
    from engram.store.postgres import PgVectorSearch

    frozen = datetime.fromisoformat("2026-12-01T00:00:00+00:00")
    ranking.utcnow = lambda: frozen
    data = np.load("/tmp/pgread18-work/questions.npz", allow_pickle=True)
    texts = [str(q) for q in data["q"]][:200]
    qv = data["v"][:200]
    emb = LookupEmbedder("all-MiniLM-L6-v2", dict(zip(texts, qv, strict=True)))
    answers = []
    with Memory(url, config=config, embedder=emb) as mem:
        search = mem.index
        assert isinstance(search, PgVectorSearch)
        for q in texts[:10]:
            mem.recall(q, namespace="scale", limit=10)
        ms = []
        for q in texts:
            t = time.perf_counter()
            got = mem.recall(q, namespace="scale", limit=10)
            ms.append((time.perf_counter() - t) * 1000)
            answers.append(
                json.dumps(
                    {
                        "hits": [h.to_dict() for h in got.hits],
                        "context": got.context,
                        "shown": list(got.shown),
                        "warnings": list(got.warnings),
                    },
                    sort_keys=True,
                )
            )
        rec = []
        for v in qv:
            a = {i for i, _ in search.search("scale", v, 10)}
            e = {i for i, _ in search.search("scale", v, 10, exact=True)}
            rec.append(len(a & e) / 10)
    out["recall_at_10"] = round(float(np.mean(rec)), 4)
    out["p50_ms"] = round(float(np.median(ms)), 2)
    Path(os.environ.get("ENGRAM_BENCH_OUT", "/tmp/pg25-work")) / f"answers-{name}.json".write_text(
        json.dumps(answers)
    )
out["load_after"] = os.getloadavg()[0]
print(json.dumps(out), flush=True)

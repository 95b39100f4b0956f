"""The scale benchmark (FEATURES B3): ingest throughput, recall latency, memory, disk.

For each store size N, in a fresh child process (so peak RSS is that size's own):

1. N realistic memory texts: LoCoMo turns, embedded once by the real model, then
   composed pairwise ("A Later, B") up to N (``pg_scale.compose_corpus``); the composed
   texts get the normalised sum of their parts' vectors.
2. **add, no embedding**: ``Memory.add_many`` of all N texts with no embedder (the
   store, its FTS index and the dedup check).
3. **add, with embedding**: ``Memory.add_many`` of ``embed_sample`` single LoCoMo turns
   (one memory is typically one message) into another fresh store with the real
   MiniLM embedder, and the embedder alone on the same texts, side by side (the model
   dominates; the sample keeps a 100k run in minutes).
4. The N vectors are stored beside the memories of step 2 (``Store.put_vectors``).
5. **recall**: ``Memory.recall`` with the real embedder for real LoCoMo questions,
   median and p95 over many queries, query embedding included, plus the median of each
   stage.
6. peak RSS of the child, and the store's size on disk (on PostgreSQL, the database's).
6b. **cold**: the store opened ``cold_runs`` times, each in a fresh process of its own
   (the model loaded before the clock starts): open, first and second recall, where
   each index came from, and that process's RSS once serving (``serving_rss_mb``) and
   at its peak: what a server holds, without the benchmark's own corpus.
7. with ``peer="chroma"`` (``bench.peers``): the same texts and vectors in Chroma, and
   engram's recall, Chroma's query and Chroma + keyword re-score timed interleaved on
   other questions, each query embedded by the same model inside the timed call, with
   the ratio engram / Chroma at p50 and p95.

Above ``recall.ann_min_vectors`` the SQLite index searches an HNSW graph built in the
background; the run waits for it (``ann_build_s``) before timing, as a long-running
server would have it.

With ``server`` (a ``postgresql://`` URL) every store of the run is a new database on
that server (``scale_pg``), measured the same way; the planner's statistics are
refreshed after the load (``ANALYZE``, as autovacuum would), and the cold processes
also report the server's own memory (``server_pss_mb``) when it runs on this machine.

``vectors_only`` measures index search alone at 1M vectors: exact numpy top-k (what
engram uses below 20,000 vectors a namespace) against engram's usearch HNSW graph at
several ``ef_search`` (its proposals re-scored exactly), recall@10 and latency.
"""

from __future__ import annotations

import hashlib
import json
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench.metrics import percentile
from engram.bench.pg_scale import compose_corpus
from engram.bench.scale_cold import (
    NAMESPACE,
    answer,
    cold_child,
    config_args,
    config_of,
    in_child,
    rss_mb,
    wait_for_index,
)
from engram.bench.scale_pg import analyze, database_bytes, size_stores
from engram.config import Config
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.store import is_postgres
from engram.store.protocols import VectorRow


def locomo_turns_and_questions(path: str | Path) -> tuple[list[str], list[str]]:
    """Distinct ``"speaker: text"`` turns and the question texts of a LoCoMo file."""
    data = json.loads(Path(path).expanduser().read_text(encoding="utf-8"))
    turns: dict[str, None] = {}
    questions: list[str] = []
    for sample in data:
        for key, value in sample["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                for turn in value:
                    turns[f"{turn['speaker']}: {turn['text']}"] = None
        questions.extend(str(q["question"]) for q in sample["qa"])
    if not turns or not questions:
        raise InvalidInputError(f"{path} holds no LoCoMo turns or questions")
    return list(turns), questions


def base_vectors(
    mem_config: Config, texts: Sequence[str], cache_dir: Path
) -> npt.NDArray[np.float32]:
    """The real model's vectors of ``texts``, cached on disk by content and embedder
    (its name and, for MiniLM, its precision)."""
    from engram.embed import create_embedder

    embedder = create_embedder(mem_config.embedder, mem_config.home_path)
    if embedder is None:
        raise InvalidInputError("the scale benchmark needs an embedder; embedder.name is 'none'")
    made_by = f"{embedder.name}/{getattr(embedder, 'precision', '')}"
    key = hashlib.sha256("\n".join([made_by, *texts]).encode()).hexdigest()[:16]
    path = cache_dir / f"base-{key}.npy"
    if path.is_file():
        cached: npt.NDArray[np.float32] = np.load(path)
        return cached
    vectors = np.vstack(
        [embedder.embed_batch(texts[i : i + 256]) for i in range(0, len(texts), 256)]
    ).astype(np.float32)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def _disk_size(location: str) -> int:
    """The store file, its WAL, and the persisted indexes beside it (``<store>.vindex``);
    a PostgreSQL store's database, its indexes included."""
    if is_postgres(location):
        return database_bytes(location)
    path = Path(location)
    files = [p for p in path.parent.glob(path.name + "*") if p.is_file()]
    files += [p for p in path.parent.glob(path.name + ".*/*") if p.is_file()]
    return sum(p.stat().st_size for p in files)


def measure_size(
    n: int,
    *,
    config: Config,
    locomo: str,
    queries: int,
    embed_sample: int,
    workdir: str,
    peer: str | None = None,
    cold_runs: int = 2,
    stores: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Every measurement for one store size (meant to run in a fresh process).

    ``stores``: the corpus's store and the add-with-embedding sample's, both empty
    (e.g. two new PostgreSQL databases); by default SQLite files in ``workdir``.
    """
    turns, questions = locomo_turns_and_questions(locomo)
    # Distinct questions, so a repeated one never times the query-vector cache.
    questions = list(dict.fromkeys(questions))
    home = config.home_path
    vectors = base_vectors(config, turns, home / "bench-cache")
    texts, text_vectors = compose_corpus(turns, vectors, n)
    directory = Path(workdir)
    plain_path, embedded_path = stores or (
        str(directory / f"scale-{n}.db"),
        str(directory / f"scale-{n}-embedded.db"),
    )
    result: dict[str, Any] = {
        "memories": n,
        "backend": "postgresql" if is_postgres(plain_path) else "sqlite",
    }

    # Wall-clock seconds of each phase, so a run shows where its time goes (the peer's
    # own load and queries are timed apart from engram's).
    phases: dict[str, float] = {}
    result["phases_s"] = phases
    began = time.perf_counter()
    with Memory(plain_path, config=config, embedder=None) as mem:
        start = time.perf_counter()
        records = mem.add_many(texts, namespace=NAMESPACE)
        seconds = time.perf_counter() - start
        result["add_no_embedding_per_s"] = round(n / seconds, 1)
    phases["add"] = round(seconds, 3)
    # One memory is typically one message: time adding single turns, and the embedder
    # alone on the same texts, side by side.
    sample = turns[: min(embed_sample, n, len(turns))]
    sample_began = time.perf_counter()
    with Memory(embedded_path, config=config) as mem:
        assert mem.embedder is not None
        mem.recall("warm up the model", namespace=NAMESPACE)
        start = time.perf_counter()
        mem.embedder.embed_batch(sample)
        result["embedder_alone_per_s"] = round(len(sample) / (time.perf_counter() - start), 1)
        start = time.perf_counter()
        mem.add_many(sample, namespace=NAMESPACE)
        seconds = time.perf_counter() - start
        result["add_with_embedding_per_s"] = round(len(sample) / seconds, 1)
        result["add_with_embedding_sample"] = len(sample)
    phases["add_with_embedding_sample"] = round(time.perf_counter() - sample_began, 3)

    with Memory(plain_path, config=config) as mem:
        assert mem.embedder is not None
        model = mem.embedder.name
        start = time.perf_counter()
        for lo in range(0, n, 5000):
            mem.store.vectors.put(
                VectorRow(r.id, model, text_vectors[lo + i], r.content_hash)
                for i, r in enumerate(records[lo : lo + 5000])
            )
        phases["vectors"] = round(time.perf_counter() - start, 3)
        asked = [questions[i % len(questions)] for i in range(queries + 20)]
        start = time.perf_counter()
        if is_postgres(plain_path):
            analyze(plain_path)
        mem.recall(asked[0], namespace=NAMESPACE)
        result["ann_build_s"] = round(wait_for_index(mem), 1)
        phases["indexes"] = round(time.perf_counter() - start, 3)
        recall_began = time.perf_counter()
        for q in asked[:20]:  # load the model and build the index before timing
            mem.recall(q, namespace=NAMESPACE)
        latencies: list[float] = []
        stages: dict[str, list[float]] = {}
        for q in asked[20:]:
            start = time.perf_counter()
            recall = mem.recall(q, namespace=NAMESPACE)
            latencies.append((time.perf_counter() - start) * 1000)
            for stage, ms in recall.timings.items():
                stages.setdefault(stage, []).append(ms)
        result["recall_p50_ms"] = round(percentile(latencies, 50), 2)
        result["recall_p95_ms"] = round(percentile(latencies, 95), 2)
        result["recall_stage_median_ms"] = {
            k: round(statistics.median(v), 2) for k, v in stages.items()
        }
        result["recall_queries"] = len(latencies)
        phases["recall"] = round(time.perf_counter() - recall_began, 3)
        phases["engram_total"] = round(time.perf_counter() - began, 3)
        if mem.index is not None:
            result["index"] = mem.index.state().get("ann")
        result["store_bytes"] = _disk_size(plain_path)
        # Linux reports ru_maxrss in KiB.
        result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    # Cold: the store opened again (its indexes persisted beside it) in fresh processes,
    # so nothing of this one is cached in them and their RSS is a server's.
    cold_began = time.perf_counter()
    colds = [
        in_child(
            cold_child,
            {
                "path": plain_path,
                "config": config_args(config),
                # Questions no recall of this run has asked (nothing cached answers them).
                "questions": [
                    questions[(2 * queries + 20 + 2 * run + i) % len(questions)] for i in range(2)
                ],
            },
        )
        for run in range(cold_runs)
    ]
    result["cold"] = colds
    keys = ("open_ms", "cold_first_recall_ms", "cold_second_recall_ms", "serving_rss_mb")
    for key in (*keys, "server_pss_mb"):
        result[key] = colds[0].get(key) if colds else None
    phases["cold_open"] = round(time.perf_counter() - cold_began, 3)
    # engram's part, readable while the peer loads (a 1M peer load takes long).
    (directory / f"scale-{n}.engram.json").write_text(json.dumps(result), encoding="utf-8")
    with Memory(plain_path, config=config) as mem:
        if peer is not None:
            other = [questions[(queries + 20 + i) % len(questions)] for i in range(queries + 20)]
            start = time.perf_counter()
            result["peer"] = _peer_run(peer, mem, texts, text_vectors, other, directory, n)
            phases["peer_load_and_queries"] = round(time.perf_counter() - start, 3)
    # The whole size, the peer's part too, readable before the run ends: the run's
    # scale.json is written once its last size is done (hours after a 1M size starts).
    (directory / f"scale-{n}.json").write_text(json.dumps(result), encoding="utf-8")
    return result


def _peer_run(
    peer: str,
    mem: Memory,
    texts: Sequence[str],
    vectors: npt.NDArray[np.float32],
    questions: Sequence[str],
    directory: Path,
    n: int,
) -> dict[str, Any]:
    """Chroma beside engram on the same corpus and questions, interleaved."""
    from engram.bench.peers import PEERS, ChromaPeer, interleaved, summary

    if peer not in PEERS:
        raise InvalidInputError(f"unknown --peer {peer!r}; known: {', '.join(PEERS)}")
    embedder = mem.embedder
    assert embedder is not None
    rss_before = rss_mb()
    chroma = ChromaPeer(directory / f"chroma-{n}")
    load_s = chroma.load(texts, vectors)
    k = mem.config.recall.limit
    # Warm both (engram's store was just opened again) on questions not timed after:
    # engram caches query vectors.
    warm, questions = questions[:20], questions[20:]
    for q in warm:
        chroma.query(embedder.embed_batch([q])[0], k)
        mem.recall(q, namespace=NAMESPACE)
    times = interleaved(
        questions,
        {
            "engram": lambda q: mem.recall(q, namespace=NAMESPACE),
            "chroma": lambda q: chroma.query(embedder.embed_batch([q])[0], k),
            "chroma_keyword": lambda q: chroma.query_rescored(q, embedder.embed_batch([q])[0], k),
        },
    )
    return {
        "name": peer,
        "add_per_s": round(n / load_s, 1),
        "rss_mb": round(rss_mb() - rss_before, 1),
        "disk_bytes": chroma.disk_bytes(),
        "queries": len(questions),
        "latency": summary(times, "chroma"),
    }


def _child(args: dict[str, Any], out: Any) -> None:
    config = config_of(args)
    answer(out, lambda: measure_size(config=config, **args))


def run_scale(
    sizes: Sequence[int],
    *,
    config: Config,
    locomo: str,
    queries: int = 300,
    embed_sample: int = 2000,
    workdir: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    peer: str | None = None,
    keep: str | None = None,
    server: str | None = None,
) -> list[dict[str, Any]]:
    """Measure each size in its own child process; returns one dict per size.

    With ``server`` (a ``postgresql://`` URL of any database on a server where the user
    may create databases) each size's stores are new databases there
    (``engram_scale_<n>`` and ``engram_scale_<n>_embedded``), dropped after the size
    unless ``keep`` is given; Chroma's collection and the results stay in ``keep``.
    """
    if any(n < 10 for n in sizes):
        raise InvalidInputError("every --n must be at least 10")
    if peer is not None:
        from engram.bench.peers import PEERS, chroma_available

        if peer not in PEERS:
            raise InvalidInputError(f"unknown --peer {peer!r}; known: {', '.join(PEERS)}")
        if not chroma_available():
            raise InvalidInputError("--peer chroma needs chromadb: pip install 'engramdb[bench]'")
    if not Path(locomo).expanduser().is_file():
        raise InvalidInputError(f"LoCoMo file {locomo} does not exist; pass it with --data")
    results: list[dict[str, Any]] = []
    # The stores stay in ``keep`` (to time cold opens again, or inspect the indexes).
    with tempfile.TemporaryDirectory(prefix="engram-scale-", dir=workdir) as scratch:
        tmp = keep or scratch
        for done, n in enumerate(sizes):
            if progress is not None:
                progress("scale", done, len(sizes))
            args = {
                "n": n,
                "config": config_args(config),
                "peer": peer,
                "locomo": locomo,
                "queries": queries,
                "embed_sample": embed_sample,
                "workdir": tmp,
            }
            try:
                with size_stores(server, n, keep=keep is not None) as stores:
                    results.append(in_child(_child, args | {"stores": stores}))
            except InvalidInputError as exc:
                raise InvalidInputError(f"the scale run at {n} memories failed: {exc}") from None
        if progress is not None:
            progress("scale", len(sizes), len(sizes))
    return results


def vectors_only(
    n: int,
    *,
    config: Config,
    locomo: str,
    queries: int = 200,
    k: int = 10,
    hnsw_m: int = 32,
    ef_construction: int | None = None,
    ef_searches: Sequence[int] = (32, 64, 128, 256),
) -> dict[str, Any]:
    """Exact numpy top-k vs engram's HNSW graph over ``n`` vectors: latency and recall@k.

    The vectors are LoCoMo turns' real embeddings and normalised sums of pairs of them
    (the vectors of the scale corpus); the queries are LoCoMo questions. The graph is
    built as engram builds it (``ef_construction`` None: 80, or 160 past 200k nodes,
    ``ann.construction_ef``) or at the one ``ef_construction`` given.
    """
    turns, questions = locomo_turns_and_questions(locomo)
    base = base_vectors(config, turns, config.home_path / "bench-cache")
    _, data = compose_corpus(turns, base, n)
    from engram.embed import create_embedder

    embedder = create_embedder(config.embedder, config.home_path)
    if embedder is None:
        raise InvalidInputError("the vectors-only benchmark needs an embedder for its queries")
    query_vectors = embedder.embed_batch(questions[:queries])
    result: dict[str, Any] = {"vectors": n, "dimension": int(data.shape[1]), "k": k}

    exact: list[set[int]] = []
    times: list[float] = []
    for q in query_vectors:
        start = time.perf_counter()
        sims = data @ q
        top = np.argpartition(-sims, k)[:k]
        top = top[np.argsort(-sims[top])]
        times.append((time.perf_counter() - start) * 1000)
        exact.append({int(i) for i in top})
    result["exact"] = {
        "p50_ms": round(percentile(times, 50), 3),
        "p95_ms": round(percentile(times, 95), 3),
        "recall_at_k": 1.0,
    }
    from engram.store.protocols.vectors import AnnSettings
    from engram.store.sqlite import ann

    if not ann.available():
        result["hnsw"] = {"skipped": "usearch cannot be imported (pip install usearch)"}
        return result
    settings = (
        AnnSettings(m=hnsw_m)
        if ef_construction is None
        else AnnSettings(
            m=hnsw_m, ef_construction=ef_construction, ef_construction_large=ef_construction
        )
    )
    start = time.perf_counter()
    graph = ann.HnswGraph.build(np.arange(n, dtype=np.int64), data, settings)
    result["hnsw_build_s"] = round(time.perf_counter() - start, 1)
    result["hnsw"] = []
    for ef in ef_searches:
        graph.ef_search = ef
        times = []
        hits = 0
        for q, truth in zip(query_vectors, exact, strict=True):
            # What SQLite recall serves: the graph's proposals re-scored exactly.
            start = time.perf_counter()
            rows = graph.propose(q, k)
            sims = data[rows] @ q
            found = rows[np.argsort(-sims)[:k]]
            times.append((time.perf_counter() - start) * 1000)
            hits += len({int(i) for i in found} & truth)
        result["hnsw"].append(
            {
                "m": hnsw_m,
                "ef_construction": graph.build_info["ef_construction"],
                "ef_search": ef,
                "p50_ms": round(percentile(times, 50), 3),
                "p95_ms": round(percentile(times, 95), 3),
                "recall_at_k": round(hits / (k * len(exact)), 4),
            }
        )
    return result


def compare_stores(
    location: str,
    n: int,
    *,
    config: Config,
    locomo: str,
    requests: int = 300,
    levels: Sequence[int] = (1, 4, 16),
    workdir: str | None = None,
    prepare: Callable[[Memory], None] | None = None,
) -> dict[str, Any]:
    """The same N memories in a temporary SQLite store and in the store at ``location``
    (e.g. ``postgresql://...``, an empty database), measured in one run: add rate
    through the store protocol, recall p50/p95 from one client, and recall throughput
    from each client count in ``levels``.

    Queries are LoCoMo questions embedded once beforehand (``LookupEmbedder``), so both
    stores are measured without the model's cost, which is the same for both.
    ``prepare`` runs on the second store after loading (e.g. refresh planner
    statistics, as PostgreSQL's autovacuum would shortly after a bulk load).
    """
    from engram.bench.pg_scale import LookupEmbedder, measure_backend, ratio_table
    from engram.embed import create_embedder

    with Memory(location, config=config, embedder=None) as target:
        if target.store.memories.count("bench"):
            raise InvalidInputError(
                f"{location} already holds benchmark memories; give it an empty database"
            )
    turns, questions = locomo_turns_and_questions(locomo)
    questions = list(dict.fromkeys(questions))[:requests]
    base = base_vectors(config, turns, config.home_path / "bench-cache")
    texts, vectors = compose_corpus(turns, base, n)
    embedder = create_embedder(config.embedder, config.home_path)
    if embedder is None:
        raise InvalidInputError("the comparison needs an embedder for its queries")
    lookup = LookupEmbedder(
        embedder.name, dict(zip(questions, embedder.embed_batch(questions), strict=True))
    )
    with tempfile.TemporaryDirectory(prefix="engram-compare-", dir=workdir) as tmp:
        with Memory(Path(tmp) / "bench.db", config=config, embedder=lookup) as mem:
            sqlite = measure_backend(
                "SQLite", mem, texts, vectors, questions, levels=levels, requests=requests
            )
        with Memory(location, config=config, embedder=lookup) as mem:
            other = measure_backend(
                type(mem.store).__name__.removesuffix("Store") or "other",
                mem,
                texts,
                vectors,
                questions,
                levels=levels,
                requests=requests,
                after_load=None if prepare is None else (lambda: prepare(mem)),
            )
    return {
        "memories": n,
        "requests": requests,
        "sqlite": sqlite.to_dict(),
        "other": other.to_dict(),
        "table": ratio_table(sqlite, other),
    }


def peer_table(results: Sequence[dict[str, Any]]) -> str:
    """engram beside its peer per size: p50/p95 of each, interleaved, and the ratios."""
    from engram.bench.peers import RATIO_COLUMNS, latency_cells, latency_columns, ratio_cells
    from engram.bench.report import table

    names = ("engram", "chroma", "chroma_keyword")
    rows = [
        [
            r["memories"],
            *latency_cells(r["peer"]["latency"], names),
            *ratio_cells(r["peer"]["latency"]),
            r["add_no_embedding_per_s"],
            r["peer"]["add_per_s"],
        ]
        for r in results
        if r.get("peer")
    ]
    return table(
        ["memories", *latency_columns(names), *RATIO_COLUMNS, "engram add/s", "chroma add/s"],
        rows,
    )

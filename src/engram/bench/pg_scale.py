"""Scale and concurrency measurements that compare store backends (FEATURES B3/B4).

The functions take a ``Memory``, so the same code measures SQLite and PostgreSQL:

- :func:`compose_corpus` makes N distinct, realistic memory texts with vectors from
  LoCoMo turns embedded once (the turns, then pairs of turns);
- :func:`concurrent_recall` runs a bounded number of recalls from 1, 4, 16 ... client
  threads and reports requests per second and latency percentiles;
- :func:`load_precomputed` stores texts with vectors computed once, through the public
  store protocol (``insert`` then ``put_vectors``), so a 100k comparison embeds once
  instead of once per backend.

``engram bench scale`` (the CLI) is built on these; they hold no CLI or backend code.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench.metrics import percentile
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.store.protocols import VectorRow
from engram.validate import build_record


def compose_corpus(
    base_texts: Sequence[str], base_vectors: npt.NDArray[np.float32], n: int
) -> tuple[list[str], npt.NDArray[np.float32]]:
    """``n`` texts with vectors from ``base_texts`` embedded once by the real model.

    The base texts come first with their own vectors. The rest join two base texts
    ("A Later, B", B ``r`` places after A); their vector is the normalised sum of the
    two parts' vectors, an approximation of embedding the joined text (MiniLM
    mean-pools its tokens). It lets a 100k-memory comparison embed ~3k texts, not 100k.
    """
    m = len(base_texts)
    if m < 2 or len(base_vectors) != m:
        raise InvalidInputError("need at least two base texts, each with a vector")
    if n > m * m:
        raise InvalidInputError(f"{m} base texts make at most {m * m} distinct texts")
    texts = list(base_texts[:n])
    vectors = np.zeros((n, base_vectors.shape[1]), np.float32)
    vectors[: len(texts)] = base_vectors[: len(texts)]
    r = 1
    while len(texts) < n:
        for i in range(m):
            if len(texts) >= n:
                break
            j = (i + r) % m
            v = base_vectors[i] + base_vectors[j]
            vectors[len(texts)] = v / max(float(np.linalg.norm(v)), 1e-12)
            texts.append(f"{base_texts[i]} Later, {base_texts[j]}")
        r += 1
    return texts, vectors


class LookupEmbedder:
    """An embedder that answers from vectors computed beforehand (by the real model).

    Plugged in through the Embedder seam so a benchmark measures the store, not the
    model: every backend pays the same embedding cost, so leaving it out of both sides
    shows their difference. Unknown text raises, so nothing is silently made up.
    """

    def __init__(self, name: str, table: dict[str, npt.NDArray[np.float32]]) -> None:
        self.name = name
        self.dimension = int(next(iter(table.values())).shape[0])
        self._table = table

    def embed_batch(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The stored vectors of ``texts``."""
        return np.stack([self._table[t] for t in texts]).astype(np.float32)


def load_precomputed(
    mem: Memory,
    texts: Sequence[str],
    vectors: npt.NDArray[np.float32],
    *,
    namespace: str,
    batch: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> float:
    """Store ``texts`` with their precomputed ``vectors``; returns memories per second.

    Goes through the store protocol exactly as ``Memory.add_many`` does after
    embedding (insert in one transaction, then vectors in a second), minus the model.
    """
    if mem.embedder is None or len(texts) != len(vectors):
        raise InvalidInputError("need an embedder (for its name) and one vector per text")
    model = mem.embedder.name
    start = time.perf_counter()
    for lo in range(0, len(texts), batch):
        records = [
            build_record(t, namespace=namespace, max_chars=mem.config.max_content_chars)
            for t in texts[lo : lo + batch]
        ]
        results = mem.store.memories.insert(records)
        rows = [
            VectorRow(r.record.id, model, vectors[lo + i], r.record.content_hash)
            for i, r in enumerate(results)
            if r.created
        ]
        mem.store.vectors.put(rows)
        if progress is not None:
            progress(min(lo + batch, len(texts)), len(texts))
    if mem.index is not None:
        mem.index.invalidate()
    return len(texts) / (time.perf_counter() - start)


@dataclass(frozen=True, slots=True)
class Throughput:
    """Recall throughput at one concurrency."""

    clients: int
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    errors: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def concurrent_recall(
    mem: Memory,
    queries: Sequence[str],
    *,
    namespace: str,
    clients: int,
    requests: int,
    limit: int = 10,
    timeout_s: float = 600.0,
) -> Throughput:
    """Run ``requests`` recalls spread over ``clients`` threads sharing one ``Memory``.

    Bounded in count and time: each thread stops at its share of ``requests`` or when
    ``timeout_s`` has passed. Latency is per recall; rps is completed recalls over wall
    time.
    """
    if clients < 1 or requests < 1 or not queries:
        raise InvalidInputError("need clients >= 1, requests >= 1 and at least one query")
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    deadline = time.perf_counter() + timeout_s
    shares = [requests // clients + (1 if c < requests % clients else 0) for c in range(clients)]

    def client(index: int, share: int) -> None:
        nonlocal errors
        mine: list[float] = []
        failed = 0
        for j in range(share):
            if time.perf_counter() > deadline:
                break
            query = queries[(index * 7919 + j) % len(queries)]
            t0 = time.perf_counter()
            try:
                mem.recall(query, namespace=namespace, limit=limit)
            except Exception:  # counted and reported, never hidden
                failed += 1
                continue
            mine.append((time.perf_counter() - t0) * 1000)
        with lock:
            latencies.extend(mine)
            errors += failed

    threads = [
        threading.Thread(target=client, args=(i, s), daemon=True) for i, s in enumerate(shares)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    return Throughput(
        clients=clients,
        requests=len(latencies),
        seconds=round(seconds, 3),
        rps=round(len(latencies) / seconds, 2) if seconds > 0 else 0.0,
        p50_ms=round(percentile(latencies, 50), 2) if latencies else 0.0,
        p95_ms=round(percentile(latencies, 95), 2) if latencies else 0.0,
        errors=errors,
    )


def concurrency_sweep(
    mem: Memory,
    queries: Sequence[str],
    *,
    namespace: str,
    levels: Sequence[int] = (1, 4, 16),
    requests: int = 400,
    limit: int = 10,
) -> list[Throughput]:
    """:func:`concurrent_recall` at each client count in ``levels``."""
    return [
        concurrent_recall(
            mem, queries, namespace=namespace, clients=c, requests=requests, limit=limit
        )
        for c in levels
    ]


def recall_at_k(
    approximate: Sequence[Sequence[str]], exact: Sequence[Sequence[str]], k: int
) -> float:
    """Mean overlap of approximate and exact top-k id lists (ANN recall@k)."""
    if not exact:
        return 0.0
    total = 0.0
    for got, truth in zip(approximate, exact, strict=True):
        wanted = set(truth[:k])
        total += len(wanted & set(got[:k])) / max(1, len(wanted))
    return total / len(exact)


@dataclass(frozen=True, slots=True)
class BackendResult:
    """One backend's numbers in a comparison."""

    backend: str
    memories: int
    add_per_s: float
    recall_p50_ms: float
    recall_p95_ms: float
    throughput: tuple[Throughput, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = asdict(self)
        out["throughput"] = [t.to_dict() for t in self.throughput]
        return out


def measure_backend(
    backend: str,
    mem: Memory,
    texts: Sequence[str],
    vectors: npt.NDArray[np.float32],
    queries: Sequence[str],
    *,
    namespace: str = "bench",
    levels: Sequence[int] = (1, 4, 16),
    requests: int = 300,
    latency_queries: int = 200,
    progress: Callable[[int, int], None] | None = None,
    after_load: Callable[[], None] | None = None,
) -> BackendResult:
    """Load ``texts`` into ``mem`` and measure add rate, recall latency and throughput.

    ``after_load`` runs between loading and measuring (e.g. refresh planner statistics,
    as PostgreSQL's autovacuum would shortly after a bulk load).
    """
    add_rate = load_precomputed(mem, texts, vectors, namespace=namespace, progress=progress)
    if after_load is not None:
        after_load()
    for q in queries[:10]:  # warm caches (SQLite's matrix, PostgreSQL's buffers)
        mem.recall(q, namespace=namespace, limit=10)
    single = concurrent_recall(
        mem,
        queries[:latency_queries],
        namespace=namespace,
        clients=1,
        requests=min(latency_queries, len(queries)),
    )
    sweep = concurrency_sweep(mem, queries, namespace=namespace, levels=levels, requests=requests)
    return BackendResult(
        backend=backend,
        memories=mem.store.memories.count(namespace),
        add_per_s=round(add_rate, 1),
        recall_p50_ms=single.p50_ms,
        recall_p95_ms=single.p95_ms,
        throughput=tuple(sweep),
    )


def ratio_table(base: BackendResult, other: BackendResult) -> str:
    """A markdown table of both backends and ``other / base`` per measure."""

    def ratio(a: float, b: float) -> str:
        return f"{b / a:.2f}x" if a else "n/a"

    rows = [
        ("add (memories/s, store only)", base.add_per_s, other.add_per_s),
        ("recall p50 (ms)", base.recall_p50_ms, other.recall_p50_ms),
        ("recall p95 (ms)", base.recall_p95_ms, other.recall_p95_ms),
    ]
    for a, b in zip(base.throughput, other.throughput, strict=True):
        rows.append((f"recall rps, {a.clients} client(s)", a.rps, b.rps))
    lines = [
        f"| measure | {base.backend} | {other.backend} | {other.backend} / {base.backend} |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {name} | {a:g} | {b:g} | {ratio(a, b)} |" for name, a, b in rows]
    return "\n".join(lines)

"""Compare HNSW libraries for SQLite's vector search (issue 29), one library per process.

    python scripts/ann_compare.py DATA.npy QUERIES.npy [--libs faiss,hnswlib,usearch,voyager]

DATA is an (n, dim) float32 matrix of unit vectors (the scale corpus: LoCoMo turns and
composed pairs), QUERIES the embedded LoCoMo questions. Each library builds a graph with
the same M / ef_construction / ef_search engram uses, proposes ``max(2 k, ef_search)``
rows per query, and those rows are re-scored exactly as engram does; recall@10 is
against exact top-10. Also: build seconds, RSS growth, file size, save and load time
(memory-mapped where the library can), first-query time after load, and whether a delete
and an add work on a loaded index. Runs in any venv with numpy and the libraries (the
comparison used a separate one so the project venv got only the library chosen).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

M, EF_CONSTRUCTION, EF_SEARCH, K = 32, 80, 128, 10


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class _Lib:
    """One library behind the same five calls."""

    def __init__(self, name: str, dim: int, capacity: int) -> None:
        # "usearch:i8" keeps the graph's own vector copy as int8 (engram re-scores
        # against its float32 matrix anyway); plain "usearch" keeps float32.
        name, _, dtype = name.partition(":")
        self.name = name
        self.dtype = dtype or "f32"
        self.dim = dim
        if name == "faiss":
            import faiss

            faiss.omp_set_num_threads(1)
            self.mod = faiss
            self.index: Any = faiss.IndexHNSWFlat(dim, M, faiss.METRIC_INNER_PRODUCT)
            self.index.hnsw.efConstruction = EF_CONSTRUCTION
        elif name == "hnswlib":
            import hnswlib

            self.mod = hnswlib
            self.index = hnswlib.Index(space="ip", dim=dim)
            self.index.init_index(max_elements=capacity, ef_construction=EF_CONSTRUCTION, M=M)
            self.index.set_num_threads(1)
        elif name == "usearch":
            from usearch.index import Index

            self.mod = Index
            self.index = Index(
                ndim=dim,
                metric="ip",
                dtype=self.dtype,
                connectivity=M,
                expansion_add=EF_CONSTRUCTION,
                expansion_search=EF_SEARCH,
            )
        elif name == "voyager":
            import voyager

            self.mod = voyager
            self.index = voyager.Index(
                voyager.Space.InnerProduct,
                num_dimensions=dim,
                M=M,
                ef_construction=EF_CONSTRUCTION,
                max_elements=capacity,
            )
        else:
            raise SystemExit(f"unknown library {name}")

    def add(self, keys: np.ndarray, data: np.ndarray) -> None:
        if self.name == "faiss":
            self.index.add(data)
        elif self.name == "hnswlib":
            self.index.add_items(data, keys, num_threads=1)
        elif self.name == "usearch":
            self.index.add(keys, data, threads=1)
        else:
            self.index.add_items(data, [int(k) for k in keys], num_threads=1)

    def propose(self, query: np.ndarray, count: int) -> np.ndarray:
        if self.name == "faiss":
            self.index.hnsw.efSearch = max(EF_SEARCH, count)
            _, found = self.index.search(query.reshape(1, -1), count)
            return np.asarray(found[0][found[0] >= 0], np.int64)
        if self.name == "hnswlib":
            self.index.set_ef(max(EF_SEARCH, count))
            labels, _ = self.index.knn_query(query.reshape(1, -1), k=count)
            return np.asarray(labels[0], np.int64)
        if self.name == "usearch":
            return np.asarray(self.index.search(query, count, threads=1).keys, np.int64)
        ids, _ = self.index.query(query, k=count, query_ef=max(EF_SEARCH, count))
        return np.asarray(ids, np.int64)

    def save(self, path: str) -> None:
        if self.name == "faiss":
            self.mod.write_index(self.index, path)
        elif self.name == "hnswlib":
            self.index.save_index(path)
        else:
            self.index.save(path)

    def load(self, path: str, capacity: int) -> str:
        """Load the saved index; returns how (memory-mapped or read)."""
        if self.name == "faiss":
            self.index = self.mod.read_index(path, self.mod.IO_FLAG_MMAP)
            self.index.hnsw.efSearch = EF_SEARCH
            return "IO_FLAG_MMAP (graph read, vectors mapped)"
        if self.name == "hnswlib":
            self.index = self.mod.Index(space="ip", dim=self.dim)
            self.index.load_index(path, max_elements=capacity)
            return "read"
        if self.name == "usearch":
            self.index = self.mod.restore(path, view=True)
            self.index.expansion_search = EF_SEARCH
            return "view (memory-mapped)"
        self.index = self.mod.Index.load(path)
        return "read"

    def delete_then_add(self, key: int, vector: np.ndarray) -> str:
        """Whether a loaded index takes a delete and an add."""
        try:
            if self.name == "faiss":
                self.index.remove_ids(np.array([key], np.int64))
            elif self.name == "hnswlib":
                self.index.mark_deleted(key)
            elif self.name == "usearch":
                self.index.remove(key)
            else:
                self.index.mark_deleted(key)
            deleted = "delete ok"
        except Exception as exc:  # what the library says is the finding
            deleted = f"delete: {type(exc).__name__}: {str(exc)[:60]}"
        try:
            self.add(np.array([key + 10_000_000], np.int64), vector.reshape(1, -1))
            added = "add ok"
        except Exception as exc:
            added = f"add: {type(exc).__name__}: {str(exc)[:60]}"
        return f"{deleted}; {added}"


def _one(name: str, data_path: str, queries_path: str) -> dict[str, Any]:
    data = np.load(data_path).astype(np.float32)
    queries = np.load(queries_path).astype(np.float32)
    n, dim = data.shape
    truth = []
    for q in queries:
        sims = data @ q
        top = np.argpartition(-sims, K)[:K]
        truth.append(set(top.tolist()))
    rss0 = _rss_mb()
    lib = _Lib(name, dim, n + 16)
    keys = np.arange(n, dtype=np.int64)
    start = time.perf_counter()
    lib.add(keys, data)
    out: dict[str, Any] = {
        "library": name,
        "n": n,
        "build_s": round(time.perf_counter() - start, 1),
    }
    out["rss_growth_mb"] = round(_rss_mb() - rss0, 1)
    count = max(2 * K, EF_SEARCH)

    def measure(prefix: str) -> None:
        times, raw_hits, hits = [], 0, 0
        for q, want in zip(queries, truth, strict=True):
            began = time.perf_counter()
            rows = lib.propose(q, count)
            rows = rows[(rows >= 0) & (rows < n)]
            sims = data[rows] @ q
            best = rows[np.argsort(-sims)[:K]]
            times.append((time.perf_counter() - began) * 1000)
            hits += len(set(best.tolist()) & want)
            raw_hits += len(set(rows[:K].tolist()) & want)
        out[f"{prefix}recall_at_10_rescored"] = round(hits / (K * len(queries)), 4)
        out[f"{prefix}p50_ms"] = round(float(np.percentile(times, 50)), 3)
        out[f"{prefix}p95_ms"] = round(float(np.percentile(times, 95)), 3)

    measure("")
    with tempfile.TemporaryDirectory(prefix="ann-compare-") as tmp:
        path = str(Path(tmp) / f"{name}.index")
        start = time.perf_counter()
        lib.save(path)
        out["save_s"] = round(time.perf_counter() - start, 2)
        out["file_mb"] = round(Path(path).stat().st_size / 2**20, 1)
        del lib.index
        rss1 = _rss_mb()
        start = time.perf_counter()
        out["load_mode"] = lib.load(path, n + 16)
        out["load_ms"] = round((time.perf_counter() - start) * 1000, 1)
        began = time.perf_counter()
        lib.propose(queries[0], count)
        out["first_query_after_load_ms"] = round((time.perf_counter() - began) * 1000, 2)
        measure("loaded_")
        out["loaded_rss_growth_mb"] = round(_rss_mb() - rss1, 1)
        out["loaded_delete_add"] = lib.delete_then_add(5, data[5])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("queries")
    parser.add_argument("--libs", default="faiss,hnswlib,usearch,usearch:f16,usearch:i8,voyager")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one, args.data, args.queries)))
        return
    for name in args.libs.split(","):
        # A fresh process per library, so each RSS figure is that library's own.
        done = subprocess.run(
            [sys.executable, __file__, args.data, args.queries, "--one", name],
            capture_output=True,
            text=True,
            check=False,
        )
        print(done.stdout.strip() or json.dumps({"library": name, "error": done.stderr[-400:]}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

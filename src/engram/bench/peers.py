"""Peers for the scale benchmark: the same corpus and vectors in Chroma, timed beside engram.

``engram bench scale --peer chroma`` loads the scale corpus (the same composed LoCoMo
texts and the same vectors) into a Chroma persistent collection (HNSW, cosine, its
defaults), and times, query by query and interleaved with engram's recall (the order
alternates so neither always runs on a warmer cache):

- **chroma**: the query embedded by the same MiniLM, then ``collection.query`` for the
  same number of results as engram's recall returns;
- **chroma + keyword re-score**: MemPalace's way of adding keywords to Chroma: fetch
  ``RESCORE_FETCH`` times as many with their documents and re-rank them by
  ``(1 - KEYWORD_WEIGHT) * similarity + KEYWORD_WEIGHT * keyword overlap``.

chromadb is optional (the ``[bench]`` extra): this module imports it only when a peer
is made, and ``chroma_available`` says whether it can be.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench.metrics import percentile
from engram.errors import InvalidInputError
from engram.text import keywords

PEERS = ("chroma",)
RESCORE_FETCH = 3
KEYWORD_WEIGHT = 0.3
COLLECTION = "engram-bench"


def chroma_available() -> bool:
    """Whether chromadb can be imported (``pip install 'engramdb[bench]'``)."""
    try:
        import chromadb  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def keyword_overlap(query: str, document: str) -> float:
    """The share of the query's keywords that the document holds (0 when it has none)."""
    wanted = set(keywords(query))
    if not wanted:
        return 0.0
    return len(wanted & set(keywords(document))) / len(wanted)


class ChromaPeer:
    """One Chroma persistent collection holding the benchmark corpus."""

    def __init__(self, directory: str | Path, *, existing: bool = False) -> None:
        """A new collection in ``directory``, or with ``existing`` the one a kept run
        loaded there before (``engram bench scale --reuse``)."""
        if not chroma_available():
            raise InvalidInputError("--peer chroma needs chromadb: pip install 'engramdb[bench]'")
        import chromadb  # type: ignore[import-not-found, unused-ignore]
        from chromadb.config import Settings  # type: ignore[import-not-found, unused-ignore]

        self._client = chromadb.PersistentClient(
            path=str(directory), settings=Settings(anonymized_telemetry=False)
        )
        self._collection: Any = (
            self._client.get_collection(COLLECTION)
            if existing
            else self._client.create_collection(
                COLLECTION, configuration={"hnsw": {"space": "cosine"}}
            )
        )
        self.directory = Path(directory)

    def load(self, texts: Sequence[str], vectors: npt.NDArray[np.float32]) -> float:
        """Add every text with its vector; returns the seconds it took."""
        batch = max(1, min(5000, int(self._client.get_max_batch_size())))
        start = time.perf_counter()
        for lo in range(0, len(texts), batch):
            hi = min(len(texts), lo + batch)
            self._collection.add(
                ids=[str(i) for i in range(lo, hi)],
                embeddings=vectors[lo:hi],
                documents=list(texts[lo:hi]),
            )
        return time.perf_counter() - start

    def query(self, vector: npt.NDArray[np.float32], k: int) -> list[str]:
        """Ids of the ``k`` nearest documents."""
        found = self._collection.query(query_embeddings=[vector], n_results=k, include=[])
        return list(found["ids"][0])

    def query_rescored(self, text: str, vector: npt.NDArray[np.float32], k: int) -> list[str]:
        """Ids of the best ``k`` of ``RESCORE_FETCH * k`` neighbours after keyword re-scoring."""
        found = self._collection.query(
            query_embeddings=[vector],
            n_results=RESCORE_FETCH * k,
            include=["documents", "distances"],
        )
        scored = [
            (
                (1 - KEYWORD_WEIGHT) * (1.0 - float(distance))
                + KEYWORD_WEIGHT * keyword_overlap(text, document or ""),
                memory_id,
            )
            for memory_id, document, distance in zip(
                found["ids"][0], found["documents"][0], found["distances"][0], strict=True
            )
        ]
        scored.sort(reverse=True)
        return [memory_id for _, memory_id in scored[:k]]

    def disk_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.directory.rglob("*") if p.is_file())


def interleaved(
    questions: Sequence[str],
    contenders: dict[str, Callable[[str], object]],
) -> dict[str, list[float]]:
    """Milliseconds per question for each contender, run one after another per question
    in an order that rotates, so no contender always runs first."""
    names = list(contenders)
    times: dict[str, list[float]] = {name: [] for name in names}
    for n, question in enumerate(questions):
        shift = n % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            contenders[name](question)
            times[name].append((time.perf_counter() - start) * 1000)
    return times


#: Table labels of the contenders ``interleaved`` times.
LABELS = {"engram": "engram", "chroma": "chroma", "chroma_keyword": "chroma+kw"}
#: Columns of ``ratio_cells``.
RATIO_COLUMNS = ["engram/chroma p50", "engram/chroma p95"]


def latency_columns(names: Sequence[str]) -> list[str]:
    """Table headers of ``latency_cells``: p50 and p95 of each contender."""
    return [f"{LABELS[name]} p{q}" for name in names for q in (50, 95)]


def latency_cells(latency: dict[str, dict[str, float]], names: Sequence[str]) -> list[float]:
    """p50 and p95 ms of each of ``names`` from a ``summary``."""
    return [latency[name][f"p{q}_ms"] for name in names for q in (50, 95)]


def ratio_cells(latency: dict[str, dict[str, float]]) -> list[float]:
    """engram ÷ Chroma at p50 and p95, from a ``summary`` against ``chroma``."""
    return [latency["engram"]["p50_vs_chroma"], latency["engram"]["p95_vs_chroma"]]


def summary(times: dict[str, list[float]], reference: str) -> dict[str, dict[str, float]]:
    """p50/p95 per contender, and each one's ratio to ``reference`` (< 1: faster)."""
    out: dict[str, dict[str, float]] = {}
    base50 = percentile(times[reference], 50)
    base95 = percentile(times[reference], 95)
    for name, values in times.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        out[name] = {
            "p50_ms": round(p50, 2),
            "p95_ms": round(p95, 2),
            f"p50_vs_{reference}": round(p50 / base50, 2) if base50 else 0.0,
            f"p95_vs_{reference}": round(p95 / base95, 2) if base95 else 0.0,
        }
    return out

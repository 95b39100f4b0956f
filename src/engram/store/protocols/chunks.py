"""Long memories: extra vectors for their tails (issue 13, BEAM).

An embedder reads only the first few hundred word pieces of a text (256 for
all-MiniLM-L6-v2), so a memory's own vector (``VectorStore``) says nothing about the
rest of a long message. A long memory also gets one vector per overlapping window of
its text past the head (``engram.recall.chunks`` cuts and embeds them); the dense leg
can then score the memory by its best vector. The rows are derived, like every vector:
written with the memory's content hash, dropped with it, and rebuilt by ``reindex``.
A row whose content hash is not the memory's current one (the memory changed) or whose
memory is tombstoned is never searched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord


@dataclass(frozen=True, slots=True)
class MemoryChunks:
    """Every chunk vector of one memory by one model (an empty matrix: none)."""

    memory_id: str
    model: str
    content_hash: str
    vectors: npt.NDArray[np.float32]
    """(chunks, dimension), unit rows."""


@runtime_checkable
class ChunkVectorStore(Protocol):
    """Chunk vector rows and the max-over-chunks cosine search that reads them."""

    def put(self, chunks: Iterable[MemoryChunks]) -> None:
        """Replace each memory's chunk vectors by ``model`` (an empty matrix removes
        them) in one transaction; memories purged meanwhile are skipped."""
        ...

    def search(
        self, namespace: str, model: str, query: npt.NDArray[np.float32], k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` live memories of ``namespace`` whose best current chunk is nearest
        to ``query``: (memory id, that chunk's cosine), best first."""
        ...

    def scores(
        self,
        namespace: str,
        model: str,
        query: npt.NDArray[np.float32],
        ids: Sequence[str],
    ) -> dict[str, float]:
        """The best chunk cosine of specific live memories; ids without chunks are absent."""
        ...

    def unchunked(self, model: str, min_chars: int, *, limit: int) -> list[MemoryRecord]:
        """Live memories with more than ``min_chars`` characters of content that have a
        current vector by ``model`` but no chunk vectors of their current content (a
        store written before chunking was on, or with a smaller window)."""
        ...

    def uncovered(
        self,
        model: str,
        chunk_model: str,
        words: Sequence[str],
        *,
        after: str | None,
        limit: int,
    ) -> list[MemoryRecord]:
        """Live memories with a current vector by ``model``, no chunk vectors by
        ``chunk_model`` of their current content, and one of ``words`` in the first
        ``FACTS_HEAD_CHARS`` characters of their normalised content, in store order
        after the memory ``after`` (None: from the first). ``reindex`` pages through
        them to write standing instructions' condition vectors (recall/conditions.py)."""
        ...

    def count(self, model: str | None = None) -> int:
        """Chunk vector rows (of one model, or all), for ``doctor`` and the benchmarks."""
        ...

    def delete(self, model: str | None = None) -> int:
        """Drop chunk vectors (of one model, or all) so ``reindex`` can rebuild them."""
        ...

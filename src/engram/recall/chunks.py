"""Long memories: chunk vectors written beside a memory's own vector, and the dense
scores that pool them (issue 13, "Long messages").

An embedder reads only the head of a text (all-MiniLM-L6-v2: 256 word pieces, about
1,000 characters of English), so a memory's vector says nothing about the rest of a
long message. A memory whose embedded text is longer than ``recall.chunk_chars`` also
gets one vector per window of that many characters past the head (windows overlap by
``recall.chunk_overlap`` and are cut at spaces), stored by ``store.chunks``. With
``recall.chunk_pooling`` on, the dense leg scores a memory by its own vector and its
best chunk (docs/recall.md, "Long memories").
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.records import MemoryRecord
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.vectors import VectorSearch

log = logging.getLogger("engram.recall")

Vector = npt.NDArray[np.float32]


def windows(text: str, size: int, overlap: int) -> list[str]:
    """The windows of ``text`` past its head: ``size`` characters each, starting every
    ``size - overlap`` characters, cut at spaces. Empty when the text fits in one window
    (the memory's own vector covers it) or ``size`` is 0."""
    if size <= 0 or len(text) <= size:
        return []
    step = max(1, size - min(overlap, size - 1))
    out: list[str] = []
    start = step
    while start < len(text):
        # Begin at the next word and end at the last space inside the window.
        space = text.find(" ", start)
        begin = start if start == 0 or text[start - 1].isspace() else space + 1
        if space < 0 or begin >= len(text):
            break
        end = start + size
        if end < len(text):
            cut = text.rfind(" ", begin, end)
            end = cut if cut > begin else end
        piece = text[begin:end].strip()
        if piece:
            out.append(piece)
        if start + size >= len(text):
            break
        start += step
    return out


def store_chunks(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    records: Sequence[MemoryRecord],
    config: RecallConfig,
) -> int:
    """Embed and store the chunk vectors of the long ``records``; returns how many
    chunks were stored. A failure is logged and leaves the memories without chunks
    (``reindex`` fills them later): the memory and its own vector are already stored."""
    if embedder is None or config.chunk_chars <= 0:
        return 0
    pieces = [
        windows(r.embedding_text(), config.chunk_chars, config.chunk_overlap) for r in records
    ]
    texts = [p for ps in pieces for p in ps]
    if not texts:
        return 0
    try:
        vectors = embedder.embed_batch(texts)
        start = 0
        rows: list[MemoryChunks] = []
        for record, ps in zip(records, pieces, strict=True):
            if ps:
                block = np.asarray(vectors[start : start + len(ps)], dtype=np.float32)
                rows.append(MemoryChunks(record.id, embedder.name, record.content_hash, block))
                start += len(ps)
        chunks.put(rows)
    except Exception as exc:  # raw-first: reindex fills the chunks later
        log.warning("chunk vectors of %d long memories not stored: %s", len(records), exc)
        return 0
    return len(texts)


def fill_chunks(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    config: RecallConfig,
    batch_size: int,
) -> int:
    """Give chunk vectors to long memories that have a current vector but none (stored
    before chunking was on); returns how many chunks were stored. ``reindex`` runs it."""
    if embedder is None or config.chunk_chars <= 0:
        return 0
    made = 0
    tried: set[str] = set()
    while True:
        batch = [
            r
            for r in chunks.unchunked(embedder.name, config.chunk_chars, limit=batch_size)
            if r.id not in tried
        ]
        if not batch:
            return made
        tried.update(r.id for r in batch)
        made += store_chunks(embedder, chunks, batch, config)


class PooledDense:
    """The dense leg with extra vectors: a memory's score pools its own cosine and its
    best extra vector's (a long memory's chunks, or a standing instruction's condition:
    recall/conditions.py). Same ``search``/``scores`` calls and ``model`` as
    ``VectorSearch``, so the pipeline swaps it in, and one can wrap another."""

    def __init__(
        self,
        index: VectorSearch | PooledDense,
        chunks: ChunkVectorStore,
        weight: float,
        suffix: str = "",
    ) -> None:
        self.index = index
        self.chunks = chunks
        self.weight = weight
        self.model: str = index.model
        self.chunk_model = self.model + suffix
        """The chunk table's model key of the extra vectors read."""

    def pool(self, head: float | None, best_chunk: float | None) -> float:
        """One memory's dense score from its own cosine and its best chunk's."""
        if best_chunk is None:
            return head if head is not None else 0.0
        if head is None:
            head = 0.0
        gain = max(0.0, best_chunk - head)
        return head + self.weight * gain

    def search(self, namespace: str, query: Vector, k: int) -> list[tuple[str, float]]:
        """The ``k`` best memories by pooled score: the heads' top ``k`` and the chunks'
        top ``k`` together, each completed with the other's score (the chunks' search
        answering fewer than ``k`` holds every memory that has chunks)."""
        return self.merged(
            namespace, query, k, self.chunks.search(namespace, self.chunk_model, query, k)
        )

    def merged(
        self, namespace: str, query: Vector, k: int, chunked: Sequence[tuple[str, float]]
    ) -> list[tuple[str, float]]:
        """``search`` given the chunks' top ``k`` (``chunked``)."""
        heads = dict(self.index.search(namespace, query, k))
        best = dict(chunked)
        missing_heads = [i for i in best if i not in heads]
        if missing_heads:
            heads.update(self.index.scores(namespace, query, missing_heads))
        missing_chunks = [i for i in heads if i not in best]
        if missing_chunks and len(best) >= k:
            best.update(self.chunks.scores(namespace, self.chunk_model, query, missing_chunks))
        pooled = {i: self.pool(heads.get(i), best.get(i)) for i in {*heads, *best}}
        ranked = sorted(pooled.items(), key=lambda item: (-item[1], item[0]))
        return ranked[:k]

    def scores(self, namespace: str, query: Vector, ids: Sequence[str]) -> dict[str, float]:
        """Pooled scores of specific memories; ids with no vector at all are absent."""
        heads = self.index.scores(namespace, query, ids)
        best = self.chunks.scores(namespace, self.chunk_model, query, ids)
        return {i: self.pool(heads.get(i), best.get(i)) for i in ids if i in heads or i in best}

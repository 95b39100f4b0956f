"""Document chunks' windows: a vector for each part of a chunk the embedder cannot read.

A document chunk is ``[documents] chunk_size`` characters (2,000: seed 004's
documentChunkSize), and the embedder reads a text's first ``max_seq_length`` word
pieces (256 for all-MiniLM-L6-v2: about 1,000 characters), so the dense leg never saw
the second half of each chunk: "How often did the sensors record how wet the ground
was?" missed the paper's "Soil moisture was logged every fifteen minutes", which sat
1,300 characters into its chunk (round twenty-two, docs/benchmarks.md). A chunk longer
than ``WINDOW_CHARS`` therefore gets one more vector per window past its head
(``chunks.windows``: cut at spaces, overlapping), written at add time beside its own
vector in the chunk table under its own model key (the embedder's name with
``SUFFIX``), so they never mix with ``recall.chunk_chars``'s chunks or standing
instructions' conditions. The dense leg then scores a chunk by its best vector
(``chunks.PooledDense`` with weight 1: ``max(own, best window)``) in the namespaces that
hold windows (``conditions.Holders``); any other namespace keeps the plain dense leg.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future

import numpy as np

from engram.embed.base import Embedder
from engram.recall.chunks import windows
from engram.recall.conditions import Holders, fill_extra, put_extra
from engram.records import MemoryRecord, MemoryType
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks

#: What tells a document chunk's windows apart in the chunk table.
SUFFIX = "#window"
#: Characters per window: about what the default embedder reads (256 word pieces;
#: docs/recall.md "Long memories").
WINDOW_CHARS = 1000
#: Characters a window shares with the one before, so a sentence cut by one is whole in
#: the next (a sentence of the round's documents is under 200 characters).
OVERLAP = 200
#: A window's score counts as the chunk's own: the chunk is one passage, and the
#: window holds its words.
WEIGHT = 1.0


def holders(
    chunks: ChunkVectorStore | None,
    embedder: Embedder | None,
    submit: Callable[[Callable[[str], None], str], Future[None]],
) -> Holders:
    """Which namespaces hold document chunks' windows (recall's ``windowed``)."""
    return Holders(chunks, embedder, submit, suffix=SUFFIX)


def store_windows(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    records: Iterable[MemoryRecord],
    holders: Holders | None = None,
) -> int:
    """Embed and store the windows of the document chunks among ``records``; returns
    how many were stored (and tells ``holders``). A failure is logged and leaves the
    chunks with their own vector only."""
    if embedder is None:
        return 0
    found = [
        (r, ws)
        for r in records
        if r.type is MemoryType.DOCUMENT_CHUNK
        and (ws := windows(r.embedding_text(), WINDOW_CHARS, OVERLAP))
    ]
    if not found:
        return 0
    texts = [w for _, ws in found for w in ws]

    def rows() -> list[MemoryChunks]:
        vectors = np.asarray(embedder.embed_batch(texts), dtype=np.float32)
        model = embedder.name + SUFFIX
        out: list[MemoryChunks] = []
        start = 0
        for record, ws in found:
            block = vectors[start : start + len(ws)]
            out.append(MemoryChunks(record.id, model, record.content_hash, block))
            start += len(ws)
        return out

    what = f"windows of {len(found)} document chunks"
    return (
        len(texts) if put_extra(chunks, rows, {r.namespace for r, _ in found}, holders, what) else 0
    )


def fill_windows(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    batch_size: int,
    holders: Holders | None = None,
) -> int:
    """Write the windows of document chunks stored before this version; returns how many
    were stored. ``reindex`` runs it (every memory without windows is read once: the
    store has no type filter for this; ``store_windows`` keeps the document chunks)."""
    if embedder is None:
        return 0

    def store(batch: list[MemoryRecord]) -> int:
        return store_windows(embedder, chunks, batch, holders)

    return fill_extra(chunks, embedder.name, embedder.name + SUFFIX, ("",), batch_size, store)

"""``reindex``'s part for document heads: chunks ingested before round twenty-six carry
no head (``chunk_source.document_head``) and no head window (``recall.doc_heads``).

Each document chunk without a head window is read once (``conditions.fill_extra``); a
later chunk of a document gets its head written into its metadata (from its document's
name and title and its first chunk's text, as ingest writes it now), then its window
embedded. The first chunk, and a chunk whose document is gone, stay as they are.
"""

from __future__ import annotations

from dataclasses import replace

from engram.core import Core, acting
from engram.pipeline.chunk_source import document_head
from engram.recall.conditions import fill_extra
from engram.recall.doc_heads import SUFFIX, store_heads
from engram.recall.format import HEAD_KEY
from engram.records import MemoryRecord, MemoryType
from engram.store.protocols import Document


def fill_heads(core: Core, batch_size: int) -> int:
    """Write the heads and head windows of document chunks stored without; returns how
    many windows were stored."""
    embedder = core.embedder
    if embedder is None:
        return 0
    firsts: dict[str, tuple[Document, str] | None] = {}

    def store(batch: list[MemoryRecord]) -> int:
        headed = [_with_head(core, r, firsts) for r in batch]
        return store_heads(embedder, core.store.chunks, headed, core.retriever.headed)

    model = embedder.name + SUFFIX
    return fill_extra(core.store.chunks, embedder.name, model, ("",), batch_size, store)


def _with_head(
    core: Core, record: MemoryRecord, firsts: dict[str, tuple[Document, str] | None]
) -> MemoryRecord:
    """``record`` with its head written, when it is a later chunk of a document and
    has none (``firsts``: each document and its first chunk's id, read once)."""
    if (
        record.type is not MemoryType.DOCUMENT_CHUNK
        or record.document_id is None
        or HEAD_KEY in record.metadata
    ):
        return record
    ns, key = record.namespace, record.document_id
    if key not in firsts:
        document = core.store.documents.get(ns, key)
        links = core.store.documents.chunks(key) if document is not None else []
        first = min(links, key=lambda c: c.chunk_index, default=None)
        firsts[key] = None if document is None or first is None else (document, first.memory_id)
    found = firsts[key]
    if found is None or found[1] == record.id:
        return record
    first_record = core.store.memories.get_many(ns, [found[1]]).get(found[1])
    head = None if first_record is None else document_head(found[0], first_record.content, 1)
    if head is None:
        return record
    metadata = {**record.metadata, HEAD_KEY: head}
    core.store.memories.update(
        ns,
        record.id,
        {"metadata": metadata},
        reason="reindex: its document's head (round twenty-six)",
        actor=acting(),
    )
    return replace(record, metadata=metadata)

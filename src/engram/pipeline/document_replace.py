"""A file or URL ingested again replaces what its earlier ingests stored.

A researcher's vault is ingested again after its notes are edited: the edited note's old
text must leave recall, or the stale fact outranks the new one (round twenty of the
new-user pass: 3 of 3 edited facts still in the top 4, 2 of them first). When a
document is ``done``, every other finished document of the same source (the resolved
file path, or the URL) is retired in favour of the newest ``done`` one: its chunk
memories that the newest document also holds move to it (their text is unchanged), the
rest are tombstoned (``mem.history`` keeps them), and its row goes. A document still
queued or running is left to finish; it retires the others, or itself, when it does.
``mem.documents.delete`` drops a document the same way, so deleting a renamed note's
old document keeps the text the new one links.
"""

from __future__ import annotations

from engram.core import Core, acting
from engram.pipeline.chunk_source import relocated
from engram.store.protocols import Document

#: Sources that name something that can change under the same name; a text has none.
REPLACED_SOURCES = ("file", "url")
#: Statuses of a document that no longer changes.
FINISHED = ("done", "failed")


def replace_earlier(core: Core, document: Document) -> list[str]:
    """Retire the other finished documents of ``document``'s source in favour of the
    newest done one; the ids of the documents retired (``document``'s own when a newer
    one finished first)."""
    if document.source_type not in REPLACED_SOURCES or document.source is None:
        return []
    ns = document.namespace
    same = core.store.documents.by_source(ns, document.source_type, document.source)
    done = [d for d in same if d.status == "done"]
    if not done:
        return []
    keep = done[-1]  # oldest first: the last is the newest
    retired = [d for d in same if d.id != keep.id and d.status in FINISHED]
    for old in retired:
        drop_document(core, old)
    return [d.id for d in retired]


def drop_document(core: Core, old: Document) -> list[str]:
    """Remove ``old`` and its chunks: a chunk memory it stored that another document
    links too (a renamed note's text, a passage two files share, the unchanged part
    of an edited note) moves to the newest such document; the rest are tombstoned
    (their history stays). The ids tombstoned."""
    ns = old.namespace
    store = core.store
    ids = [c.memory_id for c in store.documents.chunks(old.id)]
    own = [r for r in store.memories.get_many(ns, ids).values() if r.document_id == old.id]
    heirs = store.documents.holders(ns, [r.id for r in own], besides=old.id)
    gone: list[str] = []
    # The history rows name who removed the document, as a forget does (FEATURES' audit
    # trail): without it a chunk's tombstone reads as if no one had asked for it.
    actor = acting()
    with store.transaction():
        for record in own:
            if record.id in heirs:
                heir, index = heirs[record.id]
                metadata = relocated(core, record, heir, index)
                store.memories.update(
                    ns,
                    record.id,
                    {"document_id": heir, "metadata": metadata},
                    reason=f"document {old.id} was removed; document {heir} holds this text too",
                    actor=actor,
                )
            else:
                store.memories.delete(ns, record.id, actor=actor)
                gone.append(record.id)
        store.documents.delete(ns, old.id)
    if core.index is not None:
        for memory_id in gone:
            core.index.removed(ns, memory_id)
    return gone

"""The memory row's columns, shared by every backend's codec.

One list, so the backends cannot disagree about what a stored memory holds.
"""

from __future__ import annotations

#: Columns of the ``memories`` table, in the order every backend reads and writes them:
#: the ``MemoryRecord`` fields plus ``normalized`` (seed 004's normalised text).
MEMORY_COLUMNS = (
    "id",
    "namespace",
    "content",
    "normalized",
    "content_hash",
    "type",
    "category",
    "title",
    "narrative",
    "facts",
    "tags",
    "importance",
    "quality",
    "score",
    "confidence",
    "user_id",
    "agent_id",
    "run_id",
    "session_id",
    "source_memory_id",
    "document_id",
    "who",
    "why",
    "extraction_model",
    "embedding_model",
    "metadata",
    "created_at",
    "updated_at",
    "deleted_at",
)
#: Record fields stored as JSON text.
JSON_FIELDS = frozenset({"facts", "tags", "metadata"})
TIME_FIELDS = frozenset({"created_at", "updated_at", "deleted_at"})
#: Columns ``Store.update`` may change.
UPDATABLE = frozenset(MEMORY_COLUMNS) - {"id", "namespace", "created_at", "normalized"}

"""What a duplicate write does to the memory that already holds its content.

Seed 004 dedupes on the hash of the normalised content: a second write of the same
content returns the stored memory. Issue 26 found that the second write's tags, type
and metadata were dropped without a word. engram merges instead of refusing: a batch
mixes new items and repeats (a re-mined conversation, a re-run import script), and
refusing the whole write for a repeat would cost the caller the new items. So:

- tags the write adds are appended to the stored memory's tags;
- metadata keys the stored memory lacks are added;
- everything else stays as stored (the first write's type, title, scores ...), and a
  field the write set to another value is named in ``Merged.kept``, as is a metadata
  key the stored memory already holds with another value;
- the change is one ``merge`` history row (before and after), in the write's own
  transaction, and the batch outcome says ``duplicate_of`` and what was merged.

engram's own derived writes (document chunks, the pipeline's facts) merge nothing: their
metadata is bookkeeping (``document_id``, ``chunk_index``) that would make a memory the
caller wrote look like part of a document. Nor does a write from another session than
the stored memory's: the same words said in another conversation are not more about
this memory, and a chat adapter's tags and turn metadata would make another writer's
memory look like a message of its session. Both still report ``duplicate_of``, and the
second names ``session_id`` in ``kept``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.errors import InvalidInputError
from engram.records import PIPELINE_WHO, MemoryRecord, MemoryType, Merged
from engram.store.protocols import InsertResult, Store
from engram.validate import metadata_dict

#: Fields a duplicate cannot change on the stored memory: named in ``Merged.kept`` when
#: the write set one (not left at its default) to another value than the stored one.
KEPT_FIELDS = (
    "type",
    "category",
    "title",
    "narrative",
    "facts",
    "importance",
    "score",
    "confidence",
    "who",
    "why",
)
#: The history reason of a merge.
REASON = "a write of the same content added tags or metadata"


def merges(write: MemoryRecord) -> bool:
    """Whether a duplicate ``write`` merges into the stored memory: a caller's does,
    engram's derived ones (document chunks, pipeline facts) do not."""
    return write.type is not MemoryType.DOCUMENT_CHUNK and write.who != PIPELINE_WHO


def merge_plan(stored: MemoryRecord, write: MemoryRecord) -> tuple[dict[str, Any], Merged]:
    """The changes that merge ``write`` into ``stored`` (empty: nothing to add), and
    what the merge adds and keeps."""
    if write.session_id is not None and write.session_id != stored.session_id:
        return {}, Merged(kept=("session_id",))
    tags = tuple(t for t in write.tags if t not in stored.tags)
    added = {k: v for k, v in write.metadata.items() if k not in stored.metadata}
    kept = [
        name
        for name in KEPT_FIELDS
        if _given(name, getattr(write, name)) and getattr(write, name) != getattr(stored, name)
    ]
    kept += [
        f"metadata.{k}"
        for k, v in write.metadata.items()
        if k in stored.metadata and stored.metadata[k] != v
    ]
    changes: dict[str, Any] = {}
    if tags:
        changes["tags"] = stored.tags + tags
    if added:
        try:
            changes["metadata"] = metadata_dict({**stored.metadata, **added})
        except InvalidInputError:
            # Together over the metadata limits: the stored memory keeps its own.
            kept += [f"metadata.{k}" for k in added]
            added = {}
    return changes, Merged(tags=tags, metadata=tuple(added), kept=tuple(kept))


def _given(name: str, value: object) -> bool:
    """Whether the write set ``name`` (a default is not a wish to change it)."""
    if name == "type":
        return value is not MemoryType.FACT
    return value is not None and value != ()


def merge_duplicates(
    store: Store,
    records: Sequence[MemoryRecord],
    results: Sequence[InsertResult],
    actor: str | None,
) -> list[tuple[InsertResult, Merged | None]]:
    """Merge each duplicate of ``results`` (``records`` are the writes, in order) into
    the memory that holds its content; joins the open transaction. Several writes of
    one content in a batch merge one after the other."""
    current: dict[str, MemoryRecord] = {}
    out: list[tuple[InsertResult, Merged | None]] = []
    for write, result in zip(records, results, strict=True):
        if result.created:
            current[result.record.id] = result.record
            out.append((result, None))
            continue
        stored = current.get(result.record.id, result.record)
        if not merges(write):
            out.append((InsertResult(stored, created=False), None))
            continue
        changes, merged = merge_plan(stored, write)
        if changes:
            _, stored = store.memories.update(
                stored.namespace, stored.id, changes, event="merge", actor=actor, reason=REASON
            )
        current[stored.id] = stored
        out.append((InsertResult(stored, created=False), merged))
    return out

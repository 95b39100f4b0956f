"""The memory row's columns, shared by every backend's codec.

One list, so the backends cannot disagree about what a stored memory holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engram.errors import InvalidInputError
from engram.records import MemoryRecord, utcnow
from engram.store.protocols.transfer import MemoryBundle
from engram.text import normalize_content

#: Columns of the ``memories`` table, in the order every backend reads and writes them:
#: the ``MemoryRecord`` fields plus ``normalized`` (seed 004's normalised text) after
#: ``content``.
_FIELDS = tuple(f.name for f in dataclasses.fields(MemoryRecord))
_AT = _FIELDS.index("content") + 1
MEMORY_COLUMNS = (*_FIELDS[:_AT], "normalized", *_FIELDS[_AT:])
#: Record fields stored as JSON text.
JSON_FIELDS = frozenset({"facts", "tags", "metadata"})
TIME_FIELDS = frozenset({"created_at", "updated_at", "deleted_at"})
#: Columns ``Store.update`` may change.
UPDATABLE = frozenset(MEMORY_COLUMNS) - {"id", "namespace", "created_at", "normalized"}


def check_updatable(changes: Mapping[str, Any]) -> None:
    """Refuse changes to columns ``Store.update`` may not touch, naming the ones it may."""
    bad = set(changes) - UPDATABLE
    if bad:
        raise InvalidInputError(
            f"cannot update field(s) {', '.join(sorted(bad))}; "
            f"updatable: {', '.join(sorted(UPDATABLE - {'content_hash'}))}"
        )


def planned_update(
    before: MemoryRecord, changes: Mapping[str, Any]
) -> tuple[dict[str, Any], MemoryRecord]:
    """The column values to write (with ``updated_at``, and ``normalized`` when the
    content changes) and the record as it will be."""
    values = dict(changes)
    values["updated_at"] = utcnow()
    if values.get("content_hash", before.content_hash) != before.content_hash:
        # The old vector no longer matches: the memory is unembedded until re-embedded.
        values["embedding_model"] = None
    after = before.with_changes(**values)
    if "content" in values:
        values["normalized"] = normalize_content(after.content).normalized
    return values, after


def content_clash(other_id: str) -> InvalidInputError:
    """The error for an update that would give a memory the content of another."""
    return InvalidInputError(
        f"memory {other_id} already holds this content; update that one or delete one of them"
    )


def imported_record(bundle: MemoryBundle) -> MemoryRecord:
    """The record as an import stores it: ``embedding_model`` names a model only when
    the bundle brings that model's vector of the current content (an import without
    vectors leaves the memory for ``reindex`` and the backfill to embed)."""
    record, vector = bundle.record, bundle.vector
    embedded = (
        vector is not None
        and vector.model == record.embedding_model
        and vector.content_hash == record.content_hash
    )
    return record if embedded else record.with_changes(embedding_model=None)

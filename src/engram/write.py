"""The raw-first write path (seed 004) shared by ``add``, ``add_many`` and ``update``.

Every item is validated and scanned before anything is written, then records are
committed ``BATCH`` at a time, then the new ones are embedded outside any transaction
and their vectors stored in a second short one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engram.core import Core
from engram.errors import InvalidInputError
from engram.records import MemoryRecord
from engram.store.protocols import InsertResult
from engram.text import normalize_content
from engram.validate import (
    build_record,
    checked_content,
    memory_category,
    memory_type,
    metadata_dict,
    optional_float,
    optional_str,
    string_list,
    type_name,
)

#: Records per transaction in ``add_many`` and ``reindex``.
BATCH = 256
#: Records ``add_many`` embeds in one call: enough that sorting by length leaves little
#: padding, few enough that a long import shows progress and holds little in memory.
EMBED_GROUP = 2048

Progress = Callable[[int, int], None]

#: The fields an item of ``add_many`` may carry.
ITEM_KEYS = frozenset(
    {
        "content",
        "namespace",
        "user_id",
        "agent_id",
        "run_id",
        "session_id",
        "metadata",
        "tags",
        "type",
        "category",
        "importance",
        "score",
        "confidence",
        "title",
        "narrative",
        "facts",
        "created_at",
        "who",
        "why",
    }
)


def prepare(
    core: Core, item: str | Mapping[str, Any], namespace: str | None, position: int
) -> MemoryRecord:
    """One item of a batch as a validated, scanned record (nothing is written)."""
    if isinstance(item, str):
        item = {"content": item}
    if not isinstance(item, Mapping):
        raise InvalidInputError(
            f"item {position} must be a string or a dict, got {type(item).__name__}"
        )
    unknown = set(item) - ITEM_KEYS
    if unknown:
        raise InvalidInputError(
            f"item {position} has unknown field(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(ITEM_KEYS))}"
        )
    if item.get("content") is None:
        raise InvalidInputError(f"item {position} has no 'content'")
    fields = {k: v for k, v in item.items() if v is not None}
    scope = core.scope(
        fields.pop("namespace", namespace),
        fields.get("user_id"),
        fields.get("agent_id"),
        fields.get("run_id"),
    )
    content = fields.pop("content")
    record = build_record(
        content, namespace=scope.namespace, max_chars=core.config.max_content_chars, **fields
    )
    return core.scan(record)


def add_batch(
    core: Core,
    items: Sequence[str | Mapping[str, Any]],
    *,
    namespace: str | None = None,
    progress: Progress | None = None,
) -> list[InsertResult]:
    """Validate every item, then store them raw-first; see ``Memory.add_many``."""
    core.check_open()
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise InvalidInputError("items must be a list of strings or dicts")
    records: list[MemoryRecord] = []
    for i, item in enumerate(items):
        try:
            records.append(prepare(core, item, namespace, i))
        except InvalidInputError as exc:
            # In a batch, say which item is wrong (keeping the error's class).
            if len(items) > 1 and exc.args and not str(exc.args[0]).startswith("item "):
                exc.args = (f"item {i}: {exc.args[0]}", *exc.args[1:])
            raise
    out: list[InsertResult] = []
    # Raw-first (seed 004): records are committed BATCH at a time; then the new ones
    # are embedded EMBED_GROUP at a time (length-sorted across the group, so little
    # compute goes to padding) and their vectors stored.
    for group in range(0, len(records), EMBED_GROUP):
        inserted: list[InsertResult] = []
        for start in range(group, min(group + EMBED_GROUP, len(records)), BATCH):
            inserted.extend(core.store.memories.insert(records[start : start + BATCH]))
        model = core.embed_and_store([r.record for r in inserted if r.created])
        if model is not None:
            # Return what is stored now: the new records have a vector by ``model``.
            inserted = [
                InsertResult(r.record.with_changes(embedding_model=model), True) if r.created else r
                for r in inserted
            ]
        out.extend(inserted)
        if progress is not None:
            progress(len(out), len(records))
    return out


def update_changes(
    core: Core,
    *,
    content: str | None,
    metadata: Mapping[str, Any] | None,
    tags: Sequence[str] | None,
    type: str | None,
    category: str | None,
    importance: float | None,
    score: float | None,
    title: str | None,
) -> dict[str, Any]:
    """The validated column changes of an ``update`` call."""
    changes: dict[str, Any] = {}
    if content is not None:
        if not isinstance(content, str):
            raise InvalidInputError(f"content must be a string, got {type_name(content)}")
        storage = checked_content(content, core.config.max_content_chars)
        changes["content"] = storage
        changes["content_hash"] = normalize_content(storage).content_hash
    if metadata is not None:
        changes["metadata"] = metadata_dict(metadata)
    if tags is not None:
        changes["tags"] = string_list("tags", tags)
    if type is not None:
        changes["type"] = memory_type(type)
    if category is not None:
        changes["category"] = memory_category(category)
    if importance is not None:
        changes["importance"] = optional_float("importance", importance, 0.0, 1.0)
    if score is not None:
        changes["score"] = optional_float("score", score, 0.0, 10.0)
    if title is not None:
        changes["title"] = optional_str("title", title)
    if not changes:
        raise InvalidInputError("nothing to update: pass content or a field to change")
    return changes


def rescan(core: Core, before: MemoryRecord, changes: dict[str, Any]) -> dict[str, Any]:
    """Scan the text as it will be after ``changes``; in flag mode the flags follow the
    new text (set, replaced or cleared)."""
    if "content" not in changes and "title" not in changes:
        return changes
    proposed = before.with_changes(**changes)
    clean = {k: v for k, v in proposed.metadata.items() if k != "injection_flags"}
    scanned = core.scan(proposed.with_changes(metadata=clean))
    if scanned.metadata != proposed.metadata:
        changes = {**changes, "metadata": scanned.metadata}
    return changes

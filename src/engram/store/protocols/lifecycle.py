"""The lifecycle part of a store (seed 002's consolidation and retention, seed 004's
retention worker; FEATURES S8, S9).

- The archive: originals that consolidation moved out of recall, kept verbatim (the
  whole record as JSON) with the archival index entry naming the summary that replaced
  them, so ``take`` gives back exactly what was archived (ids and content).
- Agent retention overrides (seed 002's ``MemoryConfig.retention_overrides``), per
  namespace: one row per category, ``*`` for the agent's global default.
- The retention worker's steps (seed 004), each one call = one short transaction that
  touches at most ``limit`` rows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.records import MemoryCategory, MemoryRecord, MemoryType, iso
from engram.store.protocols.record import Record

#: seed 004's retention worker order: "Purges follow a strict ordering to maintain
#: referential safety" — graph links, embeddings, tombstones, history, completed jobs,
#: dead jobs.
SWEEP_STEPS = (
    "graph_links",
    "embeddings",
    "tombstones",
    "history",
    "completed_jobs",
    "dead_jobs",
)
#: The history event of an archived original whose verbatim record was dropped because
#: its namespace's archive held more than ``archive_max_per_agent``.
COMPACT_EVENT = "compact"
#: The key of an agent's global retention override (seed 002: "agent global default").
ANY_CATEGORY = "*"
#: Tables ``sizes`` reports (the year simulation's "rows per table").
SIZE_TABLES = (
    "memories",
    "memory_vectors",
    "memory_history",
    "memory_entity_mentions",
    "entities",
    "relations",
    "memory_jobs",
    "memory_archive",
)


@dataclass(frozen=True, slots=True)
class ArchiveEntry(Record):
    """seed 002's ``ArchivalIndexEntry``: an original memory, the archive row holding it
    and the summary memory that replaced it in recall."""

    archive_id: str
    namespace: str
    original_id: str
    summary_id: str
    mode: str
    """``abstractive`` or ``extractive`` (seed 002's ``ArchivalMode``)."""
    category: str | None
    original_created_at: datetime
    archived_at: datetime


def compact_audit(entry: ArchiveEntry, now: datetime) -> tuple[str, dict[str, Any]]:
    """The reason and payload of the ``compact`` history row of one archived original
    (both backends write the same)."""
    reason = (
        f"archive over archive_max_per_agent: verbatim text dropped; summary memory "
        f"{entry.summary_id} holds it"
    )
    payload = entry.to_dict() | {"compacted_at": iso(now)}
    return reason, payload


def record_json(record: MemoryRecord) -> str:
    """The whole record as JSON text (what the archive keeps)."""
    return json.dumps(record.to_dict(), ensure_ascii=False, sort_keys=True)


def record_from_json(text: str | Mapping[str, Any]) -> MemoryRecord:
    """The record ``record_json`` wrote, field for field."""
    data = dict(json.loads(text) if isinstance(text, str) else text)
    for name in ("created_at", "updated_at", "deleted_at"):
        if data.get(name) is not None:
            data[name] = datetime.fromisoformat(data[name])
    data["type"] = MemoryType(data["type"])
    if data.get("category") is not None:
        data["category"] = MemoryCategory(data["category"])
    data["facts"] = tuple(data.get("facts") or ())
    data["tags"] = tuple(data.get("tags") or ())
    return MemoryRecord(**data)


@runtime_checkable
class LifecycleStore(Protocol):
    """The archive and its index, retention overrides, and the retention sweep."""

    def archive(
        self,
        namespace: str,
        originals: Sequence[MemoryRecord],
        *,
        summary_id: str,
        mode: str,
        now: datetime,
    ) -> list[ArchiveEntry]:
        """Move ``originals`` out of ``memories`` into the archive (their vectors,
        chunks and graph links go with the row) in one transaction; returns the index."""
        ...

    def take(self, namespace: str, original_id: str) -> MemoryRecord | None:
        """Remove one original from the archive and return it (the caller re-inserts
        it); None when it is not archived."""
        ...

    def entries(
        self,
        namespace: str,
        *,
        summary_id: str | None = None,
        original_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
        original_prefix: str | None = None,
    ) -> list[ArchiveEntry]:
        """The archival index of ``namespace``, newest first, optionally of one summary,
        one original, or the originals whose id starts with ``original_prefix``."""
        ...

    def counts(self, namespace: str | None = None) -> dict[str, int]:
        """Archived originals per namespace (of one namespace when given)."""
        ...

    def set_override(self, namespace: str, category: str, days: int | None) -> None:
        """Set (``days``) or clear (None) the agent's retention for ``category``
        (``ANY_CATEGORY`` = the agent's global default)."""
        ...

    def overrides(self) -> dict[str, dict[str, int]]:
        """namespace -> category (or ``*``) -> retention days."""
        ...

    def expire(
        self,
        namespace: str,
        categories: Sequence[str | None],
        *,
        cutoff: datetime,
        now: datetime,
        limit: int,
        archived: bool = False,
    ) -> list[str]:
        """Tombstone (``deleted_at = now``, audited as ``expire``) up to ``limit`` live
        memories of ``namespace`` whose category is in ``categories`` (None =
        uncategorised) created before ``cutoff``; with ``archived``, hard-delete such
        archived originals instead. One short transaction; returns their ids."""
        ...

    def compact(
        self, namespace: str, *, keep: int, now: datetime, limit: int
    ) -> list[ArchiveEntry]:
        """Drop the verbatim records of ``namespace``'s oldest archived originals beyond
        the newest ``keep`` (at most ``limit``), writing a ``compact`` history row for
        each that names its summary; one short transaction. Returns what was dropped."""
        ...

    def sweep(self, step: str, *, cutoff: datetime, limit: int) -> int:
        """One step of ``SWEEP_STEPS`` in one short transaction, at most ``limit``
        rows: rows older than ``cutoff`` (tombstones deleted before it, history created
        before it, jobs completed / failed before it). Returns rows removed."""
        ...

    def sizes(self) -> dict[str, int]:
        """Row counts of ``SIZE_TABLES``, plus ``live`` and ``tombstoned`` memories."""
        ...

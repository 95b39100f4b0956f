"""The transfer part of a store: bulk copy for export, import and ``migrate-store``.

Keyset-paged and ordered, so a copy can stop and resume: memories by id, transcripts
by (namespace, session_key). A bundle moves a memory with its history, feedback and
vector, in one transaction on the importing side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engram.records import HistoryEntry, MemoryRecord
from engram.store.protocols.feedback import FeedbackRow
from engram.store.protocols.transcripts import TranscriptRow
from engram.store.protocols.vectors import VectorRow


@dataclass(frozen=True, slots=True)
class MemoryBundle:
    """A memory with every row that hangs off it: the unit of export, import and
    store-to-store copy. Moving bundles whole keeps a copy consistent and resumable."""

    record: MemoryRecord
    history: tuple[HistoryEntry, ...] = ()
    """Oldest first. On import the target assigns new local row ids."""
    feedback: tuple[FeedbackRow, ...] = ()
    """Oldest first."""
    vector: VectorRow | None = None


@dataclass(frozen=True, slots=True)
class ImportCounts:
    """What ``TransferStore.import_bundles`` / ``import_transcripts`` did."""

    memories: int = 0
    """Memories inserted."""
    existing: int = 0
    """Skipped: a memory with that id is already stored (any namespace)."""
    duplicates: int = 0
    """Skipped: live, and a live memory of its namespace has the same content hash."""
    history: int = 0
    feedback: int = 0
    vectors: int = 0
    transcripts: int = 0
    blocked: int = 0
    """Skipped: the injection scan refused them (an import that is not ``trusted``)."""
    flagged: int = 0
    """Memories inserted with injection flags (flag mode's, or the learned detector's
    quarantine the file carried); skipped ones are not counted."""
    blocked_items: tuple[tuple[str, str], ...] = ()
    """(memory id, or ``transcript <namespace>/<session>``; why) of each blocked item."""
    rows: int = 0
    """Rows of the other carried tables (``engram.store.tables``) inserted."""
    rows_existing: int = 0
    """Such rows skipped: the store holds them already."""
    orphans: int = 0
    """Such rows skipped: a row they reference (a memory the import skipped) is missing."""

    def __add__(self, other: ImportCounts) -> ImportCounts:
        return ImportCounts(
            *(getattr(self, f) + getattr(other, f) for f in self.__dataclass_fields__)
        )


@runtime_checkable
class TransferStore(Protocol):
    """Export and import whole bundles, keeping every field."""

    def export_bundles(
        self,
        *,
        after: str | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
        vectors: bool = False,
    ) -> list[MemoryBundle]:
        """Up to ``limit`` memories with id > ``after`` (all when None), ordered by id,
        tombstoned ones included, of ``namespaces`` (every namespace when None), each
        with its history and feedback rows and, if ``vectors``, its vector row."""
        ...

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        """Insert bundles in one transaction, keeping every field (ids, timestamps,
        quality, tombstones) except the local row ids of history and feedback rows.

        A bundle whose memory id is already stored is skipped whole (``existing``), and
        so is a live memory whose content is live in its namespace (``duplicates``):
        importing the same bundles twice changes nothing.
        """
        ...

    def export_transcripts(
        self,
        *,
        after: tuple[str, str] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TranscriptRow]:
        """Up to ``limit`` transcripts after the key ``(namespace, session_key)``."""
        ...

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        """Insert transcripts whose (namespace, session_key) is not stored yet, keeping
        ``created_at``; the others are counted as ``existing``."""
        ...

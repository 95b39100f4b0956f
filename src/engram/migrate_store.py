"""Copy one store into another, losslessly, and prove it (``engram migrate-store``).

The copy moves memory bundles (a memory with its history, feedback and vector) in id
order through ``store.transfer.export_bundles`` / ``import_bundles``, one transaction per page on
the target, then session transcripts and API keys. Import skips what the target already
holds, so running the copy again after it stopped (killed, network gone) continues
where it stopped and never duplicates anything. Every other carried table (graph,
palace, runs, sessions, org memory, core blocks, the archive ...; ``engram.store.tables``)
follows, a page of canonical rows at a time, by ``engram.table_copy``.

Verification reads both stores again and compares, table by table, the row count and a
checksum: the sum (mod 2**256) of the SHA-256 of each row's canonical JSON. The sum does
not depend on row order, and the canonical form leaves out what a backend assigns for
itself (local row ids), so SQLite and PostgreSQL agree exactly when the data does.
Vectors are checked by the SHA-256 of their float32 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.errors import InvalidInputError
from engram.store import is_postgres, open_store, sqlite_path
from engram.store.protocols import ImportCounts, MemoryBundle, Store, TableCounts, TranscriptRow
from engram.store.protocols.record import Record
from engram.store.tables import TABLES as CARRIED
from engram.table_copy import Checksum, copy_tables
from engram.table_copy import table_checksums as carried_checksums

if TYPE_CHECKING:
    from engram.config import Config

#: Memories per page (and per import transaction).
BATCH = 500
#: Tables moved by bundles, transcript pages and key export.
BUNDLE_TABLES = (
    "memories",
    "memory_history",
    "memory_feedback_log",
    "memory_vectors",
    "session_transcripts",
    "api_keys",
)
#: Every table verified, in copy order.
TABLES = (*BUNDLE_TABLES, *(spec.name for spec in CARRIED))

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class TableCheck(Record):
    """Count and checksum of one table on both sides."""

    table: str
    source_rows: int
    target_rows: int
    source_checksum: str
    target_checksum: str

    @property
    def ok(self) -> bool:
        """True when the target holds exactly the source's rows."""
        return self.source_rows == self.target_rows and self.source_checksum == self.target_checksum

    _extra = ("ok",)


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What ``migrate_store`` copied and how the copy checked out."""

    source: str
    target: str
    copied: ImportCounts
    api_keys: int
    checks: tuple[TableCheck, ...] = field(default=())
    tables: dict[str, TableCounts] = field(default_factory=dict)
    """Rows of each carried table inserted / already there / skipped as orphans."""

    @property
    def ok(self) -> bool:
        """True when every table matches."""
        return bool(self.checks) and all(c.ok for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        copied = {name: getattr(self.copied, name) for name in self.copied.__dataclass_fields__}
        return {
            "source": self.source,
            "target": self.target,
            "ok": self.ok,
            "copied": {**copied, "api_keys": self.api_keys},
            "table_rows": {
                name: {"inserted": c.inserted, "existing": c.existing, "orphans": c.orphans}
                for name, c in self.tables.items()
            },
            "tables": [c.to_dict() for c in self.checks],
        }


def total_memories(store: Store) -> int:
    """Every memory of every namespace, tombstoned ones included."""
    stats = store.stats(None)
    return sum(stats.memories.values()) + stats.tombstoned


def migrate_store(
    source: Store,
    target: Store,
    *,
    batch: int = BATCH,
    progress: Progress | None = None,
) -> MigrationReport:
    """Copy everything in ``source`` into ``target`` and verify the copy.

    Safe to run again: whatever the target already holds is skipped, so a second run
    after an interruption finishes the copy. A target holding other data fails the
    verification (and its ``duplicates`` count says why).
    """
    if batch < 1:
        raise InvalidInputError(f"batch must be >= 1, got {batch}")
    if source is target:
        raise InvalidInputError("source and target are the same store")
    total = total_memories(source)
    counts = ImportCounts()
    done = 0
    for page in _bundle_pages(source, batch):
        counts += target.transfer.import_bundles(page)
        done += len(page)
        if progress is not None:
            progress(done, max(total, done))
    for rows in _transcript_pages(source, batch):
        counts += target.transfer.import_transcripts(rows)
    have = {k.id for k in target.keys.all()}
    keys = 0
    for api_key, key_hash in source.keys.export():
        if api_key.id not in have:
            target.keys.add(api_key, key_hash)
            keys += 1
    tables = copy_tables(source, target, batch=batch)
    checks = verify_copy(source, target, batch=batch)
    return MigrationReport(
        source=source.location,
        target=target.location,
        copied=counts,
        api_keys=keys,
        checks=tuple(checks),
        tables=tables,
    )


def migrate_locations(
    source: str,
    target: str,
    config: Config,
    *,
    batch: int = BATCH,
    progress: Progress | None = None,
) -> MigrationReport:
    """``migrate_store`` between two locations (a SQLite path, ``sqlite:///path`` or a
    ``postgresql://`` URL), opened here and closed when done. A SQLite source must
    exist: copying from a file that is not there would create an empty one."""
    if not is_postgres(source):
        path = sqlite_path(source)
        if path != ":memory:" and not Path(path).expanduser().is_file():
            raise InvalidInputError(f"source store {source!r} does not exist")
    src = open_store(source, config)
    try:
        dst = open_store(target, config)
        try:
            return migrate_store(src, dst, batch=batch, progress=progress)
        finally:
            dst.close()
    finally:
        src.close()


def verify_copy(source: Store, target: Store, *, batch: int = BATCH) -> list[TableCheck]:
    """Per-table row counts and checksums of both stores, side by side."""
    left, right = table_checksums(source, batch=batch), table_checksums(target, batch=batch)
    return [TableCheck(t, left[t][0], right[t][0], left[t][1], right[t][1]) for t in TABLES]


def _bundle_pages(store: Store, batch: int) -> Iterator[list[MemoryBundle]]:
    """Every memory bundle of ``store`` (with its vector), a page at a time, in id order."""
    after: str | None = None
    while page := store.transfer.export_bundles(after=after, limit=batch, vectors=True):
        yield page
        after = page[-1].record.id


def _transcript_pages(store: Store, batch: int) -> Iterator[list[TranscriptRow]]:
    """Every session transcript of ``store``, a page at a time."""
    key: tuple[str, str] | None = None
    while rows := store.transfer.export_transcripts(after=key, limit=batch):
        yield rows
        key = (rows[-1].namespace, rows[-1].session_key)


def _values(row: Any, names: str) -> list[Any]:
    """The named fields of ``row``, in order, times as ISO text: a checksummed row."""
    values = (getattr(row, name) for name in names.split())
    return [v.isoformat() if hasattr(v, "isoformat") else v for v in values]


def table_checksums(store: Store, *, batch: int = BATCH) -> dict[str, tuple[int, str]]:
    """(rows, checksum) per table, from the store protocol alone."""
    sums = {t: Checksum() for t in BUNDLE_TABLES}
    for bundle in chain.from_iterable(_bundle_pages(store, batch)):
        sums["memories"].add(bundle.record.to_dict())
        for h in bundle.history:
            names = "memory_id namespace event before after actor reason created_at"
            sums["memory_history"].add(_values(h, names))
        for f in bundle.feedback:
            names = "memory_id namespace rating comment created_at"
            sums["memory_feedback_log"].add(_values(f, names))
        if bundle.vector is not None:
            v = np.ascontiguousarray(bundle.vector.vector, dtype="<f4").reshape(-1)
            sums["memory_vectors"].add(
                [
                    bundle.vector.memory_id,
                    bundle.vector.model,
                    int(v.shape[0]),
                    bundle.vector.content_hash,
                    hashlib.sha256(v.tobytes()).hexdigest(),
                ]
            )
    for rows in _transcript_pages(store, batch):
        for r in rows:
            names = "namespace session_key content agent_id created_at"
            sums["session_transcripts"].add(_values(r, names))
    for api_key, key_hash in store.keys.export():
        sums["api_keys"].add([api_key.to_dict(), key_hash])
    return {**{t: s.result() for t, s in sums.items()}, **carried_checksums(store, batch=batch)}

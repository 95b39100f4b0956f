"""Copy, checksum and serialize every carried table (``engram.store.tables``).

``migrate-store`` calls ``copy_tables`` after the memory bundles and ``table_checksums``
to verify; ``engram export`` writes ``row_line``s and ``engram import`` reads them back
with ``row_from_line``. Each table goes in spec order (parents first), a page per
transaction on the target, and a page skips what the target holds already, so a copy
that was killed continues where it stopped without copying anything twice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from engram.errors import InvalidInputError
from engram.store.protocols import ImportCounts, Store
from engram.store.protocols.tables import TableCounts, TableRow
from engram.store.tables import SPECS, TABLES

#: Rows per page (and per import transaction).
BATCH = 500


def pages_of(
    store: Store, table: str, *, batch: int = BATCH, namespaces: Sequence[str] | None = None
) -> Iterator[list[TableRow]]:
    """Every row of ``table`` in ``store``, a page at a time."""
    after: tuple[Any, ...] | None = None
    while page := store.tables.export_rows(table, after=after, limit=batch, namespaces=namespaces):
        yield page
        after = page[-1].cursor


def rows_of(
    store: Store, table: str, *, batch: int = BATCH, namespaces: Sequence[str] | None = None
) -> Iterator[TableRow]:
    """Every row of ``table`` in ``store``."""
    for page in pages_of(store, table, batch=batch, namespaces=namespaces):
        yield from page


def copy_tables(source: Store, target: Store, *, batch: int = BATCH) -> dict[str, TableCounts]:
    """Copy every carried table from ``source`` into ``target``; counts per table."""
    out: dict[str, TableCounts] = {}
    for spec in TABLES:
        counts = TableCounts()
        for page in pages_of(source, spec.name, batch=batch):
            counts += target.tables.import_rows(spec.name, page)
        out[spec.name] = counts
    return out


class Checksum:
    """An order-independent checksum of a table: the sum (mod 2**256) of the SHA-256 of
    each row's canonical JSON, so both backends agree whatever order they read in."""

    def __init__(self) -> None:
        self.rows = 0
        self.total = 0

    def add(self, obj: Any) -> None:
        """Count one row, given as its canonical JSON-ready value."""
        text = json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        self.total = (self.total + int.from_bytes(digest, "big")) % (1 << 256)
        self.rows += 1

    def result(self) -> tuple[int, str]:
        """(rows, checksum as 64 hex digits)."""
        return self.rows, f"{self.total:064x}"


def table_checksums(store: Store, *, batch: int = BATCH) -> dict[str, tuple[int, str]]:
    """(rows, checksum) of every carried table."""
    out: dict[str, tuple[int, str]] = {}
    for spec in TABLES:
        checksum = Checksum()
        for row in rows_of(store, spec.name, batch=batch):
            checksum.add(row.values)
        out[spec.name] = checksum.result()
    return out


# -- JSONL lines (engram.transfer) ------------------------------------------------------
def export_row_lines(
    store: Store, write: Callable[[Mapping[str, Any]], None], namespaces: Sequence[str] | None
) -> int:
    """Write a ``row`` line per carried row (of ``namespaces``: tables without a
    namespace are left out then); returns how many."""
    written = 0
    for spec in TABLES:
        for row in rows_of(store, spec.name, namespaces=namespaces):
            write(row_line(row))
            written += 1
    return written


def row_line(row: TableRow) -> dict[str, Any]:
    """The export line of one row."""
    line: dict[str, Any] = {"kind": "row", "table": row.table, "row": row.values}
    if row.occurrence != 1:
        line["n"] = row.occurrence
    return line


def row_from_line(
    data: Mapping[str, Any], problem: Callable[[str], Exception] = InvalidInputError
) -> TableRow:
    """A ``row`` line read back; raises ``problem`` saying what is wrong with it."""
    unknown = set(data) - {"kind", "table", "row", "n"}
    if unknown:
        raise problem(f"unknown field(s) in a row line: {', '.join(sorted(unknown))}")
    table = data.get("table")
    if not isinstance(table, str) or table not in SPECS:
        raise problem(f"a row line names table {table!r}, which this engram does not carry")
    values = data.get("row")
    if not isinstance(values, dict):
        raise problem("field 'row' of a row line must be an object")
    occurrence = data.get("n", 1)
    if isinstance(occurrence, bool) or not isinstance(occurrence, int) or occurrence < 1:
        raise problem(f"field 'n' of a row line must be a positive integer, got {occurrence!r}")
    return TableRow(table, values, occurrence)


class RowImport:
    """Rows read from an export, imported a table and a page at a time (one
    transaction per page), in file order: parents before the rows pointing at them."""

    def __init__(
        self, store: Store, batch: int = BATCH, screen: Callable[[TableRow], object] | None = None
    ) -> None:
        self._store = store
        self._batch = batch
        self._screen = screen
        self._rows: list[TableRow] = []
        self._blocked: list[tuple[str, str]] = []
        self.counts = TableCounts()

    def add(self, row: TableRow) -> None:
        """Queue ``row`` (unless ``screen`` returns why not, for a table with scanned
        columns); imports the queue first when it is full or of another table."""
        if self._screen is not None and SPECS[row.table].scanned:
            verdict = self._screen(row)
            if isinstance(verdict, str):
                key = "/".join(str(row.values.get(k)) for k in SPECS[row.table].key)
                self._blocked.append((f"{row.table} {key}", verdict))
                return
        if self._rows and (len(self._rows) >= self._batch or self._rows[0].table != row.table):
            self.flush()
        self._rows.append(row)

    def flush(self) -> None:
        """Import the queued rows."""
        if self._rows:
            self.counts += self._store.tables.import_rows(self._rows[0].table, self._rows)
            self._rows.clear()

    def finish(self) -> ImportCounts:
        """Import what is left; the counts of every row so far."""
        self.flush()
        c = self.counts
        return ImportCounts(
            blocked=len(self._blocked),
            blocked_items=tuple(self._blocked),
            rows=c.inserted,
            rows_existing=c.existing,
            orphans=c.orphans,
        )

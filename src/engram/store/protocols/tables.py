"""The table-rows part of a store: every carried table (``engram.store.tables``) read and
written as canonical, backend-neutral rows, for ``migrate-store`` and export/import.

A canonical row maps column names to JSON-ready values: times as ISO 8601 text in UTC
to the microsecond, JSON columns parsed, booleans as booleans, and every column holding
another table's local id replaced by that row's natural key (a list). Local ids a
backend assigns are left out, so SQLite and PostgreSQL give the same rows for the same
data, and a row means the same thing after it moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of a carried table."""

    table: str
    values: dict[str, Any]
    """Canonical column values (see the module docstring)."""
    occurrence: int = 1
    """For a table whose key may repeat: this is the n-th row with its key (in the
    source's order). Import copies it unless the target holds n such rows already."""
    cursor: tuple[Any, ...] = field(default=(), compare=False)
    """The source's paging position (local values): pass the last one as ``after``."""


@dataclass(frozen=True, slots=True)
class TableCounts:
    """What ``TableStore.import_rows`` did."""

    inserted: int = 0
    existing: int = 0
    """Skipped: the target holds the row (its key, as many times) already."""
    orphans: int = 0
    """Skipped: a row it references (a memory, an entity ...) is not in the target."""

    def __add__(self, other: TableCounts) -> TableCounts:
        return TableCounts(
            self.inserted + other.inserted,
            self.existing + other.existing,
            self.orphans + other.orphans,
        )


@runtime_checkable
class TableStore(Protocol):
    """Read and write carried tables as canonical rows."""

    def export_rows(
        self,
        table: str,
        *,
        after: tuple[Any, ...] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TableRow]:
        """Up to ``limit`` rows after the cursor ``after`` (from the start when None),
        in a stable order, of ``namespaces`` (every row when None; a table without a
        namespace gives nothing when namespaces are named)."""
        ...

    def import_rows(self, table: str, rows: Sequence[TableRow]) -> TableCounts:
        """Insert, in one transaction, the rows the store does not hold yet; see
        ``TableRow.occurrence``. ``InvalidInputError`` for an unknown table or column."""
        ...

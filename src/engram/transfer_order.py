"""The order an import writes the rows of carried tables in, whatever order the file has.

A ``row`` line may point at a memory (a drawer, a mention), at a row of another table (a
closet link names its closet and drawer) or at a row of its own table (an org fact names
the version it supersedes). Imported in file order, a row read before what it points at
was skipped as an orphan, and only a second import added it (issue 26: the last memory
of a file was imported after the rows, so its drawer, closet link and mention were lost).
``RowSpool`` holds the row lines aside while the memories are imported, then hands them
back table by table in ``engram.store.tables.TABLES`` order (parents first); within a
table, the first occurrence of every key before the second, and a row before the rows
of its own table that point at it. So one import is complete, and a second adds nothing.

Rows are spooled to temporary files (in memory up to ``SPOOL_BYTES`` each), one per
table and occurrence, so an import of any size streams; only a table that points at
itself is sorted in memory (org facts: a few per policy).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

from engram.store.protocols import TableRow
from engram.store.tables import TABLES, TableSpec

#: Bytes of row lines one spool keeps in memory before it moves to a temporary file.
SPOOL_BYTES = 1 << 20


class RowSpool:
    """Row lines read from an export, given back parents first (see the module doc)."""

    def __init__(self) -> None:
        self._files: dict[tuple[str, int], IO[str]] = {}

    def add(self, row: TableRow) -> None:
        """Hold ``row`` until ``rows`` is read."""
        key = (row.table, row.occurrence)
        spool = self._files.get(key)
        if spool is None:
            spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed by close()
                max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline="\n"
            )
            self._files[key] = spool
        spool.write(json.dumps(row.values, ensure_ascii=False) + "\n")

    def rows(self) -> Iterator[TableRow]:
        """Every row added, table by table in ``TABLES`` order, each table's first
        occurrences of a key before its second, and so on."""
        for spec in TABLES:
            occurrences = sorted(n for table, n in self._files if table == spec.name)
            rows = (row for n in occurrences for row in self._read(spec.name, n))
            yield from (_parents_first(spec, rows) if _self_refs(spec) else rows)

    def _read(self, table: str, occurrence: int) -> Iterator[TableRow]:
        spool = self._files[(table, occurrence)]
        spool.seek(0)
        for line in spool:
            yield TableRow(table, json.loads(line), occurrence)

    def close(self) -> None:
        """Drop the spooled rows."""
        for spool in self._files.values():
            spool.close()
        self._files.clear()


def _self_refs(spec: TableSpec) -> tuple[str, ...]:
    """The columns of ``spec`` that point at a row of ``spec`` itself."""
    return tuple(ref.column for ref in spec.refs if ref.by is None and ref.table == spec.name)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _parents_first(spec: TableSpec, rows: Iterable[TableRow]) -> Iterator[TableRow]:
    """``rows`` of a table that points at itself, each after the row it points at (a
    canonical reference is the natural key of the row it names). A row whose parent is
    not among ``rows`` keeps its place: the store may hold the parent, or it is an
    orphan either way."""
    columns = _self_refs(spec)
    pending = list(rows)
    by_key = {_key([row.values.get(k) for k in spec.key]): i for i, row in enumerate(pending)}
    done: set[int] = set()
    for start in range(len(pending)):
        # Walk up to the oldest ancestor not yet given back, then give the chain back
        # from there down (iterative: a long supersedes chain needs no recursion).
        chain: list[int] = []
        at: int | None = start
        while at is not None and at not in done and at not in chain:
            chain.append(at)
            values = pending[at].values
            parents = [by_key.get(_key(values[c])) for c in columns if values.get(c) is not None]
            at = next((p for p in parents if p is not None and p not in done), None)
        for i in reversed(chain):
            done.add(i)
            yield pending[i]

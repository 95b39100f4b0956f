"""Carried tables on SQLite: the ``Dialect`` of ``engram.store.table_rows``.

Times are stored as ``codec.ts`` text, JSON as text, booleans as 0/1; a hint row, once
inserted, is also added to its namespace's FTS index (as ``hints.put`` does).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, StoreError
from engram.store.protocols.tables import TableCounts, TableRow
from engram.store.sqlite import hints
from engram.store.sqlite.db import Database
from engram.store.table_rows import TableRows, canonical_time, quote, spec_of
from engram.store.tables import Kind, TableSpec


def _schema_kind(declared: str) -> Kind:
    """The kind of a declared type; engram's own booleans and JSON are INTEGER and TEXT,
    so their specs name them (``TableSpec.kinds``)."""
    declared = declared.upper()
    if "BOOL" in declared:
        return "bool"
    if "INT" in declared:
        return "int"
    if any(t in declared for t in ("REAL", "FLOA", "DOUB")):
        return "float"
    return "text"


def parse_time(column: str, value: Any) -> datetime:
    """A canonical time, or ``InvalidInputError`` naming the column."""
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise InvalidInputError(f"column {column!r}: {value!r} is not an ISO 8601 time") from None


class SQLiteDialect:
    """SQLite's side of the table engine."""

    param = "?"

    def schema(self, conn: sqlite3.Connection, table: str) -> dict[str, Kind]:
        """Columns from ``PRAGMA table_info``."""
        rows = conn.execute(f"PRAGMA table_info({quote(table)})").fetchall()
        return {str(r[1]): _schema_kind(str(r[2] or "")) for r in rows}

    def load(self, kind: Kind, value: Any) -> Any:
        """Stored text and integers as canonical values."""
        if value is None:
            return None
        if kind == "time":
            return canonical_time(datetime.fromisoformat(value))
        if kind == "json":
            return json.loads(value)
        if kind == "bool":
            return bool(value)
        if kind == "float":
            return float(value)
        return value

    def dump(self, kind: Kind, column: str, value: Any) -> Any:
        """Canonical values as SQLite parameters."""
        if value is None:
            return None
        if kind == "time":
            return canonical_time(parse_time(column, value))
        if kind == "json":
            return json.dumps(value, ensure_ascii=False)
        if kind == "bool":
            return int(bool(value))
        return value

    def insert(
        self, conn: sqlite3.Connection, spec: TableSpec, sql: str, params: Sequence[Any]
    ) -> int | None:
        """Insert; the new rowid, or None on a conflict."""
        cur = conn.execute(sql, params)
        if cur.rowcount < 1:
            return None
        return int(cur.lastrowid or 0) if spec.local else 0

    def after_insert(
        self, conn: sqlite3.Connection, spec: TableSpec, row: Mapping[str, Any], local: int
    ) -> None:
        """Index a new hint in its namespace's hint FTS table."""
        if spec.name == "memory_hints":
            table = hints.table_for(conn, str(row["namespace"]), create=True)
            conn.execute(f"INSERT INTO {table}(rowid, hint) VALUES (?, ?)", (local, row["hint"]))


class SQLiteTables:
    """The SQLite implementation of ``TableStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._rows = TableRows(SQLiteDialect())

    def columns(self, table: str) -> tuple[str, ...]:
        """The table's canonical columns."""
        with self._db.read("reading a table's columns") as conn:
            return tuple(self._rows.columns(conn, spec_of(table)))

    def export_rows(
        self,
        table: str,
        *,
        after: tuple[Any, ...] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TableRow]:
        """One page of canonical rows."""
        spec = spec_of(table)
        with self._db.snapshot("export") as conn:
            return self._rows.export(conn, spec, after=after, limit=limit, namespaces=namespaces)

    def import_rows(self, table: str, rows: Sequence[TableRow]) -> TableCounts:
        """Insert the rows not stored yet, in one transaction."""
        spec = spec_of(table)
        try:
            with self._db.tx() as conn:
                return self._rows.import_(conn, spec, rows)
        except sqlite3.Error as exc:
            raise StoreError(f"importing {table} rows failed: {exc}") from exc

"""Carried tables on PostgreSQL: the ``Dialect`` of ``engram.store.table_rows``.

Times are ``timestamptz``, JSON columns ``json``/``jsonb`` (psycopg parses them), and
booleans real booleans; generated columns (``search`` tsvectors) are left out of the
schema, the database computes them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from engram.errors import InvalidInputError
from engram.store.postgres.db import Database
from engram.store.protocols.tables import TableCounts, TableRow
from engram.store.table_rows import TableRows, canonical_time, spec_of
from engram.store.tables import Kind, TableSpec

_KINDS: dict[str, Kind] = {
    "smallint": "int",
    "integer": "int",
    "bigint": "int",
    "real": "float",
    "double precision": "float",
    "numeric": "float",
    "boolean": "bool",
    "json": "json",
    "jsonb": "json",
    "timestamp with time zone": "time",
    "timestamp without time zone": "time",
}


class PgDialect:
    """PostgreSQL's side of the table engine."""

    param = "%s"

    def schema(self, conn: psycopg.Connection[Any], table: str) -> dict[str, Kind]:
        """Stored (not generated) columns from ``information_schema``."""
        rows = conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s "
            "AND is_generated = 'NEVER' ORDER BY ordinal_position",
            (table,),
        ).fetchall()
        return {str(r[0]): _KINDS.get(str(r[1]), "text") for r in rows}

    def load(self, kind: Kind, value: Any) -> Any:
        """Driver values as canonical values."""
        if value is None:
            return None
        if kind == "time":
            return canonical_time(value)
        if kind == "bool":
            return bool(value)
        if kind == "float":
            return float(value)
        return value

    def dump(self, kind: Kind, column: str, value: Any) -> Any:
        """Canonical values as driver parameters."""
        if value is None:
            return None
        if kind == "time":
            try:
                parsed = datetime.fromisoformat(str(value))
            except ValueError:
                raise InvalidInputError(
                    f"column {column!r}: {value!r} is not an ISO 8601 time"
                ) from None
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        if kind == "json":
            return Jsonb(value)
        if kind == "bool":
            return bool(value)
        return value

    def insert(
        self, conn: psycopg.Connection[Any], spec: TableSpec, sql: str, params: Sequence[Any]
    ) -> int | None:
        """Insert; the new local id (0 without one), or None on a conflict."""
        if spec.local is None:
            return 0 if conn.execute(sql, params).rowcount > 0 else None
        found = conn.execute(f'{sql} RETURNING "{spec.local}"', params).fetchone()
        return None if found is None else int(found[0])

    def after_insert(
        self, conn: psycopg.Connection[Any], spec: TableSpec, row: Mapping[str, Any], local: int
    ) -> None:
        """Nothing: PostgreSQL's indexes and generated columns keep themselves."""


class PgTables:
    """The PostgreSQL implementation of ``TableStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._rows = TableRows(PgDialect())

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
        with self._db.tx(f"importing {table} rows") as conn:
            return self._rows.import_(conn, spec, rows)

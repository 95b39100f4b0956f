"""Carried tables: export and import of every table a ``TableSpec`` describes.

One engine turns a spec into SQL on either backend: paging, natural keys, occurrences
and references. Identifiers are quoted, so columns named like keywords (``trigger``)
need nothing special. What differs is small: how the schema is read (``PRAGMA
table_info`` on SQLite; ``information_schema``, generated ``search`` tsvectors left out,
on PostgreSQL), how a kind is stored (the dialect's time and JSON codecs; SQLite's
booleans are 0/1) and the upkeep of a new row SQLite's hint FTS needs (``after_insert``,
which the SQLite backend provides).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError
from engram.store.protocols import TableStore
from engram.store.protocols.tables import TableCounts, TableRow
from engram.store.sql.dialect import Conn, Dialect, first_int, utc
from engram.store.sql.session import Sql, SqlPart
from engram.store.tables import SPECS, Kind, TableSpec

#: A backend's upkeep of a row an import has just inserted (its local id, 0 without).
AfterInsert = Callable[[Conn, TableSpec, Mapping[str, Any], int], None]

#: PostgreSQL's column types as kinds; engram's own booleans and JSON on SQLite are
#: INTEGER and TEXT, so their specs name them (``TableSpec.kinds``).
_PG_KINDS: dict[str, Kind] = {
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


def spec_of(table: str) -> TableSpec:
    """The spec of ``table``, or ``InvalidInputError`` naming the carried tables."""
    spec = SPECS.get(table)
    if spec is None:
        raise InvalidInputError(
            f"{table!r} is not a carried table; carried: {', '.join(sorted(SPECS))}"
        )
    return spec


def canonical_time(value: datetime) -> str:
    """A time's canonical text: ISO 8601 in UTC to the microsecond (naive is UTC), the
    shape SQLite stores."""
    return utc(value).isoformat(timespec="microseconds")


def quote(name: str) -> str:
    """A quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _sqlite_kind(declared: str) -> Kind:
    """The kind of a column type SQLite declares."""
    declared = declared.upper()
    if "BOOL" in declared:
        return "bool"
    if "INT" in declared:
        return "int"
    if any(t in declared for t in ("REAL", "FLOA", "DOUB")):
        return "float"
    return "text"


def _schema(conn: Conn, d: Dialect, table: str) -> dict[str, Kind]:
    """The table's stored columns and the kind the schema gives each (generated columns
    left out); empty when the table does not exist."""
    if d.name == "sqlite":
        rows = conn.execute(f"PRAGMA table_info({quote(table)})").fetchall()
        return {str(r[1]): _sqlite_kind(str(r[2] or "")) for r in rows}
    rows = conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = ? "
        "AND is_generated = 'NEVER' ORDER BY ordinal_position",
        (table,),
    ).fetchall()
    return {str(r[0]): _PG_KINDS.get(str(r[1]), "text") for r in rows}


def _load(d: Dialect, kind: Kind, value: Any) -> Any:
    """A stored value as its canonical form."""
    if value is None:
        return None
    if kind == "time":
        return canonical_time(d.time(value))
    if kind == "json":
        return d.loads(value)
    if kind == "bool":
        return bool(value)
    if kind == "float":
        return float(value)
    return value


def _dump(d: Dialect, kind: Kind, column: str, value: Any) -> Any:
    """A canonical value as the parameter to store (a JSON value as text: see
    ``_mark``); a bool binds as 0/1 on SQLite."""
    if value is None:
        return None
    if kind == "time":
        try:
            parsed = datetime.fromisoformat(str(value))
        except ValueError:
            raise InvalidInputError(
                f"column {column!r}: {value!r} is not an ISO 8601 time"
            ) from None
        return d.ts(parsed)
    if kind == "json":
        return d.dumps(value)
    if kind == "bool":
        return bool(value)
    return value


def _mark(d: Dialect, kind: Kind) -> str:
    """The placeholder of a value of ``kind``. PostgreSQL casts JSON text to ``jsonb``
    whatever the column (``json``, ``jsonb`` or text): the value a ``json`` column then
    holds is jsonb's normalized text, as when the import sent psycopg's ``Jsonb``."""
    return "?::jsonb" if kind == "json" and d.name == "postgres" else "?"


class SqlTables(SqlPart, TableStore):
    """``TableStore`` on either engine."""

    def __init__(self, sql: Sql, after_insert: AfterInsert | None = None) -> None:
        super().__init__(sql)
        self._after_insert = after_insert
        self._schemas: dict[str, dict[str, Kind]] = {}

    def export_rows(
        self,
        table: str,
        *,
        after: tuple[Any, ...] | None,
        limit: int,
        namespaces: Sequence[str] | None = None,
    ) -> list[TableRow]:
        spec = spec_of(table)
        with self._sql.snapshot("export") as conn:
            return self._export(conn, spec, after=after, limit=limit, namespaces=namespaces)

    def import_rows(self, table: str, rows: Sequence[TableRow]) -> TableCounts:
        spec = spec_of(table)
        with self._sql.tx(f"importing {table} rows") as conn:
            return self._import(conn, spec, rows)

    # -- schema -----------------------------------------------------------------------
    def _columns(self, conn: Conn, spec: TableSpec) -> dict[str, Kind]:
        """Canonical columns of ``spec`` and their kinds (cached per store)."""
        if spec.name not in self._schemas:
            stored = _schema(conn, self._d, spec.name)
            out: dict[str, Kind] = {}
            for column, kind in stored.items():
                if column == spec.local:
                    continue
                if column in spec.kinds:
                    kind = spec.kinds[column]
                elif column == "at" or column.endswith("_at"):
                    kind = "time"
                out[column] = kind
            self._schemas[spec.name] = out
        return self._schemas[spec.name]

    # -- export -----------------------------------------------------------------------
    def _export(
        self,
        conn: Conn,
        spec: TableSpec,
        *,
        after: tuple[Any, ...] | None,
        limit: int,
        namespaces: Sequence[str] | None,
    ) -> list[TableRow]:
        """One page of ``spec``'s rows as canonical ``TableRow``s."""
        columns = self._columns(conn, spec)
        if not columns:
            return []
        where: list[str] = []
        params: list[Any] = []
        if after is not None:
            order = ", ".join(f"r.{quote(c)}" for c in spec.order)
            where.append(f"({order}) > ({self._d.marks(len(after))})")
            params.extend(after)
        if namespaces is not None:
            if spec.scope == "global" or not namespaces:
                return []
            marks = self._d.marks(len(namespaces))
            if spec.scope == "namespace":
                where.append(f"r.namespace IN ({marks})")
            else:
                assert spec.parent is not None
                col, parent, parent_col = (quote(x) for x in spec.parent)
                where.append(
                    f"r.{col} IN (SELECT {parent_col} FROM {parent} WHERE namespace IN ({marks}))"
                )
            params.extend(namespaces)
        names = list(columns)
        select = [f"r.{quote(c)}" for c in (*spec.order, *names)]
        if spec.repeats:  # a log's key columns are NOT NULL: plain, indexable equality
            assert spec.local is not None
            same = " AND ".join(f"e.{quote(k)} = r.{quote(k)}" for k in spec.key)
            local = quote(spec.local)
            select.append(
                f"(SELECT COUNT(*) FROM {quote(spec.name)} AS e "
                f"WHERE {same} AND e.{local} < r.{local}) + 1"
            )
        sql = (
            f"SELECT {', '.join(select)} FROM {quote(spec.name)} AS r"
            + (" WHERE " + " AND ".join(where) if where else "")
            + f" ORDER BY {', '.join(f'r.{quote(c)}' for c in spec.order)} LIMIT ?"
        )
        params.append(limit)
        keys: dict[tuple[str, Any], list[Any] | None] = {}
        out: list[TableRow] = []
        width = len(spec.order)
        for raw in conn.execute(sql, params).fetchall():
            local_row = dict(zip(names, raw[width : width + len(names)], strict=True))
            values = {c: self._canonical(conn, spec, c, columns[c], local_row, keys) for c in names}
            occurrence = int(raw[-1]) if spec.repeats else 1
            out.append(TableRow(spec.name, values, occurrence, tuple(raw[:width])))
        return out

    def _canonical(
        self,
        conn: Conn,
        spec: TableSpec,
        column: str,
        kind: Kind,
        row: Mapping[str, Any],
        keys: dict[tuple[str, Any], list[Any] | None],
    ) -> Any:
        value = row[column]
        ref = spec.ref(column)
        target = ref.target(row) if ref is not None else None
        if target is None or value is None:
            return _load(self._d, kind, value)
        return self._key_of(conn, target, value, keys)

    def _key_of(
        self, conn: Conn, table: str, local: Any, keys: dict[tuple[str, Any], list[Any] | None]
    ) -> list[Any] | None:
        """The natural key of ``table``'s row with local id ``local`` (None: gone)."""
        if (table, local) in keys:
            return keys[(table, local)]
        spec = SPECS[table]
        assert spec.local is not None, f"{table} has no local id to reference"
        columns = self._columns(conn, spec)
        cols = ", ".join(quote(k) for k in spec.key)
        found = conn.execute(
            f"SELECT {cols} FROM {quote(table)} WHERE {quote(spec.local)} = ?",
            (local,),
        ).fetchone()
        key = None
        if found is not None:
            row = dict(zip(spec.key, found, strict=True))
            key = [self._canonical(conn, spec, k, columns[k], row, keys) for k in spec.key]
        keys[(table, local)] = key
        return key

    # -- import -----------------------------------------------------------------------
    def _import(self, conn: Conn, spec: TableSpec, rows: Sequence[TableRow]) -> TableCounts:
        """Insert the ``rows`` the store lacks, inside the caller's transaction."""
        columns = self._columns(conn, spec)
        ids: dict[str, int] = {}
        counts = TableCounts()
        for row in rows:
            unknown = set(row.values) - set(columns)
            if unknown:
                raise InvalidInputError(
                    f"a {spec.name} row has column(s) this store does not know: "
                    f"{', '.join(sorted(unknown))}; upgrade engram to import it"
                )
            local = self._local_row(conn, spec, row.values, columns, ids)
            if local is None or not self._memories_present(conn, spec, local):
                counts += TableCounts(orphans=1)
                continue
            if self._count(conn, spec, local) >= row.occurrence:
                counts += TableCounts(existing=1)
                continue
            names = list(local)
            sql = (
                f"INSERT INTO {quote(spec.name)} ({', '.join(quote(c) for c in names)}) "
                f"VALUES ({', '.join(_mark(self._d, columns[c]) for c in names)}) "
                "ON CONFLICT DO NOTHING"
            )
            new = self._insert(conn, spec, sql, [local[c] for c in names])
            if new is None:
                counts += TableCounts(existing=1)
                continue
            if self._after_insert is not None:
                self._after_insert(conn, spec, local, new)
            counts += TableCounts(inserted=1)
        return counts

    def _local_row(
        self,
        conn: Conn,
        spec: TableSpec,
        values: Mapping[str, Any],
        columns: Mapping[str, Kind],
        ids: dict[str, int],
    ) -> dict[str, Any] | None:
        """The row's stored values, its references resolved; None when one is missing."""
        out: dict[str, Any] = {}
        for column, value in values.items():
            ref = spec.ref(column)
            target = ref.target(values) if ref is not None else None
            if target is None or value is None:
                out[column] = _dump(self._d, columns[column], column, value)
                continue
            local = self._id_of(conn, target, value, ids)
            if local is None:
                return None
            out[column] = local
        return out

    def _id_of(self, conn: Conn, table: str, key: Any, ids: dict[str, int]) -> int | None:
        """The local id of ``table``'s row with natural key ``key`` (None: not stored)."""
        spec = SPECS[table]
        if not isinstance(key, list) or len(key) != len(spec.key):
            raise InvalidInputError(
                f"a reference to {table} must be its key {list(spec.key)}, got {key!r}"
            )
        cache = f"{table}\0{json.dumps(key, sort_keys=True)}"
        if cache in ids:
            return ids[cache]
        values = dict(zip(spec.key, key, strict=True))
        local = self._local_row(conn, spec, values, self._columns(conn, spec), ids)
        if local is None:
            return None
        assert spec.local is not None
        where, params = self._where(spec, local)
        found = conn.execute(
            f"SELECT {quote(spec.local)} FROM {quote(table)} WHERE {where} "
            f"ORDER BY {quote(spec.local)} LIMIT 1",
            params,
        ).fetchone()
        if found is None:
            return None  # not cached: a later row of this import may insert it
        ids[cache] = int(found[0])
        return ids[cache]

    def _where(self, spec: TableSpec, local: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """``spec``'s key equal to ``local``'s values: ``=`` (which indexes serve on
        both backends, unlike ``IS NOT DISTINCT FROM``), ``IS NULL`` for a None."""
        terms: list[str] = []
        params: list[Any] = []
        for k in spec.key:
            if local.get(k) is None:
                terms.append(f"{quote(k)} IS NULL")
            else:
                terms.append(f"{quote(k)} = ?")
                params.append(local[k])
        return " AND ".join(terms), params

    def _count(self, conn: Conn, spec: TableSpec, local: Mapping[str, Any]) -> int:
        where, params = self._where(spec, local)
        return first_int(conn, f"SELECT COUNT(*) FROM {quote(spec.name)} WHERE {where}", params)

    def _memories_present(self, conn: Conn, spec: TableSpec, local: Mapping[str, Any]) -> bool:
        for column in spec.memory_ids:
            memory_id = local.get(column)
            if memory_id is not None and (
                conn.execute("SELECT 1 FROM memories WHERE id = ?", (memory_id,)).fetchone() is None
            ):
                return False
        return True

    @staticmethod
    def _insert(conn: Conn, spec: TableSpec, sql: str, params: Sequence[Any]) -> int | None:
        """Run the ``INSERT ... ON CONFLICT DO NOTHING`` ``sql``; the new row's local id
        (0 for a table without one), or None when nothing was inserted."""
        if spec.local is None:
            return 0 if conn.execute(sql, params).rowcount > 0 else None
        found = conn.execute(f"{sql} RETURNING {quote(spec.local)}", params).fetchone()
        return None if found is None else int(found[0])

"""What a database's schema and rows are, as plain JSON-able data, on either engine.

Used by tests/test_migrations_shared.py and by scripts/snapshot_old_schema.py, which
runs it under the engram of commit 377cb58 (the last with one migration list per
backend) to write tests/data/schema_377cb58.json and the old databases in
tests/data/old_db/. It imports nothing from engram, so it runs under either.

A schema is a flat dict, ``"<kind> <name>" -> value``, so two of them compare entry by
entry and a step's change is a small delta (:func:`delta`, :func:`apply`). SQL text is
compared with its whitespace collapsed.

- SQLite: every ``sqlite_master`` entry (table, rowid: the order they were made in,
  SQL), and per table ``PRAGMA table_info``, ``index_list`` with ``index_info`` of each
  index, and ``foreign_key_list``.
- PostgreSQL: tables, ``information_schema.columns``, ``pg_indexes.indexdef``,
  constraints, triggers, the functions engram made (``pg_get_functiondef``), text
  search configurations and dictionaries, extensions and sequences.

Row checksums (:func:`sqlite_rows`, :func:`pg_rows`) hash every table's rows in an
order-free way (sorted row texts): ``"<count>:<sha256 prefix>"`` per table.
``schema_migrations`` counts by name only (``applied_at`` is the time it ran).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

Schema = dict[str, Any]


def ws(sql: str | None) -> str | None:
    """SQL text with every run of whitespace as one space."""
    return None if sql is None else " ".join(sql.split())


def _digest(texts: list[str]) -> str:
    texts.sort()
    sha = hashlib.sha256("\n".join(texts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{len(texts)}:{sha[:24]}"


def delta(before: Schema, after: Schema) -> dict[str, Any]:
    """What turns ``before`` into ``after``: entries set (new or changed) and dropped."""
    return {
        "set": {k: v for k, v in sorted(after.items()) if k not in before or before[k] != v},
        "drop": sorted(before.keys() - after.keys()),
    }


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with one line per schema entry (a list or a scalar stays on its line), so a
    snapshot diffs entry by entry."""
    if isinstance(value, dict) and value:
        pad = " " * (indent + 1)
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in sorted(value.items())]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        pad = " " * (indent + 1)
        items = [pad + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def apply(base: Schema, change: dict[str, Any]) -> Schema:
    """``base`` with ``change`` (from :func:`delta`) applied."""
    out = {k: v for k, v in base.items() if k not in set(change["drop"])}
    out.update(change["set"])
    return out


# -- SQLite ----------------------------------------------------------------------------


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def sqlite_schema(conn: sqlite3.Connection) -> Schema:
    """Every object of the database and what SQLite reports about each table."""
    out: Schema = {}
    objects = conn.execute("SELECT type, name, tbl_name, sql, rowid FROM sqlite_master")
    for kind, name, table, sql, rowid in objects.fetchall():
        # the rowid keeps the order objects were made in (SQLite lists them so)
        out[f"{kind} {name}"] = [table, rowid, ws(sql)]
        if kind != "table":
            continue
        q = _quote(name)
        out[f"columns {name}"] = [list(r) for r in conn.execute(f"PRAGMA table_info({q})")]
        indexes = [list(r) for r in conn.execute(f"PRAGMA index_list({q})")]
        out[f"indexes {name}"] = indexes
        for index in indexes:
            info = conn.execute(f"PRAGMA index_info({_quote(index[1])})").fetchall()
            out[f"index_columns {name}.{index[1]}"] = [list(r) for r in info]
        fks = [list(r) for r in conn.execute(f"PRAGMA foreign_key_list({q})")]
        if fks:
            out[f"foreign_keys {name}"] = fks
    return out


def unordered(schema: Schema) -> Schema:
    """``schema`` without the order SQLite made its objects in: an upgraded database
    made them in another order than a new one, which changes nothing it does."""
    return {k: [v[0], None, v[2]] if k.split()[0] in _OBJECTS else v for k, v in schema.items()}


_OBJECTS = {"table", "index", "trigger", "view"}


def sqlite_rows(conn: sqlite3.Connection) -> dict[str, str]:
    """A checksum of every real table's rows (FTS5 shadow tables included, the virtual
    tables themselves left out: they read their content from elsewhere)."""
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name"
        )
    ]
    out: dict[str, str] = {}
    for table in tables:
        what = "name" if table == "schema_migrations" else "*"
        rows = conn.execute(f"SELECT {what} FROM {_quote(table)}").fetchall()
        out[table] = _digest([repr(tuple(r)) for r in rows])
    return out


def gzip_file(source: Path, target: Path) -> None:
    """``source`` compressed to ``target`` (no file name or time in the header, so the
    same database gives the same bytes)."""
    with (
        source.open("rb") as fin,
        target.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as fout,
    ):
        shutil.copyfileobj(fin, fout)


def gunzip_file(source: Path, target: Path) -> None:
    """An old database from tests/data/old_db, unpacked to ``target``."""
    with gzip.open(source, "rb") as fin, target.open("wb") as fout:
        shutil.copyfileobj(fin, fout)


# -- PostgreSQL ------------------------------------------------------------------------

_PG_QUERIES: dict[str, str] = {
    "table": (
        "SELECT relname, relkind::text FROM pg_class "
        "WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p', 'v', 'm')"
    ),
    "column": (
        "SELECT table_name || '.' || column_name, ordinal_position, column_default, "
        "is_nullable, udt_name, collation_name, identity_generation, generation_expression "
        "FROM information_schema.columns WHERE table_schema = current_schema()"
    ),
    "index": (
        "SELECT indexname, tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
    ),
    "constraint": (
        "SELECT conrelid::regclass::text || '.' || conname, contype::text, "
        "pg_get_constraintdef(oid), condeferrable, condeferred, convalidated "
        "FROM pg_constraint WHERE connamespace = current_schema()::regnamespace "
        "AND conrelid <> 0"
    ),
    "trigger": (
        "SELECT t.tgrelid::regclass::text || '.' || t.tgname, pg_get_triggerdef(t.oid), "
        "t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
        "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"
    ),
    # Functions engram made (pgvector's own belong to its extension).
    "function": (
        "SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid) FROM pg_proc p "
        "WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind = 'f' "
        "AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass "
        "AND d.objid = p.oid AND d.deptype = 'e')"
    ),
    "ts_dictionary": (
        "SELECT dictname, dicttemplate::regproc::text, dictinitoption FROM pg_ts_dict "
        "WHERE dictnamespace = current_schema()::regnamespace"
    ),
    "ts_configuration": (
        "SELECT c.cfgname, string_agg(t.alias || ':' || m.mapseqno || ':' || "
        "m.mapdict::regdictionary::text, ' ' ORDER BY t.alias, m.mapseqno) "
        "FROM pg_ts_config c JOIN pg_ts_config_map m ON m.mapcfg = c.oid "
        "JOIN ts_token_type(c.cfgparser) t ON t.tokid = m.maptokentype "
        "WHERE c.cfgnamespace = current_schema()::regnamespace GROUP BY c.cfgname"
    ),
    "extension": "SELECT extname, extnamespace::regnamespace::text FROM pg_extension",
    "sequence": (
        "SELECT sequencename, data_type::text, start_value, min_value, max_value, "
        "increment_by, cycle FROM pg_sequences WHERE schemaname = current_schema()"
    ),
}


def _jsonable(value: Any) -> Any:
    if isinstance(value, str):
        return ws(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)


def pg_schema(conn: Any) -> Schema:
    """Every object engram's migrations make in the current schema (``conn``: psycopg)."""
    out: Schema = {}
    for kind, query in _PG_QUERIES.items():
        for row in conn.execute(query).fetchall():
            out[f"{kind} {row[0]}"] = [_jsonable(v) for v in row[1:]]
    return out


def pg_rows(conn: Any) -> dict[str, str]:
    """A checksum of every table's rows (as PostgreSQL writes a row as text, times in
    UTC), and each sequence's position."""
    conn.execute("SET TIME ZONE 'UTC'")
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
        )
    ]
    out: dict[str, str] = {}
    for table in tables:
        what = "name" if table == "schema_migrations" else "t::text"
        rows = conn.execute(f"SELECT {what} FROM {_quote(table)} AS t").fetchall()
        out[table] = _digest([str(r[0]) for r in rows])
    for name, last in conn.execute(
        "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = current_schema()"
    ).fetchall():
        out[f"sequence {name}"] = str(last)
    return out


def pg_restore(conn: Any, dump: str) -> None:
    """Run a plain ``pg_dump`` script (``--inserts``) on ``conn`` (autocommit, an empty
    database); psql's backslash commands (``\\restrict``) are left out. The script
    empties the session's ``search_path``: close ``conn`` afterwards."""
    script = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
    conn.execute(script)

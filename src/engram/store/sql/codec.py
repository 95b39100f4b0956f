"""How a ``MemoryRecord`` is stored in a ``memories`` row and read back, on either engine.

The column list comes from ``engram.store.schema``; times and JSON go through the
dialect (text on SQLite, ``timestamptz``/``json`` on PostgreSQL), so a record leaves
and enters the database the same way on every path: the store, its bulk copy and its
history rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engram.records import HistoryEntry, MemoryCategory, MemoryRecord, MemoryType
from engram.store.schema import JSON_FIELDS, MEMORY_COLUMNS, TIME_FIELDS
from engram.store.sql.dialect import Dialect, dumps
from engram.store.sql.rows import columns

COLUMNS = MEMORY_COLUMNS
SELECT = "SELECT " + ", ".join(f"m.{c}" for c in COLUMNS) + " FROM memories m"
HISTORY_COLUMNS = columns(HistoryEntry)
_ENUMS = frozenset({"type", "category"})


def insert_sql(d: Dialect) -> str:
    """``INSERT INTO memories`` with every column, JSON columns as ``d.json``."""
    marks = ", ".join(d.json if c in JSON_FIELDS else "?" for c in COLUMNS)
    return f"INSERT INTO memories ({', '.join(COLUMNS)}) VALUES ({marks})"


def encode(d: Dialect, column: str, value: Any) -> Any:
    """One field as its column's parameter."""
    if column in JSON_FIELDS:
        return dumps(value)
    if column in TIME_FIELDS:
        return d.ts_or_none(value)
    if column in _ENUMS and value is not None:
        return str(value)
    return d.text(value, column)


def _enum(value: Any) -> Any:
    return None if value is None else str(value)


def _plan(d: Dialect) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Per column of ``COLUMNS``: the field and its encoder (the same answers as
    ``encode``), None where the value goes as it is (a plain column on an engine that
    stores any text). Built once per dialect: ``to_row`` runs for every memory written,
    so it does no per-column dispatch."""
    plan: list[tuple[str, Callable[[Any], Any] | None]] = []
    for column in COLUMNS:
        if column == "normalized":  # not a record field: ``to_row`` passes it in
            plan.append((column, None))
        elif column in JSON_FIELDS:
            plan.append((column, dumps))
        elif column in TIME_FIELDS:
            plan.append((column, d.ts_or_none))
        elif column in _ENUMS:
            plan.append((column, _enum))
        elif d.name == "sqlite":  # SQLite stores any text: the value as it is
            plan.append((column, None))
        else:
            plan.append((column, partial(d.text, what=column)))
    return tuple(plan)


_PLANS: dict[str, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def to_row(d: Dialect, record: MemoryRecord, normalized: str) -> tuple[Any, ...]:
    """The parameters of ``insert_sql`` for ``record``."""
    plan = _PLANS.get(d.name)
    if plan is None:
        plan = _PLANS[d.name] = _plan(d)
    values: list[Any] = []
    append = values.append
    for column, enc in plan:
        if enc is None:
            append(normalized if column == "normalized" else getattr(record, column))
        else:
            append(enc(getattr(record, column)))
    return tuple(values)


def _items(d: Dialect, value: Any) -> tuple[Any, ...]:
    """A JSON list column as a tuple; SQLite's text of an empty list (most memories'
    facts and tags) without the parser."""
    return () if value == "[]" else tuple(d.loads(value))


#: Where ``SELECT``'s row holds the columns ``from_row`` decodes. ``COLUMNS`` are the
#: record's fields in order with ``normalized`` among them (``schema.MEMORY_COLUMNS``).
_NORMALIZED = COLUMNS.index("normalized")
_FACTS, _TAGS, _METADATA = (COLUMNS.index(c) for c in ("facts", "tags", "metadata"))
_TYPE, _CATEGORY = COLUMNS.index("type"), COLUMNS.index("category")
_TIMES = tuple(COLUMNS.index(c) for c in sorted(TIME_FIELDS))


def from_row(d: Dialect, row: Sequence[Any]) -> MemoryRecord:
    """The record of a row selected with ``SELECT``: the row's values decoded in place
    and passed in order (a dict of the row by column name cost as much as the rest;
    recall decodes its pool's dozen rows a question: docs/benchmarks.md, "The fuse
    stage's cold reads")."""
    values = list(row)
    if len(values) != len(COLUMNS):
        raise ValueError(f"a memory row has {len(COLUMNS)} columns, not {len(values)}")
    values[_FACTS] = _items(d, values[_FACTS])
    values[_TAGS] = _items(d, values[_TAGS])
    metadata = values[_METADATA]
    values[_METADATA] = {} if metadata == "{}" else d.loads(metadata)
    values[_TYPE] = MemoryType(values[_TYPE])
    category = values[_CATEGORY]
    values[_CATEGORY] = MemoryCategory(category) if category else None
    for at in _TIMES:
        if values[at] is not None:
            values[at] = d.time(values[at])
    del values[_NORMALIZED]
    return MemoryRecord(*values)


def audit(record: MemoryRecord | None) -> str | None:
    """A record as the JSON text of a history row's ``before``/``after``."""
    return None if record is None else dumps(record.to_dict())

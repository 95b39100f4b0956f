"""Rows into the protocols' records, read off each record's dataclass fields.

A record's fields, in order, are the columns a concern selects for it (``columns``), and
each field's type says how its column is read back: times through the dialect, JSON
columns (dicts, lists, tuples) parsed, numbers, flags and enums converted (SQLite hands
back 0/1 for a boolean), text as it is; ``None`` stays ``None`` where the field allows
it. A field read some other way (a join's aggregate, a nested record) gets its own
reader from the caller.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar

from engram.errors import InvalidInputError, NotFoundError
from engram.store.sql.dialect import Conn, Dialect

R = TypeVar("R")
Reader = Callable[[Any], Any]
_PLANS: dict[tuple[str, type], tuple[tuple[str, Reader | None], ...]] = {}


def columns(cls: type, prefix: str = "") -> str:
    """The record's fields as a column list (``prefix`` before each: ``"t."``)."""
    return ", ".join(prefix + f.name for f in dataclasses.fields(cls))


def upsert(
    d: Dialect,
    table: str,
    cols: str,
    key: str,
    *,
    json: Sequence[str] = (),
    kept: Sequence[str] = (),
) -> str:
    """SQL: an ``INSERT`` of every column of ``cols`` (bound as ``d.json`` for those in
    ``json``) that, on a row already holding ``key`` (its unique columns), sets every
    column but the key's and ``kept``'s to the new value."""
    names = cols.split(", ")
    fixed = {*key.split(", "), *kept}
    marks = ", ".join(d.json if n in json else "?" for n in names)
    changes = ", ".join(f"{n} = excluded.{n}" for n in names if n not in fixed)
    return (
        f"INSERT INTO {table}({cols}) VALUES ({marks}) ON CONFLICT ({key}) DO UPDATE SET {changes}"
    )


def _optional(read: Reader) -> Reader:
    return lambda value: None if value is None else read(value)


def _reader(d: Dialect, hint: Any) -> Reader | None:
    """How a column of type ``hint`` is read; None: as it comes."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        read = _reader(d, inner[0]) if len(inner) == 1 else None
        return None if read is None else _optional(read)
    origin = typing.get_origin(hint) or hint
    if origin is datetime:
        return d.time
    if origin in (dict, Mapping, tuple, list):
        make = dict if origin is Mapping else origin
        return lambda value: None if (data := d.loads(value)) is None else make(data)
    if origin in (bool, int, float) or (isinstance(origin, type) and issubclass(origin, Enum)):
        return typing.cast(Reader, origin)
    return None


def _plan(d: Dialect, cls: type) -> tuple[tuple[str, Reader | None], ...]:
    plan = _PLANS.get((d.name, cls))
    if plan is None:
        hints = typing.get_type_hints(cls)
        plan = tuple((f.name, _reader(d, hints[f.name])) for f in dataclasses.fields(cls))
        _PLANS[(d.name, cls)] = plan
    return plan


def record(d: Dialect, cls: type[R], row: Sequence[Any], **readers: Reader) -> R:
    """The ``cls`` record of a row selected with ``columns(cls)``; ``readers``: fields
    read another way (each given its column's value)."""
    plan = _plan(d, cls)
    if readers:
        plan = tuple((name, readers.get(name, read)) for name, read in plan)
    return cls(*(v if read is None else read(v) for v, (_, read) in zip(row, plan, strict=False)))


def found(conn: Conn, sql: str, params: Sequence[Any], missing: str) -> Any:
    """The first row of ``sql`` on ``conn``; ``NotFoundError`` saying ``missing``
    without one."""
    row = conn.execute(sql, params).fetchone()
    if row is None:
        raise NotFoundError(missing)
    return row


def equal(**columns: Any) -> tuple[str, list[Any]]:
    """A WHERE condition (``TRUE`` when empty) that each column given a value other
    than None equals it, and its parameters: a list call's optional filters."""
    given = {column: value for column, value in columns.items() if value is not None}
    return " AND ".join(f"{column} = ?" for column in given) or "TRUE", list(given.values())


def checked(value: str | None, allowed: Sequence[str], what: str) -> str | None:
    """``value`` (None passes), or ``InvalidInputError`` naming the ``allowed`` ones."""
    if value is not None and value not in allowed:
        raise InvalidInputError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")
    return value

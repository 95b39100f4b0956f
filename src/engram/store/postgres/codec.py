"""Turning ``MemoryRecord`` and friends into PostgreSQL parameters and back.

The column list, JSON spelling and NUL rule are shared by the store and its bulk copy,
so a record leaves and enters the database the same way on every path.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt
from pgvector import Vector

from engram.errors import InvalidInputError
from engram.records import HistoryEntry, MemoryCategory, MemoryRecord, MemoryType
from engram.store.schema import JSON_FIELDS, MEMORY_COLUMNS

COLUMNS = MEMORY_COLUMNS
SELECT = "SELECT " + ", ".join(f"m.{c}" for c in COLUMNS) + " FROM memories m"
#: ``%s`` per column, cast to ``json`` where the column is JSON.
PLACEHOLDERS = ", ".join("%s::json" if c in JSON_FIELDS else "%s" for c in COLUMNS)
INSERT = f"INSERT INTO memories ({', '.join(COLUMNS)}) VALUES ({PLACEHOLDERS})"
HISTORY_COLUMNS = "id, memory_id, namespace, event, before, after, actor, reason, created_at"


def dumps(value: Any) -> str:
    """JSON text exactly as the SQLite store writes it."""
    return json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)


def utc(value: datetime) -> datetime:
    """An aware UTC datetime (naive values are taken as UTC, as SQLite's codec does)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def iso(value: datetime) -> str:
    """The ISO 8601 text SQLite stores (feedback rows return it as is)."""
    return utc(value).isoformat(timespec="microseconds")


def check_text(value: Any, what: str) -> Any:
    """PostgreSQL ``text`` cannot hold U+0000: refuse it with a clear message."""
    if isinstance(value, str) and "\x00" in value:
        raise InvalidInputError(
            f"{what} contains a NUL character (U+0000), which PostgreSQL cannot store; remove it"
        )
    return value


def encode(column: str, value: Any) -> Any:
    """One column's parameter."""
    if column in JSON_FIELDS:
        return dumps(value)
    if isinstance(value, datetime):
        return utc(value)
    if column in {"type", "category"} and value is not None:
        return str(value)
    return check_text(value, column)


def to_row(record: MemoryRecord, normalized: str) -> tuple[Any, ...]:
    """Parameters for ``INSERT``, in ``COLUMNS`` order."""
    values: list[Any] = []
    for column in COLUMNS:
        if column == "normalized":
            values.append(normalized)
        else:
            values.append(encode(column, getattr(record, column)))
    return tuple(values)


def from_row(row: Sequence[Any]) -> MemoryRecord:
    """A record from a ``SELECT`` row (psycopg has already parsed JSON and timestamps)."""
    data = dict(zip(COLUMNS, row, strict=True))
    data.pop("normalized")
    data["facts"] = tuple(data["facts"])
    data["tags"] = tuple(data["tags"])
    data["type"] = MemoryType(data["type"])
    data["category"] = MemoryCategory(data["category"]) if data["category"] else None
    for name in ("created_at", "updated_at", "deleted_at"):
        if data[name] is not None:
            data[name] = utc(data[name])
    return MemoryRecord(**data)


def audit(record: MemoryRecord | None) -> str | None:
    """A history ``before``/``after`` value."""
    return None if record is None else json.dumps(record.to_dict(), ensure_ascii=False)


def history_from_row(r: Sequence[Any]) -> HistoryEntry:
    """A ``HistoryEntry`` from a row of ``HISTORY_COLUMNS``."""
    return HistoryEntry(
        id=int(r[0]),
        memory_id=r[1],
        namespace=r[2],
        event=r[3],
        before=r[4],
        after=r[5],
        actor=r[6],
        reason=r[7],
        created_at=utc(r[8]),
    )


def vector_array(value: Any) -> npt.NDArray[np.float32]:
    """A float32 copy of a ``vector`` value as pgvector's loader returns it."""
    if isinstance(value, Vector):
        return value.to_numpy().astype(np.float32, copy=True)
    return np.array(value, dtype=np.float32)

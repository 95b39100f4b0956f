"""How a ``MemoryRecord`` is stored in and read back from a SQLite row.

JSON text for facts, tags and metadata; ISO 8601 UTC text for times; enum values as
their strings. Shared by the store, its bulk copy and its API keys.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from engram.records import HistoryEntry, MemoryCategory, MemoryRecord, MemoryType
from engram.store.schema import JSON_FIELDS, MEMORY_COLUMNS, TIME_FIELDS

COLUMNS = MEMORY_COLUMNS
SELECT = "SELECT " + ", ".join(f"m.{c}" for c in COLUMNS) + " FROM memories m"
HISTORY_COLUMNS = "id, memory_id, namespace, event, before, after, actor, reason, created_at"
INSERT = f"INSERT INTO memories ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"

#: ``json.dumps(value, ensure_ascii=False)`` without building an encoder per call.
_JSON = json.JSONEncoder(ensure_ascii=False)
#: Columns stored as the record holds them.
_AS_IS = frozenset(COLUMNS) - JSON_FIELDS - TIME_FIELDS - {"type", "category", "normalized"}


def ts(value: datetime) -> str:
    """ISO 8601 text in UTC, to the microsecond (naive times count as UTC)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def parse_ts(value: str | None) -> datetime | None:
    """The datetime of ``ts`` text, or None."""
    return None if value is None else datetime.fromisoformat(value)


def to_row(record: MemoryRecord, normalized: str) -> tuple[Any, ...]:
    """The values of ``COLUMNS`` for ``record``."""
    values: list[Any] = []
    for column in COLUMNS:
        if column in _AS_IS:  # ``encode`` would return it unchanged
            values.append(getattr(record, column))
        elif column == "normalized":
            values.append(normalized)
        else:
            values.append(encode(column, getattr(record, column)))
    return tuple(values)


def encode(column: str, value: Any) -> Any:
    """One field as stored in its column."""
    if column in JSON_FIELDS:
        return _JSON.encode(list(value) if isinstance(value, tuple) else value)
    if column in TIME_FIELDS:
        return None if value is None else ts(value)
    if column in {"type", "category"} and value is not None:
        return str(value)
    return value


def from_row(row: Sequence[Any]) -> MemoryRecord:
    """The record of a row selected with ``SELECT``."""
    data = dict(zip(COLUMNS, row, strict=True))
    data.pop("normalized")
    data["facts"] = tuple(json.loads(data["facts"]))
    data["tags"] = tuple(json.loads(data["tags"]))
    data["metadata"] = json.loads(data["metadata"])
    data["type"] = MemoryType(data["type"])
    data["category"] = MemoryCategory(data["category"]) if data["category"] else None
    for name in TIME_FIELDS:
        data[name] = parse_ts(data[name])
    return MemoryRecord(**data)


def audit(record: MemoryRecord | None) -> str | None:
    """A record as the JSON text of a history row."""
    return None if record is None else _JSON.encode(record.to_dict())


def history_from_row(row: Sequence[Any]) -> HistoryEntry:
    """The entry of a ``memory_history`` row selected with ``HISTORY_COLUMNS``."""
    return HistoryEntry(
        id=row[0],
        memory_id=row[1],
        namespace=row[2],
        event=row[3],
        before=None if row[4] is None else json.loads(row[4]),
        after=None if row[5] is None else json.loads(row[5]),
        actor=row[6],
        reason=row[7],
        created_at=datetime.fromisoformat(row[8]),
    )

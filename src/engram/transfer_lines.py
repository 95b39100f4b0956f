"""One line of an export file read as data: UTF-8, one JSON object, its fields checked
(``engram.transfer.import_jsonl``). Each check raises ``Problem``, which the reader
turns into an ``InvalidInputError`` naming the file and the line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from engram.errors import shown
from engram.records import MemoryCategory, MemoryType


class Problem(Exception):
    """A problem with one line; the file's reader (``engram.transfer``) adds the file and
    line number."""


def line_text(raw: bytes) -> str:
    """One line of the file as text, or a ``Problem`` naming its first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Problem(
            f"not UTF-8 text (byte {raw[exc.start]:#04x} at column {exc.start + 1}); an "
            "export is UTF-8 JSON lines: was the file edited with another encoding?"
        ) from None


#: The first bytes of files people give ``engram import`` in place of an export.
_SQLITE = b"SQLite format 3\x00"
_GZIP = b"\x1f\x8b"

#: Past this size a file that is not an export is not read whole to see whether it is
#: mem0's memories (the refusal then names only its first line's problem).
_MEM0_READ_LIMIT = 64 * 1024 * 1024


def what_it_is(file: Path) -> str | None:
    """What ``file``, whose first line is not an export's header, is instead, and how to
    bring it in: a SQLite database (a store: ``migrate-store``), a gzipped file
    (``gunzip -c``), mem0's memories as JSON (the mem0 door); None if none of these."""
    try:
        with file.open("rb") as handle:
            head = handle.read(len(_SQLITE))
        size = file.stat().st_size
    except OSError:
        return None
    if head == _SQLITE:
        return (
            f"{file} is a SQLite database (an engram store?), not an export: to move a "
            f"whole store, run `engram migrate-store --from sqlite:///{file.resolve()} "
            "--to <the target>` (a SQLite path or a postgresql:// URL); to import it into "
            f"another store, export it first: `engram --db {file} export --all --vectors -o "
            "backup.jsonl`, then `engram import backup.jsonl`"
        )
    if head.startswith(_GZIP):
        return f"{file} is gzip-compressed: import it with `gunzip -c {file} | engram import -`"
    if size <= _MEM0_READ_LIMIT and _holds_mem0_items(file):
        return (
            f"{file} holds mem0 memories (JSON items with a 'memory' text), not an engram "
            "export: add them through the mem0 door, as "
            "docs/compat-mem0.md#bringing-memories-from-mem0 shows"
        )
    return None


def _holds_mem0_items(file: Path) -> bool:
    """Whether ``file`` is JSON holding mem0's items: a list of them, or an object with
    them under ``results`` (``get_all``'s answer)."""
    try:
        data = json.loads(file.read_bytes())
    except (OSError, ValueError):
        return False
    items = data.get("results") if isinstance(data, dict) else data
    return (
        isinstance(items, list)
        and bool(items)
        and all(isinstance(i, dict) and isinstance(i.get("memory"), str) for i in items)
    )


def json_object(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        # Some of json's messages end in "at" ("Invalid control character at").
        reason = exc.msg.removesuffix(" at")
        raise Problem(f"not valid JSON ({reason} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise Problem(f"expected a JSON object, got {type(data).__name__}")
    return data


def field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise Problem(f"missing field {shown(name)}")
    value = data[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise Problem(f"field {shown(name)} must not be a boolean")
    if not isinstance(value, kind):
        raise Problem(f"field {shown(name)} has the wrong type ({type(value).__name__})")
    return value


def text_field(data: Mapping[str, Any], name: str, *, optional: bool = False) -> Any:
    return field(data, name, (str, type(None)) if optional else str)


def time_field(data: Mapping[str, Any], name: str) -> datetime:
    value = text_field(data, name)
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise Problem(f"field {shown(name)} is not an ISO 8601 time: {shown(value)}") from None


def maybe_time(data: Mapping[str, Any], name: str) -> datetime | None:
    return None if text_field(data, name, optional=True) is None else time_field(data, name)


def exact_keys(data: Mapping[str, Any], expected: set[str], what: str) -> None:
    unknown = set(data) - expected
    if unknown:
        raise Problem(f"unknown field(s) in {what}: {', '.join(sorted(unknown))}")


def strings(data: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = field(data, name, list)
    if not all(isinstance(v, str) for v in value):
        raise Problem(f"field {shown(name)} must be a list of strings")
    return tuple(value)


def number(data: Mapping[str, Any], name: str) -> float | None:
    value = field(data, name, (int, float, type(None)))
    return None if value is None else float(value)


def enum(
    data: Mapping[str, Any],
    name: str,
    enum: type[MemoryType] | type[MemoryCategory],
    *,
    optional: bool = False,
) -> Any:
    value = text_field(data, name, optional=optional)
    if value is None:
        return None
    try:
        return enum(value)
    except ValueError:
        raise Problem(f"field {shown(name)} has an unknown value {shown(value)}") from None

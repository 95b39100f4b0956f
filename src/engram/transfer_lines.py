"""One line of an export file read as data: UTF-8, one JSON object, its fields checked
(``engram.transfer.import_jsonl``). Each check raises ``Problem``, which the reader
turns into an ``InvalidInputError`` naming the file and the line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
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

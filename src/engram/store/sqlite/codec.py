"""Transitional: the SQLite spellings of the memory row codec, for the modules not yet
written once (issue 25). The codec is ``engram.store.sql.codec`` over ``SQLITE``; delete
this module when nothing imports it any more.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.records import MemoryRecord
from engram.store.sql import codec
from engram.store.sql.codec import SELECT
from engram.store.sqlite.dialect import SQLITE

__all__ = ["SELECT", "from_row", "parse_ts", "ts"]


def ts(value: datetime) -> str:
    """ISO 8601 text in UTC, to the microsecond (naive times count as UTC)."""
    return SQLITE.ts(value)


def parse_ts(value: str | None) -> datetime | None:
    """The datetime of ``ts`` text, or None."""
    return SQLITE.time_or_none(value)


def from_row(row: Sequence[Any]) -> MemoryRecord:
    """The record of a row selected with ``SELECT``."""
    return codec.from_row(SQLITE, row)

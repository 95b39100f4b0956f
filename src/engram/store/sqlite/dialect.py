"""SQLite's dialect: ISO 8601 text for times, JSON as text, ``?`` as it is."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal, TypeVar

from engram.errors import InvalidInputError, StoreError
from engram.store.sql.dialect import Conn, Dialect, utc
from engram.store.sqlite.access import out_of_space

T = TypeVar("T")


class SQLiteDialect(Dialect):
    """The SQLite engine's differences."""

    name: Literal["sqlite", "postgres"] = "sqlite"
    json = "?"
    skip_locked = ""
    for_update = ""
    #: SQLite's limit on host parameters was 999 in old builds: chunk IN lists.
    chunk = 500
    greatest = "max"
    least = "min"

    def ts(self, value: datetime) -> str:
        """ISO 8601 text in UTC, to the microsecond: it sorts as the times do."""
        return utc(value).isoformat(timespec="microseconds")

    def time(self, value: Any) -> datetime:
        return datetime.fromisoformat(value)

    def loads(self, value: Any) -> Any:
        return None if value is None else json.loads(value)

    def text(self, value: T, what: str) -> T:
        return value

    def json_text(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    @contextmanager
    def errors(self, what: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"{what} rejected by the database: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"{what} failed: {exc}{out_of_space(exc)}") from exc

    def any_of(self, column: str, values: Sequence[Any]) -> str:
        return f"{column} IN ({self.marks(len(values))})"

    def none_of(self, column: str, values: Sequence[Any]) -> str:
        return f"{column} NOT IN ({self.marks(len(values))})"

    def bind(self, values: Sequence[Any]) -> list[Any]:
        return list(values)

    def slices(self, values: Sequence[T]) -> Iterator[Sequence[T]]:
        return self.chunks(values)

    def wrap(self, conn: Any) -> Conn:
        connection: sqlite3.Connection = conn
        return connection


SQLITE = SQLiteDialect()

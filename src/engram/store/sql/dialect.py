"""What differs between the two SQL engines, behind one small object.

A concern module never imports ``sqlite3`` or ``psycopg``: it writes ``?`` and calls the
dialect for the rest. SQLite stores times as ISO 8601 UTC text and JSON as text;
PostgreSQL stores ``timestamptz`` and ``json`` and hands both back parsed. Each backend
package provides one instance (``engram.store.sqlite.dialect.SQLITE``,
``engram.store.postgres.dialect.POSTGRES``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, TypeVar

T = TypeVar("T")

#: ``json.dumps(value, ensure_ascii=False)`` without building an encoder per call.
_JSON = json.JSONEncoder(ensure_ascii=False)


class Cursor(Protocol):
    """The part of a DB-API cursor the concern modules use."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Conn(Protocol):
    """A connection that takes ``?`` placeholders: ``sqlite3.Connection`` itself, or the
    PostgreSQL backend's wrapper that rewrites them for psycopg."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> Cursor: ...


def first_int(conn: Conn, sql: str, params: Sequence[Any] = ()) -> int:
    """The first column of ``sql``'s first row as an int (a ``count(*)``, a ``max``),
    0 without a row."""
    row = conn.execute(sql, params).fetchone()
    return int(row[0]) if row else 0


def utc(value: datetime) -> datetime:
    """An aware UTC datetime; a naive one counts as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def dumps(value: Any) -> str:
    """JSON text as both engines store it (tuples as lists, non-ASCII kept)."""
    return _JSON.encode(list(value) if isinstance(value, tuple) else value)


class Dialect(ABC):
    """One SQL engine's differences. Methods marked "read" decode a value a row holds;
    the others encode a parameter."""

    #: "sqlite" or "postgres": the key of a fragment only one concern needs.
    name: Literal["sqlite", "postgres"]
    #: The placeholder of a JSON parameter (PostgreSQL casts text to ``json``).
    json: str
    #: Appended to a ``SELECT`` that claims rows other workers must skip; SQLite's
    #: ``BEGIN IMMEDIATE`` already serialises writers, so there it is empty.
    skip_locked: str
    #: Appended to a ``SELECT`` whose rows the transaction will update.
    for_update: str
    #: How many values one ``IN (...)`` list may carry.
    chunk: int
    #: The larger and the smaller of two values: SQLite's scalar ``max``/``min``,
    #: PostgreSQL's ``GREATEST``/``LEAST``.
    greatest: str
    least: str

    @abstractmethod
    def ts(self, value: datetime) -> Any:
        """A time parameter."""

    def ts_or_none(self, value: datetime | None) -> Any:
        """A time parameter that may be None."""
        return None if value is None else self.ts(value)

    @abstractmethod
    def time(self, value: Any) -> datetime:
        """Read: the aware UTC datetime a time column holds."""

    def time_or_none(self, value: Any) -> datetime | None:
        """Read: a nullable time column."""
        return None if value is None else self.time(value)

    @abstractmethod
    def loads(self, value: Any) -> Any:
        """Read: the value a JSON column holds (None stays None)."""

    @staticmethod
    def dumps(value: Any) -> str:
        """A JSON parameter's text (pass it with ``d.json`` as its placeholder)."""
        return dumps(value)

    @abstractmethod
    def text(self, value: T, what: str) -> T:
        """A text parameter, refused with a clear message where the engine cannot store
        it (PostgreSQL ``text`` cannot hold U+0000)."""

    @abstractmethod
    def json_text(self, column: str, key: str) -> str:
        """SQL for one top-level key of a JSON column, as text; ``key`` is a literal
        the caller controls (never user input)."""

    @abstractmethod
    def errors(self, what: str) -> AbstractContextManager[None]:
        """Turns driver errors raised inside into ``EngramError``: a constraint into
        ``InvalidInputError``, anything else into ``StoreError``, naming ``what``."""

    @abstractmethod
    def wrap(self, conn: Any) -> Conn:
        """The ``?``-placeholder connection over a driver connection."""

    @staticmethod
    def marks(count: int) -> str:
        """``?, ?, ?`` for an ``IN`` list of ``count`` values."""
        return ", ".join("?" * count)

    def chunks(self, values: Sequence[T]) -> Iterator[Sequence[T]]:
        """``values`` in slices an ``IN`` list can carry."""
        for start in range(0, len(values), self.chunk):
            yield values[start : start + self.chunk]

    # A list of values: spread into ``IN (?, ?, ...)`` on SQLite, bound as one array on
    # PostgreSQL (``col = ANY(?)``: one statement text whatever the count, no bound on
    # its length). Bind the values of ``any_of``/``none_of`` with ``bind``.
    @abstractmethod
    def any_of(self, column: str, values: Sequence[Any]) -> str:
        """SQL: ``column`` is one of ``values``."""

    @abstractmethod
    def none_of(self, column: str, values: Sequence[Any]) -> str:
        """SQL: ``column`` is none of ``values``."""

    @abstractmethod
    def bind(self, values: Sequence[Any]) -> list[Any]:
        """The parameters of an ``any_of`` or ``none_of`` list."""

    @abstractmethod
    def slices(self, values: Sequence[T]) -> Iterator[Sequence[T]]:
        """``values`` in as many lists as one statement can bind (none when empty)."""

    def select_in(
        self,
        conn: Conn,
        head: str,
        column: str,
        values: Sequence[Any],
        before: Sequence[Any] = (),
        tail: str = "",
    ) -> list[Any]:
        """Every row of ``head``, ``column``'s ``any_of`` test and ``tail``, read one
        statement per ``slices`` list of ``values``; ``before`` are the parameters of
        ``head``. Nothing read for no values."""
        rows: list[Any] = []
        for chunk in self.slices(values):
            rows += conn.execute(
                head + self.any_of(column, chunk) + tail, (*before, *self.bind(chunk))
            ).fetchall()
        return rows

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``any_of`` with its parameters."""
        return self.any_of(column, values), self.bind(values)

"""PostgreSQL's dialect: ``timestamptz`` and ``json`` columns, ``%s`` for psycopg.

Shared SQL is written with ``?``; :class:`PgConn` rewrites it to psycopg's ``%s`` once
per distinct statement (a literal ``%`` becomes ``%%``). The pool's ``Database`` already
turns driver errors into ``EngramError``, so ``errors`` adds nothing here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal, TypeVar

import psycopg

from engram.errors import InvalidInputError
from engram.store.sql.dialect import Conn, Cursor, Dialect, utc

T = TypeVar("T")


@lru_cache(maxsize=4096)
def to_pyformat(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s``; literal ``%`` doubled. Shared SQL never
    holds a ``?`` of its own (PostgreSQL's jsonb ``?`` operators are not used)."""
    return sql.replace("%", "%%").replace("?", "%s")


class PgConn:
    """A psycopg connection that takes ``?`` placeholders. ``raw`` is the connection
    itself, for the few psycopg calls a shared module must not make (there are none
    today: backend-only modules hold the connection directly)."""

    __slots__ = ("raw",)

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        return self.raw.execute(to_pyformat(sql), parameters)

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> Cursor:
        cur = self.raw.cursor()
        cur.executemany(to_pyformat(sql), seq_of_parameters)
        return cur


class PostgresDialect(Dialect):
    """The PostgreSQL engine's differences."""

    name: Literal["sqlite", "postgres"] = "postgres"
    json = "?::json"
    skip_locked = " FOR UPDATE SKIP LOCKED"
    for_update = " FOR UPDATE"
    #: A generous bound: one statement's parameters stay far below psycopg's 65,535.
    chunk = 5000
    greatest = "GREATEST"
    least = "LEAST"

    def ts(self, value: datetime) -> datetime:
        return utc(value)

    def time(self, value: Any) -> datetime:
        return utc(value)

    def loads(self, value: Any) -> Any:
        return value  # psycopg parses json columns

    def text(self, value: T, what: str) -> T:
        if isinstance(value, str) and "\x00" in value:
            raise InvalidInputError(
                f"{what} contains a NUL character (U+0000), which PostgreSQL cannot store; "
                "remove it"
            )
        return value

    def json_text(self, column: str, key: str) -> str:
        return f"{column}->>'{key}'"

    @contextmanager
    def errors(self, what: str) -> Iterator[None]:
        yield  # ``Database.read``/``tx`` translate psycopg's errors already

    def any_of(self, column: str, values: Sequence[Any]) -> str:
        return f"{column} = ANY(?)"

    def none_of(self, column: str, values: Sequence[Any]) -> str:
        return f"{column} <> ALL(?)"

    def bind(self, values: Sequence[Any]) -> list[Any]:
        return [list(values)]

    def slices(self, values: Sequence[T]) -> Iterator[Sequence[T]]:
        if values:
            yield values

    def wrap(self, conn: Any) -> Conn:
        return PgConn(conn)


POSTGRES = PostgresDialect()

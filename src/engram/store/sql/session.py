"""``Sql``: what a concern module holds, the backend's database seen through its dialect.

Both backends' ``Database`` keep their own connection, pool and transaction rules
(``BEGIN IMMEDIATE`` and savepoints on SQLite's one connection; pooled connections and
nested ``transaction()`` on PostgreSQL). ``Sql`` adds what a shared module needs on
top: ``?`` placeholders on either engine, driver errors as ``EngramError``, the clock,
and the dialect as ``d``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, Protocol

from engram.store.sql.dialect import Conn, Dialect


class Database(Protocol):
    """What each backend's ``Database`` offers the shared modules."""

    location: str
    clock: Callable[[], datetime]

    def tx(self, what: str = ...) -> AbstractContextManager[Any]: ...

    def read(self, what: str = ...) -> AbstractContextManager[Any]: ...

    def snapshot(self, what: str = ...) -> AbstractContextManager[Any]: ...


class Sql:
    """One backend's database and dialect, for the shared concern modules."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self.db = db
        self.d = dialect

    def clock(self) -> datetime:
        """Now, by the store's clock (UTC, or a test's hand-moved one)."""
        return self.db.clock()

    @contextmanager
    def tx(self, what: str = "write") -> Iterator[Conn]:
        """A write transaction, or a savepoint inside the one this thread holds."""
        with self.d.errors(what), self.db.tx(what) as conn:
            yield self.d.wrap(conn)

    @contextmanager
    def read(self, what: str = "read") -> Iterator[Conn]:
        """A connection for reads; inside a transaction, that transaction's."""
        with self.d.errors(what), self.db.read(what) as conn:
            yield self.d.wrap(conn)

    @contextmanager
    def snapshot(self, what: str = "read") -> Iterator[Conn]:
        """Several reads that see one snapshot of the database."""
        with self.d.errors(what), self.db.snapshot(what) as conn:
            yield self.d.wrap(conn)

"""``Sql``: what a concern module holds, the backend's database seen through its dialect.

Both backends' ``Database`` keep their own connection, pool and transaction rules
(``BEGIN IMMEDIATE`` and savepoints on SQLite's one connection; pooled connections and
nested ``transaction()`` on PostgreSQL). ``Sql`` adds what a shared module needs on
top: ``?`` placeholders on either engine, driver errors as ``EngramError``, the clock,
and the dialect as ``d``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, Protocol, TypeVar

from engram.errors import StoreBusyError
from engram.store.sql.dialect import Conn, Dialect, first_int
from engram.store.sql.rows import Reader, columns, found, record

R = TypeVar("R")

T = TypeVar("T")

#: How often a transaction the database aborted to break a deadlock or a serialization
#: conflict (``StoreBusyError``) is run in all, and the first wait before a re-run
#: (doubled each time, jittered): three runs absorbed every deadlock of the issue-26
#: load (docs/reliability.md, "PostgreSQL under load").
TX_ATTEMPTS = 3
TX_BACKOFF_S = 0.02


def retried(run: Callable[[], T], *, nested: bool) -> T:
    """``run()`` (one whole transaction), re-run up to ``TX_ATTEMPTS`` times in all while
    it raises ``StoreBusyError``. The database rolled the aborted run back, so a re-run
    starts clean; ``run`` must have no effect outside the database. Inside a
    transaction this thread holds (``nested``) nothing is re-run: the outer one is
    aborted too, and only its owner can start it again."""
    for attempt in range(1, TX_ATTEMPTS + 1):
        try:
            return run()
        except StoreBusyError:
            if nested or attempt == TX_ATTEMPTS:
                raise
            time.sleep(TX_BACKOFF_S * 2 ** (attempt - 1) * (0.5 + random.random()))
    raise AssertionError("unreachable")  # the loop returns or raises


class Database(Protocol):
    """What each backend's ``Database`` offers the shared modules."""

    location: str
    clock: Callable[[], datetime]

    @property
    def in_transaction(self) -> bool: ...

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

    def run(self, body: Callable[[Conn], T], what: str = "write") -> T:
        """``body`` in one write transaction, re-run whole when the database aborts it
        to break a deadlock (``retried``); ``body`` must touch nothing but the database."""

        def once() -> T:
            with self.tx(what) as conn:
                return body(conn)

        return retried(once, nested=self.db.in_transaction)

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


def _at_key(cls: type, table: str, key: str) -> str:
    """SQL: the ``cls`` columns of ``table``'s rows of a namespace whose ``key`` column
    holds a value (two parameters: the namespace, the value)."""
    return f"SELECT {columns(cls)} FROM {table} WHERE namespace = ? AND {key} = ?"


class SqlPart:
    """Base of a concern's implementation: its ``Sql`` as ``self._sql`` and the dialect
    as ``self._d``."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._d = sql.d

    def _rows(self, sql: str, params: Sequence[Any] = (), what: str = "read") -> list[Any]:
        """Every row of one read."""
        with self._sql.read(what) as conn:
            return conn.execute(sql, params).fetchall()

    def _row(self, sql: str, params: Sequence[Any] = (), what: str = "read") -> Any:
        """The first row of one read; None without one."""
        with self._sql.read(what) as conn:
            return conn.execute(sql, params).fetchone()

    def _records(
        self, cls: type[R], sql: str, params: Sequence[Any] = (), what: str = "read"
    ) -> list[R]:
        """The rows of one read, each as a ``cls`` record (``rows.record``)."""
        return [record(self._d, cls, r) for r in self._rows(sql, params, what)]

    def _record(
        self,
        cls: type[R],
        sql: str,
        params: Sequence[Any] = (),
        what: str = "read",
        **readers: Reader,
    ) -> R | None:
        """The first row of one read as a ``cls`` record (with ``readers``, as
        ``rows.record`` takes them); None without one."""
        row = self._row(sql, params, what)
        return None if row is None else record(self._d, cls, row, **readers)

    def _found(self, conn: Conn, cls: type[R], sql: str, params: Sequence[Any], missing: str) -> R:
        """The first row of ``sql`` on ``conn`` as a ``cls`` record; ``NotFoundError``
        saying ``missing`` without one."""
        return record(self._d, cls, found(conn, sql, params, missing))

    def _keyed(
        self, cls: type[R], table: str, at: tuple[str, str, Any], what: str = "read"
    ) -> R | None:
        """The ``cls`` record (every field a column) of ``table`` at ``at``: the row of
        that namespace (``at[0]``) whose column ``at[1]`` holds ``at[2]``; None without
        one."""
        namespace, key, value = at
        return self._record(cls, _at_key(cls, table, key), (namespace, value), what)

    def _keyed_all(
        self, cls: type[R], table: str, at: tuple[str, str, Any], order: str, what: str
    ) -> list[R]:
        """Like ``_keyed``, every row at ``at``, in ``order``."""
        namespace, key, value = at
        return self._records(
            cls, f"{_at_key(cls, table, key)} ORDER BY {order}", (namespace, value), what
        )

    def _read_count(self, sql: str, params: Sequence[Any] = (), what: str = "read") -> int:
        """The number one read returns (a ``count(*)``)."""
        with self._sql.read(what) as conn:
            return first_int(conn, sql, params)

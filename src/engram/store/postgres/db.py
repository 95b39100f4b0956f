"""The PostgreSQL backend's connection pool and its one transaction helper, shared by
every part.

Each part (memories, vectors, keys ...) runs its SQL through :class:`Database`: ``tx``
for a write, ``read`` for a read. Outside a transaction each call takes its own pooled
connection, so calls from many threads run side by side. A ``tx`` inside another on the
same thread joins it: it reuses that transaction's connection and opens a nested
``conn.transaction()``, which psycopg makes a savepoint. So writes of several parts made
inside ``PostgresStore.transaction()`` commit together or not at all, and a ``read``
inside one runs on the same connection and sees its uncommitted writes.

The open transaction is remembered per thread (``threading.local``), not per context
(``contextvars``): ``asyncio.to_thread`` copies the caller's context into the worker
thread, which would then share one connection between two threads.
"""

from __future__ import annotations

import select
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from pgvector.psycopg.vector import register_vector_info
from psycopg.types import TypeInfo
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from engram.config import PostgresConfig
from engram.errors import (
    InvalidInputError,
    StoreBusyError,
    StoreConnectionError,
    StoreError,
)
from engram.records import utcnow
from engram.store.postgres.dialect import POSTGRES
from engram.store.sql import migrations
from engram.store.sql.opened import Opened


def redact(conninfo: str) -> str:
    """The connection URL without its password, for ``location`` and messages."""
    parts = urlsplit(conninfo)
    if parts.password is None:
        return conninfo
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


#: The longest wait between two attempts to reconnect a pooled connection, in seconds.
#: psycopg_pool doubles its wait after each failed attempt (1, 2, 4 ... s) until
#: ``reconnect_timeout`` (5 minutes), so once the database was gone for a minute or two
#: the next attempt could come a minute after it was back, and every call meanwhile
#: waited out ``pool_timeout`` for nothing: 26 s after a 90 s outage (docs/benchmarks.md,
#: new-user round twenty-seven). An attempt against a database that is down costs a
#: refused connection, so trying every second costs nothing worth saving.
RECONNECT_MAX_DELAY = 1.0


class _Retry(AttemptWithBackoff):
    """psycopg_pool's reconnect attempts, with their wait capped at
    ``RECONNECT_MAX_DELAY``."""

    def update_delay(self, now: float) -> None:
        super().update_delay(now)
        self.delay = min(self.delay, RECONNECT_MAX_DELAY)


class _Pool(ConnectionPool[psycopg.Connection[Any]]):
    """The pool, reconnecting within a second of the database coming back, and knowing
    whether its last attempt to connect failed (``unreachable``)."""

    unreachable = False
    """True from a failed attempt to open a connection until one succeeds: the
    database is down or refuses this role, so waiting out ``pool_timeout`` for a
    connection is waiting for nothing (``Database.bounded_wait``)."""

    def _add_connection(self, attempt: AttemptWithBackoff | None, growing: bool = False) -> None:
        super()._add_connection(attempt or _Retry(timeout=self.reconnect_timeout), growing)

    def _connect(self, timeout: float | None = None) -> psycopg.Connection[Any]:
        try:
            conn = super()._connect(timeout)
        except Exception:
            self.unreachable = True
            raise
        self.unreachable = False
        return conn


#: Server states that end the connection: admin shutdown (a restart, or
#: ``pg_terminate_backend``), crash shutdown, and "the database system is starting up".
_LOST_STATES = frozenset({"57P01", "57P02", "57P03"})


def check_idle(conn: psycopg.Connection[Any]) -> None:
    """The pool's check of a connection leaving it, without a round trip when it can.

    An idle connection's socket has nothing to read unless the server sent something
    unasked: the error of a shutdown or ``pg_terminate_backend`` (57P01), or the end of
    the connection. Only then does psycopg's check (an empty query) run, and raise, so
    the pool opens a fresh connection. Every pooled read used to pay that round trip;
    recall makes several (issue 29).
    """
    if conn.closed:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable:
        ConnectionPool.check_connection(conn)


def connection_lost(exc: psycopg.OperationalError) -> bool:
    """True when ``exc`` means the server went away, not that a statement failed: no
    SQLSTATE (the socket closed: "server closed the connection unexpectedly",
    "consuming input failed"), class 08 (connection exception) or a shutdown state."""
    state = exc.sqlstate
    return state is None or state.startswith("08") or state in _LOST_STATES


def refuse_foreign(conn: psycopg.Connection[Any], location: str) -> None:
    """``StoreError`` if the schema engram would create its tables in holds another
    program's tables and none of engram's, before anything is written: as the SQLite
    store refuses another program's file (``engram.store.sqlite.db``). An application's
    database given as ``migrate-store --from`` (or mistyped into ``ENGRAM_STORE``) got
    engram's 52 tables and triggers beside its own, and an empty copy verified "ok"
    (new-user round twenty-seven)."""
    row = conn.execute("SELECT current_schema()").fetchone()
    schema = None if row is None else row[0]
    if schema is None:  # no schema on the search_path: the migrations say so
        return
    names = [
        str(r[0])
        for r in conn.execute(
            # An extension's own tables (PostGIS's spatial_ref_sys) are no program's data.
            "SELECT relname FROM pg_class c WHERE relnamespace = %s::regnamespace "
            "AND relkind IN ('r', 'p') AND NOT EXISTS (SELECT 1 FROM pg_depend d "
            "WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e') "
            "ORDER BY relname",
            (schema,),
        )
    ]
    shown = migrations.foreign(names)
    if shown is not None:
        raise StoreError(
            f"{location} is a PostgreSQL database but not an engram store: schema {schema}, "
            f"where engram would create its tables, holds the tables {shown} and none of "
            "engram's, so it was left as it is; give engram a database of its own, or a "
            "schema of its own (`CREATE SCHEMA engram;`, then "
            "`?options=-csearch_path%3Dengram,public` in the URL)"
        )


class Database(Opened):
    """A pool of autocommit connections to one PostgreSQL database, migrated on open."""

    def __init__(self, conninfo: str, config: PostgresConfig, migrate: bool) -> None:
        # The defaults are ``PostgresStore``'s, its one caller.
        self.config = config
        self.location = redact(conninfo)
        self.clock: Callable[[], datetime] = utcnow
        """The time the parts stamp rows with (history, tombstones, queued jobs): UTC
        now, or the hand-moved clock ``mem.lifecycle.clock`` sets (the clock seam)."""
        self._closed = False
        self._lock = threading.Lock()
        self._local = threading.local()
        self._vector_info: TypeInfo | None = None
        try:
            with psycopg.connect(
                conninfo, autocommit=True, connect_timeout=self.config.connect_timeout
            ) as conn:
                if migrate and not self.config.read_only:
                    refuse_foreign(conn, self.location)
                    migrations.migrate(conn, POSTGRES)
                elif migrate:  # a replica: it cannot migrate, so say what is missing
                    migrations.require_current(conn, POSTGRES)
                self._vector_info = TypeInfo.fetch(conn, "vector")
        except psycopg.Error as exc:
            raise StoreError(f"cannot open PostgreSQL store at {self.location}: {exc}") from exc
        if migrate and self._vector_info is None:
            # The migrations made vector columns, so the type went away after them: a
            # pg_restore into a database without pgvector restores every table but
            # those, and the store then failed at its first vector read, far from here.
            raise StoreError(
                f"cannot open PostgreSQL store at {self.location}: its schema is engram's "
                "but the database has no `vector` type on this connection's search_path: "
                "pgvector is not installed in it (a pg_restore into a database where no "
                "superuser had run `CREATE EXTENSION vector;` leaves out the vector "
                "tables: install it, then restore into a new database again) or its "
                "schema is missing from `options=-csearch_path%3D...`"
            )
        self._conninfo = conninfo
        self._disconnected = False
        self._open()

    def _open(self) -> None:
        """Open a new pool (at start, and again on ``reconnect``)."""
        pool = _Pool(
            self._conninfo,
            min_size=min(self.config.pool_min_size, self.config.pool_max_size),
            max_size=self.config.pool_max_size,
            kwargs={"autocommit": True, "connect_timeout": self.config.connect_timeout},
            configure=self._configure,
            # A connection is checked as it leaves the pool, so the first call after a
            # database restart gets a fresh one instead of a dead socket.
            check=check_idle,
            timeout=self.config.pool_timeout,
            name="engram",
            open=False,
        )
        try:
            pool.open(wait=True, timeout=float(self.config.connect_timeout))
        except psycopg.Error as exc:
            pool.close()
            raise StoreError(f"cannot open PostgreSQL pool at {self.location}: {exc}") from exc
        self._pool: _Pool = pool

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute("SET TIME ZONE 'UTC'")
        if self._vector_info is not None:
            register_vector_info(conn, self._vector_info)

    def _bound(self) -> psycopg.Connection[Any] | None:
        """The connection of the transaction this thread has open, if any."""
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        return conn

    @property
    def in_transaction(self) -> bool:
        """True while this thread has a ``tx`` open."""
        return self._bound() is not None

    @contextmanager
    def read(self, what: str = "read") -> Iterator[psycopg.Connection[Any]]:
        """One pooled connection in autocommit mode: each statement is its own snapshot.

        For reads of one statement, it saves the BEGIN and COMMIT round trips of
        ``tx``. Inside a transaction this thread holds, it is that transaction's
        connection, so the read sees its writes. Driver errors become ``StoreError``;
        constraint errors bad input.
        """
        self.check_open()
        try:
            bound = self._bound()
            if bound is not None:
                yield bound
            else:
                with self._pooled() as conn:
                    yield conn
        except psycopg.errors.IntegrityError as exc:
            raise InvalidInputError(f"{what} rejected by the database: {exc}") from exc
        except PoolTimeout as exc:  # no connection within pool_timeout: unreachable
            raise StoreConnectionError(
                f"{what} failed: no connection to {self.location}: {exc}"
            ) from exc
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure) as exc:
            raise StoreBusyError(f"{what} failed: {exc}") from exc
        except psycopg.OperationalError as exc:
            if connection_lost(exc):
                raise StoreConnectionError(
                    f"{what} failed: the connection to {self.location} was lost: {exc}"
                ) from exc
            raise StoreError(f"{what} failed: {exc}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc

    @contextmanager
    def bounded_wait(self, seconds: float) -> Iterator[None]:
        """Within the block, a call on this thread that needs a connection waits at
        most ``seconds`` for one when the pool's last attempt to connect failed (the
        database is down), instead of ``pool_timeout``; when the pool is only busy it
        waits as long as any call. ``/ready`` and ``/metrics`` answer inside one, so
        an outage is reported in a second or two, not after 30 s."""
        before = getattr(self._local, "bound", None)
        self._local.bound = seconds
        try:
            yield
        finally:
            self._local.bound = before

    @contextmanager
    def _pooled(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection from the pool, waiting as ``bounded_wait`` says."""
        bound: float | None = getattr(self._local, "bound", None)
        if bound is None or bound >= self.config.pool_timeout:
            with self._pool.connection() as conn:
                yield conn
            return
        pool = self._pool
        try:
            conn = pool.getconn(timeout=bound)
        except PoolTimeout:
            # A stopped database refuses the pool's attempt at once, so by now the
            # pool knows; a pool that is merely busy gets the rest of the usual wait.
            if pool.unreachable:
                raise
            conn = pool.getconn(timeout=self.config.pool_timeout - bound)
        try:
            with conn:  # commit or roll back as ``pool.connection()`` does
                yield conn
        finally:
            pool.putconn(conn)

    @contextmanager
    def tx(self, what: str = "write") -> Iterator[psycopg.Connection[Any]]:
        """One transaction on one pooled connection, or a savepoint inside the one this
        thread already holds; driver errors become StoreError."""
        with self.read(what) as conn:
            if self._bound() is not None:
                with conn.transaction() as block:
                    yield conn
                self._committed(block, what)
                return
            self._local.conn = conn
            try:
                with conn.transaction() as block:
                    yield conn
                self._committed(block, what)
            finally:
                self._local.conn = None

    def _committed(self, block: psycopg.Transaction, what: str) -> None:
        """Raise when ``block`` left without an exception but did not commit.

        psycopg's transaction block, on a connection the server ended (a restart,
        ``pg_terminate_backend``), neither commits nor raises when its body did not: a
        caller whose guard took the lost connection's error (the inline linker's, on an
        optional step) would report a write that the server rolled back. Dogfood round
        eighteen saw 2 such writes answered 201 in 416 across `pg_ctl restart -m fast`.
        """
        if block.status is block.Status.FAILED:
            raise StoreConnectionError(
                f"{what} failed: the connection to {self.location} was lost before the "
                "commit (the server ended it: a restart?), so nothing of it was written; "
                "run it again"
            )

    @contextmanager
    def snapshot(self, what: str = "read") -> Iterator[psycopg.Connection[Any]]:
        """Like ``tx``, but its statements see one snapshot (REPEATABLE READ). Inside a
        transaction this thread holds, it joins that one (and sees its writes): the
        isolation level can only be set before a transaction's first statement."""
        joined = self.in_transaction
        with self.tx(what) as conn:
            if not joined:
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield conn

    @property
    def has_vector_type(self) -> bool:
        """True when pgvector's ``vector`` type exists in the database."""
        return self._vector_info is not None

    def _held(self) -> AbstractContextManager[Any]:
        return self._lock

    def _shut(self) -> None:
        self._pool.close()

"""The SQLite backend's connection and its one transaction helper, shared by every part.

Each part (memories, vectors, keys ...) runs its SQL through :class:`Database`: ``tx``
for a write, ``read`` for a read. A ``tx`` inside another on the same thread joins it
as a savepoint, so writes of several parts made inside ``SQLiteStore.transaction()``
commit together or not at all. The lock is re-entrant and held for the whole outer
transaction, so a ``Memory`` may be shared between threads (``AsyncMemory`` runs calls
on a thread pool) without two threads ever interleaving statements.
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Protocol, TypeVar

from engram.errors import StoreError
from engram.records import utcnow
from engram.store.sql import migrations
from engram.store.sql.opened import Opened
from engram.store.sqlite import fts
from engram.store.sqlite.access import explained, make_folder, out_of_space
from engram.store.sqlite.dialect import SQLITE

#: SQLite's primary result codes for "another connection holds a lock".
_BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
#: Page cache per connection, KiB (two connections per file store).
PAGE_CACHE_KIB = 65536


def _refuse_foreign(conn: sqlite3.Connection, location: str) -> None:
    """``StoreError`` if the file at ``location`` is another program's SQLite database
    (tables, none of them engram's ``schema_migrations``), before anything is written:
    opening it as a store would switch it to WAL and add engram's tables beside the
    owner's (new-user pass, round sixteen: an app's database given to migrate-store)."""
    shown = migrations.foreign(
        [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
    )
    if shown is not None:
        raise StoreError(
            f"{location} is a SQLite database but not an engram store (it holds the tables "
            f"{shown}, and none of engram's): engram would add its own tables to it, so it "
            "was left as it is; give the path of an engram store, or a new path for a new one"
        )


def _enable_wal(conn: sqlite3.Connection, busy_timeout_ms: int) -> None:
    """Switch the file to WAL, retrying while another opener holds a lock.

    Turning a new file into WAL writes its header: the pragma reads page 1, then
    upgrades to a write lock, and SQLite answers that upgrade with SQLITE_BUSY at once
    instead of calling the busy handler (waiting while holding a read lock could
    deadlock). So when many processes open one new file together, all but one get
    "database is locked" here however long the busy timeout is; this loop is that
    wait, bounded by the same timeout. Once one opener has converted the file the
    pragma is a no-op for the others (WAL is recorded in the file). A file system
    without WAL support answers with the old mode and no error; that is tolerated, as
    SQLite then falls back to its rollback journal.
    """
    deadline = time.monotonic() + busy_timeout_ms / 1000
    delay = 0.001
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF not in _BUSY_CODES or time.monotonic() >= deadline:
                raise
        # Jittered backoff, so the losers of one race do not collide again in lockstep.
        time.sleep(random.uniform(delay / 2, delay))
        delay = min(delay * 2, 0.05)


#: A migrated empty in-memory store per list of migrations, copied into each new
#: ``:memory:`` store (see ``_copy_empty_store``); guarded by ``_EMPTY_LOCK``.
_EMPTY: dict[tuple[str, ...], sqlite3.Connection] = {}
_EMPTY_LOCK = threading.Lock()


def _copy_empty_store(conn: sqlite3.Connection) -> None:
    """Fill the new in-memory database ``conn`` with a copy of a migrated empty store.

    Running every migration's DDL takes about 11 ms of CPU, copying the pages of a
    store that ran them once in this process 0.7 ms (SQLite's online backup); tests and
    applications open many ``:memory:`` stores. ``migrate`` still runs after the copy
    and finds nothing left to apply. The copy is keyed by the migrations' names, so a
    process whose list differs (an older or newer one) gets its own. Only its
    ``schema_migrations.applied_at`` tell when that first store was migrated."""
    names = tuple(name for name, _ in migrations.named(SQLITE))
    with _EMPTY_LOCK:
        empty = _EMPTY.get(names)
        if empty is None:
            empty = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            empty.execute("PRAGMA foreign_keys = ON")
            migrations.migrate(empty, SQLITE)
            _EMPTY[names] = empty
        empty.backup(conn)


class _ForMemory(Protocol):
    @property
    def memory_id(self) -> str: ...


M = TypeVar("M", bound=_ForMemory)


def meta_epoch(conn: sqlite3.Connection, key: str) -> int:
    """The ``engram_meta`` counter ``key`` that triggers move on every change a derived
    index must see (0 before the step that made it)."""
    row = conn.execute("SELECT value FROM engram_meta WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else 0


def with_seq(conn: sqlite3.Connection, items: Iterable[M]) -> Iterator[tuple[M, int]]:
    """Each item with its memory's ``seq`` (the key vector rows hang on), passing over
    the memories deleted and purged while they were being embedded."""
    for item in items:
        found = conn.execute("SELECT seq FROM memories WHERE id = ?", (item.memory_id,)).fetchone()
        if found is not None:
            yield item, int(found[0])


class Database(Opened):
    """One SQLite file (or ``:memory:``) in WAL mode, migrated on open."""

    def __init__(self, path: str | Path = ":memory:", *, busy_timeout_ms: int = 5000) -> None:
        self.location = str(path)
        if self.location != ":memory:":
            # "~/engram.db" is a path in the home directory, not a "~" directory here
            self.location = str(Path(self.location).expanduser())
            make_folder(self.location)
        self._busy_timeout_ms = busy_timeout_ms
        self.clock: Callable[[], datetime] = utcnow
        """The time the parts stamp rows with (history, tombstones, queued jobs): UTC
        now, or the hand-moved clock ``mem.lifecycle.clock`` sets (the clock seam)."""
        self.lock = threading.RLock()
        self.search_lock = self.lock
        if self.location != ":memory:":
            self.search_lock = threading.RLock()
        self._depth = 0
        self._closed = False
        self._disconnected = False
        self._open()

    def _open(self) -> None:
        """Open (or reopen, after ``disconnect``) both connections, migrated."""
        busy_timeout_ms = self._busy_timeout_ms
        self.conn = self._connect(busy_timeout_ms)
        try:
            if self.location != ":memory:":
                _refuse_foreign(self.conn, self.location)
                _enable_wal(self.conn, busy_timeout_ms)
                # WAL makes NORMAL durable across application crashes (SQLite docs).
                self.conn.execute("PRAGMA synchronous = NORMAL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            if self.location == ":memory:":
                _copy_empty_store(self.conn)
            migrations.migrate(self.conn, SQLITE)
        except BaseException as exc:
            # A store that failed to open must not keep the file open (and locked).
            self.conn.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(explained(self.location, str(exc))) from exc
            raise
        # A second connection for keyword search on file stores, so recall can rank
        # keywords while the main connection serves the vector side (WAL lets readers
        # run beside each other and beside the writer). An in-memory database exists
        # only in its one connection.
        self.search_conn = self.conn
        if self.location != ":memory:":
            try:
                self.search_conn = self._connect(busy_timeout_ms)
            except StoreError:
                self.conn.close()
                raise

    def _connect(self, busy_timeout_ms: int) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.location, isolation_level=None, check_same_thread=False, timeout=30
            )
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            # SQLite caches 2 MiB of pages per connection by default; a 100k store's
            # keyword index alone is tens of MiB, so each query re-read its pages
            # through the OS. Measured at 100k, interleaved on one file: keyword leg
            # p50 17.1 -> 14.3 ms (docs/benchmarks.md, "Beside Chroma"). Pages are
            # only held once read, so a small store never uses this much.
            conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
            # Deleted content is overwritten with zeros, so an erased user's text does
            # not stay readable in free pages of the file. Debian's SQLite builds it
            # on; python.org's and most others' do not (new-user pass, round three).
            conn.execute("PRAGMA secure_delete = ON")
        except sqlite3.Error as exc:
            raise StoreError(explained(self.location, str(exc))) from exc
        return conn

    @property
    def in_transaction(self) -> bool:
        """True while a ``tx`` is open on the store's one connection."""
        return self._depth > 0

    @contextmanager
    def tx(self, what: str = "write") -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``), or a savepoint inside the one this
        thread already holds. Errors inside the block roll it back and propagate as
        they are: ``engram.store.sql.Sql.tx`` turns driver errors into ``EngramError``
        (``what`` names the write there)."""
        with self.lock:
            self.check_open()
            if self._depth:
                yield from self._savepoint()
                return
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot start a write transaction: {exc}") from exc
            self._depth = 1
            try:
                yield self.conn
                # Keyword indexes are per namespace; triggers queue the changes.
                fts.flush(self.conn)
            except BaseException:
                self._depth = 0
                # SQLite rolls a transaction back itself after some errors (a full
                # disk, SQLITE_FULL / IOERR): a second ROLLBACK would fail and hide
                # the error that says what happened.
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            self._depth = 0
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise StoreError(f"commit failed: {exc}{out_of_space(exc)}") from exc

    def _savepoint(self) -> Iterator[sqlite3.Connection]:
        name = f"engram_{self._depth}"
        self.conn.execute(f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield self.conn
        except BaseException:
            if self.conn.in_transaction:  # not after SQLite rolled it all back itself
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
            raise
        finally:
            self._depth -= 1
        self.conn.execute(f"RELEASE {name}")

    @contextmanager
    def _using(
        self, lock: threading.RLock, conn: Callable[[], sqlite3.Connection], what: str
    ) -> Iterator[sqlite3.Connection]:
        """``conn()`` under ``lock`` once the store is open (read then: ``reconnect``
        replaces it), its failures as ``StoreError`` naming ``what``."""
        with lock:
            self.check_open()
            try:
                yield conn()
            except sqlite3.Error as exc:
                raise StoreError(f"{what} failed: {exc}") from exc

    @contextmanager
    def read(self, what: str = "read") -> Iterator[sqlite3.Connection]:
        """The main connection for reads (inside a transaction it sees its writes)."""
        with self._using(self.lock, lambda: self.conn, what) as conn:
            yield conn

    @contextmanager
    def snapshot(self, what: str = "read") -> Iterator[sqlite3.Connection]:
        """Like ``read``, but several statements see one snapshot of the database."""
        with self.read(what) as conn:
            if conn.in_transaction:  # inside ``tx``: already one snapshot
                yield conn
                return
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.execute("COMMIT")

    @contextmanager
    def side_snapshot(self, what: str = "read") -> Iterator[sqlite3.Connection]:
        """A read snapshot on a short-lived connection of its own, for long reads (a
        cold vector load) that must not hold the main connection while other callers
        wait. An in-memory store (one connection only) and a store in a transaction
        (whose writes the read must see) use ``snapshot`` instead."""
        if self.location == ":memory:" or self.in_transaction:
            with self.snapshot(what) as conn:
                yield conn
            return
        self.check_open()
        conn = self._connect(self._busy_timeout_ms)
        try:
            conn.execute("BEGIN")
            yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc
        finally:
            conn.close()

    @contextmanager
    def search(self, what: str = "keyword search") -> Iterator[sqlite3.Connection]:
        """The second connection, for keyword search beside the main one."""
        with self._using(self.search_lock, lambda: self.search_conn, what) as conn:
            yield conn

    @contextmanager
    def _held(self) -> Iterator[None]:
        with self.lock, self.search_lock:
            yield

    def _shut(self) -> None:
        if self.search_conn is not self.conn:
            self.search_conn.close()
        self.conn.close()

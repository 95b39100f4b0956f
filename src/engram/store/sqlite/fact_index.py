"""Recall's facts of large SQLite namespaces from arrays (``fact_block``), kept current.

A namespace of ``MIN_MEMORIES`` live memories or more gets a ``FactBlock``: loaded from
its snapshot beside the store, or made from the store and saved, both on a worker
thread with a connection of its own started by the namespace's second recall (the
first, after an open, has the cores to itself), so no recall waits for it (the row reads answer
meanwhile, ``facts.py``). The block follows the store through ``fts_log``, the change
log every insert, delete and change of a memory's text writes in its own transaction
(``fts.flush``), whichever process wrote it; ``SQLiteMemories.update`` logs a changed
session id there too. Before it answers, a block applies what the log holds beyond the
row it reflects, reading those memories again by seq. The check itself is skipped
while the database's version (``facts.py``: the main connection's change count and
``PRAGMA data_version``) is the one the block was last checked at, so a recall on an
unchanged store runs no statement for it. When the log cannot bring it up to date
(pruned past it, a namespace re-indexed, more than ``CATCH_UP_MAX`` changes) or too
many rows changed since it was made, it is made again in the background while the
row reads answer.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from engram.store.protocols.memories import FactColumns
from engram.store.sqlite import change_log, fact_block
from engram.store.sqlite.db import Database
from engram.store.sqlite.fact_block import COLUMNS, FILES, FactBlock
from engram.store.sqlite.snapshot import directory_for

log = logging.getLogger("engram.store")
T = TypeVar("T")

#: Namespaces with at least this many live memories get a block: below it the rows of
#: ~100 candidates sit on few pages and the kept rows (``facts.py``) answer as fast.
MIN_MEMORIES = 20_000
#: Logged changes applied inside one recall; more and the block is made again.
CATCH_UP_MAX = 5_000
#: The block is made again once this share of its rows changed since it was made.
CHANGED_SHARE = 10


@dataclass
class _Entry:
    block: FactBlock | None = None
    log_id: int = 0
    checked: object = None
    """The database version the block was last found current at."""
    build: threading.Thread | None = None


class FactIndex(change_log.Blocks[_Entry]):
    """The fact blocks of one SQLite store, namespace by namespace."""

    def __init__(self, db: Database, min_memories: int | None = None) -> None:
        self._db = db
        self.min_memories = MIN_MEMORIES if min_memories is None else min_memories
        self.directory: Path | None = directory_for(db.location)
        super().__init__()
        self._asked: set[str] = set()
        self.failures: list[str] = []
        self.loaded = 0
        self.made = 0

    def facts(
        self, conn: sqlite3.Connection, namespace: str, ids: Sequence[str], version: object
    ) -> FactColumns | None:
        """The facts of the live ones of ``ids`` from the namespace's block, or None when
        it has none ready (small, loading, being made). ``conn`` is the main connection
        outside a transaction; ``version`` the database's version now."""
        return self._read(conn, namespace, version, lambda block: block.facts(ids))

    def derived(
        self, conn: sqlite3.Connection, namespace: str, ids: Sequence[str], version: object
    ) -> tuple[dict[str, str], list[str]] | None:
        """``FactBlock.derived`` of ``ids`` (which a pipeline derived from which memory,
        and the ids the block does not hold), or None as ``facts``; it never starts a
        block (``facts`` does, from a namespace's second recall: started by the first
        recall's demotion instead, a load competed with the recall a caller waits on)."""
        return self._read(conn, namespace, version, lambda block: block.derived(ids), start=False)

    def seqs_met(self, namespace: str, ids: Sequence[str]) -> dict[str, int]:
        """``FactBlock.seqs_met`` of the namespace's block, as it is (no catch-up, no
        statement): {} without one. Where a row was, not whether it still is: the
        caller checks the row it reads there."""
        with self._lock:
            entry = self._entries.get(namespace)
            block = entry.block if entry is not None else None
            return block.seqs_met(ids) if block is not None else {}

    def _read(
        self,
        conn: sqlite3.Connection,
        namespace: str,
        version: object,
        read: Callable[[FactBlock], T],
        *,
        start: bool = True,
    ) -> T | None:
        """``read`` of the namespace's block brought up to ``version``, under the lock;
        ``start``: find (or start loading) the block of a namespace not seen yet."""
        if start:
            entry = self._entry(conn, namespace)
        else:
            with self._lock:
                entry = self._entries.get(namespace)
        if entry is None:
            return None
        with self._lock:
            block = entry.block
            if block is None:
                return None
            if entry.checked != version:
                if not self._catch_up(conn, namespace, entry, block):
                    return None
                entry.checked = version
            return read(block)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for loads and makes in flight (benchmarks and tests)."""
        with self._lock:
            threads = [e.build for e in self._entries.values() if e.build is not None]
        for thread in threads:
            thread.join(timeout)

    def state(self) -> dict[str, object]:
        with self._lock:
            entries = dict(self._entries)
        state: dict[str, object] = {
            "min_memories": self.min_memories,
            "namespaces": {ns: e.block.size for ns, e in entries.items() if e.block},
            "loaded_from_disk": self.loaded,
            "made": self.made,
        }
        if self.failures:
            state["failures"] = self.failures[-3:]
        return state

    # -- the block of a namespace ---------------------------------------------------
    def _entry(self, conn: sqlite3.Connection, namespace: str) -> _Entry | None:
        with self._lock:
            known, entry = self._sizes.known(self._entries, namespace)
            if not known and namespace not in self._asked:
                # The first recall after an open is the one a caller waits on (issue
                # 29's cold-start target): the block's count and load, which compete
                # with it for two cores, start with the namespace's second one.
                self._asked.add(namespace)
                return None
        if known:
            return entry
        if not self._sizes.large(conn, namespace, self.min_memories):
            return None
        with self._lock:
            entry = self._entries.get(namespace)
            if entry is None:
                entry = self._entries[namespace] = _Entry()
                self._start(namespace, entry, load=True)
            return entry

    def _start(self, namespace: str, entry: _Entry, *, load: bool) -> None:
        """Load (or make) the block on a worker thread. Called with ``_lock`` held."""
        if entry.build is not None or self._db.location == ":memory:":
            return  # an in-memory store has one connection: the row reads answer

        def run() -> None:
            try:
                with self._db.side_snapshot("reading recall's facts") as own:
                    got = self._saved(namespace, own) if load else None
                    fresh = got is None
                    if got is None:
                        got = _make(own, namespace)
                if fresh:
                    self._save(namespace, *got)
            except Exception as exc:  # the row reads keep answering
                message = f"facts of {namespace!r}: {type(exc).__name__}: {exc}"
                log.warning(message)
                self.failures.append(message)
                got = None
            with self._lock:
                if entry.build is not thread:
                    return  # forgotten meanwhile
                entry.build = None
                if got is not None:
                    entry.block, entry.log_id = got
                    entry.checked = None
                    if fresh:
                        self.made += 1
                    else:
                        self.loaded += 1

        thread = threading.Thread(target=run, name="engram-facts", daemon=True)
        entry.build = thread
        thread.start()

    def _saved(self, namespace: str, conn: sqlite3.Connection) -> tuple[FactBlock, int] | None:
        load = functools.partial(fact_block.load, namespace=namespace, conn=conn)
        return change_log.load_saved(self.directory, FILES, namespace, load, self.failures)

    def _save(self, namespace: str, block: FactBlock, log_id: int) -> None:
        change_log.save_quietly(self.directory, FILES, namespace, block, log_id, self.failures)

    # -- keeping in step ------------------------------------------------------------
    def _catch_up(
        self, conn: sqlite3.Connection, namespace: str, entry: _Entry, block: FactBlock
    ) -> bool:
        """Apply the logged changes the block has not seen; False (and a new block made
        in the background) when it cannot. Called with ``_lock`` held."""
        logged = change_log.since(conn, namespace, entry.log_id, CATCH_UP_MAX)
        if logged.remake is not None:
            return self._remake(namespace, entry, logged.remake)
        if logged.head == entry.log_id:
            return True
        if logged.seqs:
            block.apply(
                logged.seqs, change_log.live_rows(conn, namespace, COLUMNS, sorted(logged.seqs))
            )
        entry.log_id = logged.head
        if len(block.changed) * CHANGED_SHARE > max(block.size, self.min_memories):
            # The changed rows are Python objects: fold them into new arrays while
            # this block answers.
            self._start(namespace, entry, load=False)
        return True

    def _remake(self, namespace: str, entry: _Entry, why: str) -> bool:
        log.info("recall's facts of %r are made again: %s", namespace, why)
        entry.block = None
        self._start(namespace, entry, load=False)
        return False

    def forget(self) -> None:
        """Drop every block (they load again on next use)."""
        with self._lock:
            self._sizes.forget(self._entries)


def _make(conn: sqlite3.Connection, namespace: str) -> tuple[FactBlock, int]:
    """A block of the namespace's live memories and the log row it reflects, both read
    in ``conn``'s one snapshot."""
    newest = change_log.head(conn)
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM memories WHERE namespace = ? AND deleted_at IS NULL ORDER BY seq",
        (namespace,),
    )
    return FactBlock.of_rows(rows), newest

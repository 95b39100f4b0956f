"""Keyword search of large SQLite namespaces from an in-memory term index.

FTS5 ranks every document that holds a query term, so at 100k-1M memories a namespace's
keyword leg took 10-30 ms (docs/benchmarks.md, "Beside Chroma"). From
``KeywordSettings.min_memories`` live memories, a namespace is ranked instead by a
``term_index.TermBlock``: the same terms (``tokenize``) and the same BM25 as FTS5's,
from postings held in memory, where the top k cost a fraction of a millisecond.

FTS5 stays the store of record. The block is derived from the ``memories`` table and kept
in step through ``fts_log``, the change log ``fts.flush`` writes in the same transaction
as every index change: before each search the block applies what the log holds beyond
the last change it saw, whichever process wrote it. Whenever it cannot (the log was
pruned past it, a namespace was re-indexed, too much changed at once) the block is built
again on a worker thread and FTS5 answers meanwhile. Memory: about 8 bytes per
(term, memory) pair, ~350 MB at 1M memories of two chat turns each.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from engram.store.protocols.keyword import KeywordSettings
from engram.store.sqlite import change_log, term_snapshot
from engram.store.sqlite.db import Database
from engram.store.sqlite.snapshot import directory_for
from engram.store.sqlite.term_index import Doc, TermBlock
from engram.store.sqlite.term_snapshot import FILES
from engram.store.sqlite.tokenize import terms

log = logging.getLogger("engram.store")
T = TypeVar("T")

#: Changes applied to a block inside one search; more than this and the block is built
#: again in the background (applying costs ~20 µs a change, rebuilding ~40 µs a memory).
CATCH_UP_MAX = 5_000
_COLUMNS = "seq, id, content, title, narrative, facts, tags"


@dataclass
class _Entry:
    """One namespace's block, the last change-log row it reflects, and its build."""

    block: TermBlock | None = None
    log_id: int = 0
    build: threading.Thread | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class TermSearch(change_log.Blocks[_Entry]):
    """The term indexes of one SQLite store, namespace by namespace."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.settings = KeywordSettings()
        super().__init__()
        self.failures: list[str] = []
        self.builds = 0
        self.directory = directory_for(db.location)
        """Where built blocks are persisted (``term_snapshot``); None in memory."""
        self.loaded = 0
        self.load_ms: dict[str, float] = {}
        """Per namespace, how long reading its saved block took (``warm``)."""

    # -- search ---------------------------------------------------------------------
    def search(
        self, conn: sqlite3.Connection, namespace: str, query: Sequence[str] | None, limit: int
    ) -> list[tuple[str, float]] | None:
        """(id, BM25 >= 0) of the best ``limit`` live memories for the terms ``query``
        (``query_of``), or None when FTS5 must answer: a small namespace, a block still
        building, or no ``query`` (a keyword FTS5 reads as a phrase, ``snake_case``)."""
        entry = self._entry(conn, namespace) if query is not None else None

        def top(block: TermBlock, query: Sequence[str]) -> list[tuple[str, float]]:
            return [(block.ids[row], score) for row, score in block.top(query, limit)]

        return self._answer(conn, namespace, entry, query, top)

    def scores(
        self,
        conn: sqlite3.Connection,
        namespace: str,
        query: Sequence[str] | None,
        ids: Sequence[str],
    ) -> dict[str, float] | None:
        """Exact BM25 of ``ids`` (those that hold a query term), or None where
        ``search`` would be None."""

        def exact(block: TermBlock, query: Sequence[str]) -> dict[str, float]:
            live, rows = block.live_rows(ids)
            found = block.scores(query, rows)
            return {i: score for i, score in zip(live, found, strict=True) if score > 0}

        entry = self._entries.get(namespace)
        return self._answer(conn, namespace, entry, query, exact)

    def _answer(
        self,
        conn: sqlite3.Connection,
        namespace: str,
        entry: _Entry | None,
        query: Sequence[str] | None,
        answer: Callable[[TermBlock, Sequence[str]], T],
    ) -> T | None:
        """``answer(block, query)`` under the entry's lock once its block has caught up
        with the change log; None without a query, an entry or a current block."""
        if entry is None or query is None:
            return None
        with entry.lock:
            if entry.block is None or not self._catch_up(conn, namespace, entry):
                return None
            return answer(entry.block, query)

    def warm(self, namespace: str) -> None:
        """Read the namespace's saved block, if it has one and none is loaded, on a
        connection of its own: called before a search takes the shared keyword
        connection, so a cold load (~1 s at 1M memories) never makes other namespaces'
        keyword searches wait for it."""
        if self.directory is None or namespace in self._entries:
            return
        if not (self.directory / f"{term_snapshot.stem(namespace)}.json").is_file():
            return  # nothing saved: ``search`` decides, as before
        started = time.perf_counter()
        with self._db.side_snapshot("loading the term index") as conn:
            self._entry(conn, namespace)
        self.load_ms[namespace] = round((time.perf_counter() - started) * 1000, 1)

    def ready(self, namespace: str) -> bool:
        """Whether ``namespace`` is ranked from a built block (no SQL: a dict lookup)."""
        entry = self._entries.get(namespace)
        return entry is not None and entry.block is not None

    def _entry(self, conn: sqlite3.Connection, namespace: str) -> _Entry | None:
        """The namespace's entry, made (and its first build started) once it is large."""
        with self._lock:
            known, entry = self._sizes.known(self._entries, namespace)
        if known:
            return entry
        large = self._sizes.large(conn, namespace, self.settings.min_memories)
        saved = self._saved(namespace, conn) if large else None
        with self._lock:
            if not large:
                return None
            entry = self._entries.get(namespace)
            if entry is None:
                entry = self._entries[namespace] = _Entry()
                if saved is not None:  # searches catch it up from the change log
                    entry.block, entry.log_id = saved
                    self.loaded += 1
                else:
                    self._start_build(namespace, entry, conn)
            return entry

    def _saved(self, namespace: str, conn: sqlite3.Connection) -> tuple[TermBlock, int] | None:
        """The namespace's persisted block, or None (none, or unusable: then dropped)."""
        load = functools.partial(term_snapshot.load, namespace=namespace, conn=conn)
        return change_log.load_saved(self.directory, FILES, namespace, load, self.failures)

    def _persist(self, namespace: str, block: TermBlock, head: int) -> None:
        """Save a fresh build (before anything appends to it); never fails a search."""
        change_log.save_quietly(self.directory, FILES, namespace, block, head, self.failures)

    # -- keeping in step ------------------------------------------------------------
    def _catch_up(self, conn: sqlite3.Connection, namespace: str, entry: _Entry) -> bool:
        """Apply the logged changes the block has not seen; False (and a rebuild) when it
        cannot. Called with ``entry.lock`` held."""
        block = entry.block
        assert block is not None
        logged = change_log.since(conn, namespace, entry.log_id, CATCH_UP_MAX)
        if logged.remake is not None:
            return self._rebuild(namespace, entry, conn, logged.remake)
        if logged.head == entry.log_id:
            return True
        if logged.seqs:
            docs = _read(conn, namespace, sorted(logged.seqs))
            for seq in logged.seqs:
                block.remove(seq)
            block.append(docs)
        entry.log_id = logged.head
        if entry.build is None and (
            block.dead * 5 > block.size or block.appended * 4 > max(block.built_rows, 1)
        ):
            # Statistics drift as the block grows past its build (avgdl is the build's)
            # or fills with removed rows: build it afresh while this one answers.
            self._start_build(namespace, entry, conn)
        return True

    def _rebuild(self, namespace: str, entry: _Entry, conn: sqlite3.Connection, why: str) -> bool:
        log.info("term index of %r is rebuilt: %s", namespace, why)
        entry.block = None
        if entry.build is None:
            self._start_build(namespace, entry, conn)
        return entry.block is not None and self._catch_up(conn, namespace, entry)

    def _start_build(self, namespace: str, entry: _Entry, conn: sqlite3.Connection) -> None:
        """Build the block from a snapshot of the store: on a worker thread with its own
        connection, or in the caller (settings.background False, or an in-memory store
        whose one connection cannot be shared). The caller holds a lock on ``entry``
        or the registry, so builds never overlap."""
        location = self._db.location
        if not self.settings.background or location == ":memory:":
            block, head = _snapshot(conn, namespace)
            self._persist(namespace, block, head)
            self._land(entry, None, block, head)
            return

        def run() -> None:
            try:
                own = sqlite3.connect(
                    location, isolation_level=None, check_same_thread=False, timeout=30
                )
                try:
                    built = _snapshot(own, namespace)
                finally:
                    own.close()
                self._persist(namespace, *built)  # before any catch-up appends to it
            except Exception as exc:  # a failed build leaves FTS5 answering
                message = f"term index of {namespace!r}: {type(exc).__name__}: {exc}"
                log.warning(message)
                self.failures.append(message)
                with entry.lock:
                    if entry.build is thread:
                        entry.build = None
                return
            with entry.lock:
                self._land(entry, thread, *built)

        thread = threading.Thread(target=run, name="engram-term-build", daemon=True)
        entry.build = thread
        thread.start()

    def _land(
        self, entry: _Entry, thread: threading.Thread | None, block: TermBlock, head: int
    ) -> None:
        if entry.build is not thread:
            return  # dropped or superseded meanwhile
        entry.block, entry.log_id, entry.build = block, head, None
        self.builds += 1

    def invalidate(self) -> None:
        """Forget every block (they build again on next use)."""
        with self._lock:
            self._sizes.forget(self._entries)

    def state(self) -> dict[str, object]:
        """What ``doctor`` shows: the namespaces ranked in memory, builds, failures."""
        with self._lock:
            entries = dict(self._entries)
        state: dict[str, object] = {
            "ranks_in": "memory above min_memories, FTS5 below",
            "min_memories": self.settings.min_memories,
            "namespaces": {ns: e.block.live for ns, e in entries.items() if e.block},
            "building": sorted(ns for ns, e in entries.items() if e.build is not None),
            "builds": self.builds,
            "loaded_from_disk": self.loaded,
            "load_ms": dict(self.load_ms),
        }
        if self.failures:
            state["failures"] = self.failures[-3:]
        return state


def query_of(keywords: Sequence[str]) -> tuple[str, ...] | None:
    """The query's terms (what ``search`` and ``scores`` take), or None when a keyword
    is several terms to FTS5 (a phrase, such as ``snake_case``), which postings without
    positions cannot match. Not cached here: ``keyword._query`` keeps it per match."""
    query: list[str] = []
    for keyword in keywords:
        found = terms(keyword)
        if len(found) > 1:
            return None
        query.extend(found)
    return tuple(query)


def _snapshot(conn: sqlite3.Connection, namespace: str) -> tuple[TermBlock, int]:
    """A block of the namespace's live memories and the change-log row it reflects, both
    read in one snapshot."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        head = change_log.head(conn)
        docs = [
            Doc(row[0], row[1], tuple(row[2:]))
            for row in conn.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE namespace = ? AND deleted_at IS NULL "
                "ORDER BY seq",
                (namespace,),
            )
        ]
    finally:
        if own:
            conn.execute("COMMIT")
    return TermBlock(docs), int(head)


def _read(conn: sqlite3.Connection, namespace: str, seqs: Sequence[int]) -> list[Doc]:
    """The live ones of ``seqs`` in ``namespace``, in seq order."""
    return [
        Doc(row[0], row[1], tuple(row[2:]))
        for row in change_log.live_rows(conn, namespace, _COLUMNS, seqs)
    ]

"""Recall's per-candidate facts on SQLite, kept in memory until the database changes.

Every recall reads ``MemoryStore.facts`` (creation time, session, length, opening) of
its ~100 candidates. At 500k memories those rows sit on ~100 random pages of a
multi-GB file, past SQLite's page cache: the read was recall's largest single cost
after the model (0.8–1.3 ms at the median, a tail of page reads beyond it;
docs/benchmarks.md, "SQLite beside Chroma at 500k"). Candidates recur between
questions (35% of the facts 200 LoCoMo questions asked of the 500k store had been
read by an earlier one), and far more for an agent asking about one conversation.

The facts read are kept per (namespace, id) and answered from memory while the
database is unchanged: the cache's version is the main connection's own change count
(``total_changes``) and ``PRAGMA data_version`` (which moves when any other
connection, of this process or another, commits). Any write anywhere empties it, so
it never answers with facts a write has changed; reads inside a transaction bypass
it (they may see writes a rollback undoes). It holds at most ``LIMIT`` entries and
starts again empty when full.

A namespace of ``fact_index.MIN_MEMORIES`` memories or more answers from its
``FactBlock`` instead once that is loaded: every candidate's facts from arrays, no row
read (``fact_index``, kept current through ``fts_log``). A changed session id is logged
there by ``update``, in the update's transaction, since the log's triggers follow only
a memory's text and its deletion.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from engram.records import MemoryRecord
from engram.store.protocols.memories import FactColumns, MemoryFacts
from engram.store.sql.memories import SqlMemories
from engram.store.sql.session import Sql
from engram.store.sqlite.db import Database
from engram.store.sqlite.fact_index import FactIndex

#: Entries kept (about 0.5 KB each: id, session, 64-character opening, datetime).
LIMIT = 100_000

Version = tuple[sqlite3.Connection, int, int]
#: The columns a fact block holds that ``fts_log``'s triggers do not follow (they follow
#: a memory's text and its deletion): ``update`` logs a change of these itself.
_BLOCK_FIELDS = frozenset({"session_id", "source_memory_id"})


def data_version(db: Database) -> Version | None:
    """The database's version: what is read while it holds stays valid (the main
    connection's own changes and ``PRAGMA data_version``, which moves when any other
    connection commits); None inside a transaction, whose reads may see writes a
    rollback undoes."""
    with db.read("reading the data version") as conn:
        if conn.in_transaction:
            return None
        row = conn.execute("PRAGMA data_version").fetchone()
        # The connection itself: a reopened one counts its changes from 0 again.
        return conn, conn.total_changes, int(row[0])


class SQLiteMemories(SqlMemories):
    """``SqlMemories`` whose ``facts`` read each memory once while nothing changes."""

    def __init__(self, sql: Sql, db: Database, limit: int = LIMIT) -> None:
        super().__init__(sql)
        self._db = db
        self._limit = limit
        self._lock = threading.Lock()
        self._version: Version | None = None
        self._entries: dict[tuple[str, str], MemoryFacts] = {}
        self.hits = 0
        self.misses = 0
        self.blocks = FactIndex(db)
        """Large namespaces' facts as arrays (``fact_index``)."""

    def facts(self, namespace: str, memory_ids: Sequence[str]) -> FactColumns:
        version = self._current()
        if version is None:
            return super().facts(namespace, memory_ids)
        ids = list(dict.fromkeys(memory_ids))
        with self._db.read("reading recall's facts") as conn:
            answered = self.blocks.facts(conn, namespace, ids, version)
        if answered is not None:
            return answered
        with self._lock:
            if version != self._version:
                self._entries = {}
                self._version = version
            entries = self._entries
            known = {i: f for i in ids if (f := entries.get((namespace, i))) is not None}
        missing = [i for i in ids if i not in known]
        read = self.fact_rows(namespace, missing) if missing else {}
        with self._lock:
            self.hits += len(known)
            self.misses += len(missing)
            # Read after ``version`` was: never older than the version they are kept under.
            if self._version == version and read:
                if len(self._entries) + len(read) > self._limit:
                    self._entries = {}
                self._entries.update(((namespace, i), f) for i, f in read.items())
        return FactColumns.of({i: f for i in ids if (f := known.get(i) or read.get(i)) is not None})

    def get_many(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Live memories of ``namespace`` by id; unknown ids are left out."""
        # ``SqlMemories.get_many``, reading the rows of memories whose facts the
        # namespace's block gathered before (recall's pool: every candidate's facts were
        # read in the same recall) by their seq, the table's own key: the unique id
        # index's search skipped, a row each (docs/benchmarks.md, "The fuse stage's cold
        # reads"). A row found there counts only if it holds the id asked for (ids are
        # unique: then it is that memory's row), live in ``namespace``; the other ids are
        # read by id as before, and the answer keeps the order the id reads give.
        ids = list(dict.fromkeys(memory_ids))
        at = self.blocks.seqs_met(namespace, ids) if ids else {}
        if not at:
            return super().get_many(namespace, ids)
        d = self._d
        seqs = list(at.values())
        found = self.records_where(namespace, (d.one_of("m.seq", c) for c in d.chunks(seqs)), at)
        rest = [i for i in ids if i not in found]
        if rest:
            found.update(super().get_many(namespace, rest))
        # SQLite answers ``id IN (...)`` in the id index's order, a slice at a time.
        return {i: found[i] for c in d.chunks(ids) for i in sorted(c) if i in found}

    def _current(self) -> Version | None:
        """The version the kept facts are valid for, or None inside a transaction."""
        return data_version(self._db)

    def update(
        self, namespace: str, memory_id: str, changes: Mapping[str, Any], **options: Any
    ) -> tuple[MemoryRecord, MemoryRecord]:
        if not _BLOCK_FIELDS.intersection(changes):
            return super().update(namespace, memory_id, changes, **options)
        with self._sql.tx("update") as conn:
            done = super().update(namespace, memory_id, changes, **options)
            # fts_log's triggers follow text and deletion only: the fact blocks of
            # every process learn of a new session id or source memory from this row
            # (``fact_index``).
            conn.execute(
                "INSERT INTO fts_log(namespace, seq) SELECT namespace, seq FROM memories "
                "WHERE namespace = ? AND id = ?",
                (namespace, memory_id),
            )
        return done

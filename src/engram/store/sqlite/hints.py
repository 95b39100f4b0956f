"""SQLite's half of hints (seed 004's prospective index): one FTS5 index of hints per
namespace. The ``memory_hints`` rows themselves are written and read by
``engram.store.sql.hints``, for both engines; this module keeps their index and
searches it.

seed 004 keeps one ``memory_hints_fts`` index; engram keeps one per namespace, for the
reason ``fts`` gives for content: BM25 weighs a term by its rarity among the documents
of its index, so one tenant's hints must not shift another's scores. Each namespace's
index is a plain FTS5 table (it holds its own copy of the hint text) whose rowid is the
hint row's id, so an entry can be removed knowing only that id.

Purging a memory deletes its hint rows by ``ON DELETE CASCADE``; a trigger queues each
deleted row in ``hint_fts_pending``, and every hint write applies the queue to the
namespaces' indexes (:func:`flush`) before it commits. Until then a purged hint's entry
can linger in its index, but it never matches: search joins every entry to its live
hint row and live memory. Tombstoned memories keep their hints (they are not searched)
until they are purged.
"""

from __future__ import annotations

import sqlite3
from typing import cast

from engram.store.protocols.hints import MAX_HINTS
from engram.store.sql.dialect import Conn
from engram.store.sqlite.db import Database
from engram.store.sqlite.fts import COMMON, _count, _quote, namespace_table
from engram.store.sqlite.tokenize import TOKENIZE
from engram.text import match_terms


def table_for(conn: sqlite3.Connection, namespace: str, *, create: bool) -> str | None:
    """The hint FTS5 table of ``namespace``; created if ``create``, else None if the
    namespace has never held hints (the cheap "no hints here" answer recall relies on)."""
    return namespace_table(
        conn,
        namespace,
        ("hint_namespaces", "hint_fts_"),
        f"hint, tokenize='{TOKENIZE}'",
        create=create,
    )


def flush(conn: sqlite3.Connection) -> int:
    """Remove queued (deleted) hint rows from their indexes, inside the caller's
    transaction; returns how many."""
    rows = conn.execute("SELECT namespace, hint_id FROM hint_fts_pending").fetchall()
    if not rows:
        return 0
    by_namespace: dict[str, list[tuple[int]]] = {}
    for namespace, hint_id in rows:
        by_namespace.setdefault(namespace, []).append((int(hint_id),))
    for namespace, ids in by_namespace.items():
        table = table_for(conn, namespace, create=False)
        if table is not None:
            conn.executemany(f"DELETE FROM {table} WHERE rowid = ?", ids)
    conn.execute("DELETE FROM hint_fts_pending")
    return len(rows)


def search(
    conn: sqlite3.Connection, namespace: str, match: str, limit: int
) -> list[tuple[str, float]]:
    """(memory id, -bm25 of its best hint) of live memories of ``namespace``, best first.

    Terms held by ``COMMON`` or more hints of the namespace are left out when a rarer
    term remains, as ``fts.search`` does for content (a speaker's name can sit in most
    hints of a chat; its IDF is near zero and its posting list long).
    """
    table = table_for(conn, namespace, create=False)
    if table is None or limit <= 0:
        return []
    terms = match_terms(match)
    if len(terms) > 1:
        counts = [(t, _count(conn, table, t, COMMON)) for t in terms]
        present = [t for t, n in counts if n]
        rare = [t for t, n in counts if 0 < n < COMMON]
        if rare and len(rare) < len(present):
            match = " OR ".join(_quote(t) for t in rare)
    # A memory holds at most MAX_HINTS hints, so its best hint is among the top
    # limit * MAX_HINTS entries whenever the memory is among the top ``limit``: ranking
    # that many entries and keeping each memory's best is exact.
    rows = conn.execute(
        f"SELECT h.memory_id, min(f.s) AS best FROM (SELECT rowid, bm25({table}) AS s "
        f"FROM {table} WHERE {table} MATCH ? ORDER BY s LIMIT ?) f "
        "JOIN memory_hints h ON h.id = f.rowid "
        "JOIN memories m ON m.id = h.memory_id AND m.deleted_at IS NULL "
        "GROUP BY h.memory_id ORDER BY best, h.memory_id LIMIT ?",
        (match, limit * MAX_HINTS, limit),
    ).fetchall()
    return [(r[0], -float(r[1])) for r in rows]


class SQLiteHintIndex:
    """``engram.store.sql.hints.HintIndex`` on SQLite: the namespaces' FTS5 tables.

    Search reads through the backend's second connection, like keyword search, so
    recall can rank hints beside the dense leg.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    def forget(self, conn: Conn) -> None:
        flush(cast(sqlite3.Connection, conn))

    def add(self, conn: Conn, namespace: str, memory_id: str) -> None:
        raw = cast(sqlite3.Connection, conn)
        table = table_for(raw, namespace, create=True)
        raw.execute(
            f"INSERT INTO {table}(rowid, hint) SELECT id, hint FROM memory_hints "
            "WHERE memory_id = ? ORDER BY id",
            (memory_id,),
        )

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        with self._db.search("hint search") as conn:
            return search(conn, namespace, match, limit)

"""Keyword search on SQLite: one FTS5 index per namespace.

BM25 weighs a term by its rarity (IDF) among the documents of its index. With one index
for the whole store, a name that fills one user's memories is rare store-wide, so it
swamps that user's rankings, and one tenant's vocabulary shifts another's scores. One
index per namespace keeps every statistic inside the namespace (measured on LoCoMo:
turn recall@10 0.76 -> 0.80 with session context) and a query reads only that
namespace's postings.

Triggers on ``memories`` cannot name a table per namespace, so they queue each change
in ``fts_pending`` (old values for a removal, new for an addition) and
:func:`flush` applies the queue to the namespaces' indexes inside the same
transaction, before it commits. Every writer is covered, whatever its path.
"""

from __future__ import annotations

import itertools
import operator
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from engram.store.sqlite.tokenize import TOKENIZE
from engram.text import match_terms

COLUMNS = ("content", "title", "narrative", "facts", "tags")
# seed 000 ranks title matches above body matches: title 2, tags 0.5, in column order.
WEIGHTS = "1.0, 2.0, 1.0, 1.0, 0.5"

_COLS = ", ".join(COLUMNS)
#: A query term held by at least this many memories of a namespace is "common".
COMMON = 1000
#: When every query term is common, BM25 ranks only the newest this many memories that
#: hold the rarest terms. Ranking is what costs: the two rarest terms of an all-common
#: query ("What pet does Caroline have?" at 100k: 17,700 matches) took 150-400 ms on two
#: busy cores. Measured at 100k, interleaved: keyword p95 109 -> 61 ms, its top 50 the
#: same as unbounded for 85% (docs/benchmarks.md, "Scale"); the dense leg still finds
#: older memories. Namespaces under ``COMMON`` memories are never affected.
COMMON_WINDOW = 2 * COMMON
#: Rows of ``fts_log`` kept, and how often (in logged changes) older ones are pruned.
LOG_KEEP = 200_000
LOG_PRUNE_EVERY = 1024


def table_for(conn: sqlite3.Connection, namespace: str, *, create: bool) -> str | None:
    """The FTS5 table of ``namespace``; created if ``create``, else None if it has none."""
    return namespace_table(
        conn,
        namespace,
        ("fts_namespaces", "fts_"),
        f"{_COLS}, content='memories', content_rowid='seq', tokenize='{TOKENIZE}'",
        create=create,
    )


def namespace_table(
    conn: sqlite3.Connection,
    namespace: str,
    names: tuple[str, str],
    fts5: str,
    *,
    create: bool,
) -> str | None:
    """The FTS5 table of ``namespace`` named in ``names`` (the registry table giving
    each namespace its number, and the table names' prefix); created with the
    ``fts5(...)`` arguments ``fts5`` if ``create``, else None if it has none."""
    registry, prefix = names
    row = conn.execute(f"SELECT id FROM {registry} WHERE namespace = ?", (namespace,)).fetchone()
    if row is not None:
        return f"{prefix}{int(row[0])}"
    if not create:
        return None
    cur = conn.execute(f"INSERT INTO {registry}(namespace) VALUES (?)", (namespace,))
    name = f"{prefix}{int(cur.lastrowid or 0)}"
    conn.execute(f"CREATE VIRTUAL TABLE {name} USING fts5({fts5})")
    return name


def flush(conn: sqlite3.Connection) -> int:
    """Apply queued index changes inside the caller's transaction; returns how many."""
    rows = conn.execute(
        f"SELECT op, namespace, seq, {_COLS} FROM fts_pending ORDER BY id"
    ).fetchall()
    if not rows:
        return 0
    tables: dict[str, str] = {}
    # In queue order, one ``executemany`` per run of one operation on one namespace (a
    # batch of adds is one run).
    for (op, namespace), run in itertools.groupby(rows, key=operator.itemgetter(0, 1)):
        table = tables.get(namespace)
        if table is None:
            table = tables[namespace] = table_for(conn, namespace, create=True) or ""
        if op == "add":
            sql = f"INSERT INTO {table}(rowid, {_COLS}) VALUES (?, ?, ?, ?, ?, ?)"
        else:
            sql = (
                f"INSERT INTO {table}({table}, rowid, {_COLS}) VALUES ('delete', ?, ?, ?, ?, ?, ?)"
            )
        conn.executemany(sql, [row[2:] for row in run])
    # The change log the in-memory term index catches up from (``term_search``), kept
    # to its last LOG_KEEP rows: a reader further behind than that rebuilds instead.
    cur = conn.execute(
        "INSERT INTO fts_log(namespace, seq) SELECT DISTINCT namespace, seq FROM fts_pending"
    )
    last = cur.lastrowid or 0
    if last % LOG_PRUNE_EVERY < len(rows):
        conn.execute("DELETE FROM fts_log WHERE id <= ?", (last - LOG_KEEP,))
    conn.execute("DELETE FROM fts_pending")
    return len(rows)


class TermCounts:
    """Full document counts of common terms, each kept for ``ttl`` seconds (LRU-bounded).

    Choosing the two rarest of an all-common query's terms needs their full counts, and
    counting reads a term's whole posting list: at 1M memories a speaker's name is held
    by 350,000 and counting the terms took 12 of the keyword leg's 24 ms at the median
    (docs/benchmarks.md, "Beside Chroma"). The same names come back query after query.
    A count a minute old picks the same terms, or nearly: it only chooses which terms
    rank, never a score, so staleness cannot make a result wrong."""

    def __init__(
        self, size: int = 4096, ttl: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._size, self._ttl, self._clock = size, ttl, clock
        self._counts: OrderedDict[tuple[str, str], tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, conn: sqlite3.Connection, table: str, term: str) -> int:
        """How many documents of ``table`` hold ``term`` (counted at most once per ttl)."""
        key, now = (table, term), self._clock()
        with self._lock:
            kept = self._counts.get(key)
            if kept is not None and now - kept[0] < self._ttl:
                self._counts.move_to_end(key)
                return kept[1]
        n = _count(conn, table, term, None)
        with self._lock:
            self._counts[key] = (now, n)
            self._counts.move_to_end(key)
            while len(self._counts) > self._size:
                self._counts.popitem(last=False)
        return n


def search(
    conn: sqlite3.Connection,
    namespace: str,
    match: str,
    limit: int,
    term_counts: TermCounts,
) -> list[tuple[str, float]]:
    """(memory id, -bm25) of live memories of ``namespace`` matching ``match``, best first.

    FTS5 ranks every document that holds any query term, so one term found in tens of
    thousands of memories (the speaker's name in every turn of a chat) costs tens of
    milliseconds. Terms held by at least ``COMMON`` memories of the namespace are left
    out of the match when a rarer term remains: their IDF is small (at most
    ln(N / COMMON)), so the ranking barely moves, and the query reads only short
    posting lists. Namespaces smaller than ``COMMON`` are never affected.
    ``term_counts`` keeps the full counts an all-common query needs (see
    :class:`TermCounts`); the caller owns it, one per store.
    """
    table = table_for(conn, namespace, create=False)
    if table is None:
        return []
    terms = match_terms(match)
    newest: int | None = None
    if len(terms) > 1:
        counts = [_count(conn, table, term, COMMON) for term in terms]
        present = [(t, n) for t, n in zip(terms, counts, strict=True) if n]
        rare = [t for t, n in present if n < COMMON]
        all_common = not rare and bool(present)
        if not rare and len(present) > 2:
            # Every term is common: rank by the two rarest.
            rare = _rarest(conn, table, [t for t, _ in present], 2, term_counts)
        if rare and len(rare) < len(present):
            match = " OR ".join(_quote(t) for t in rare)
        if all_common and COMMON_WINDOW:
            newest = _window_start(conn, table, match, COMMON_WINDOW)
    # Rank inside the index first and join only the top rows: joining every match to
    # ``memories`` before sorting costs more than the ranking itself.
    window = "" if newest is None else f" AND rowid >= {int(newest)}"
    rows = conn.execute(
        f"SELECT m.id, f.s FROM (SELECT rowid, bm25({table}, {WEIGHTS}) AS s FROM {table} "
        f"WHERE {table} MATCH ?{window} ORDER BY s LIMIT ?) f JOIN memories m "
        "ON m.seq = f.rowid WHERE m.deleted_at IS NULL ORDER BY f.s",
        (match, limit),
    ).fetchall()
    return [(r[0], -float(r[1])) for r in rows]


def _window_start(conn: sqlite3.Connection, table: str, match: str, size: int) -> int | None:
    """The rowid of the ``size``-th newest memory matching ``match`` (None if fewer).

    FTS5 walks a match in rowid order without ranking it, so this costs a fraction of
    ranking the same rows."""
    row = conn.execute(
        f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        (match, size - 1),
    ).fetchone()
    return None if row is None else int(row[0])


def _rarest(
    conn: sqlite3.Connection, table: str, terms: list[str], k: int, counts: TermCounts
) -> list[str]:
    """The ``k`` of ``terms`` held by the fewest documents (ties by term), rarest first.

    Each term is counted up to ``4 * COMMON`` first; only when fewer than ``k`` fall
    under that does a term need its full count (from ``counts``). Every term at the cap
    holds more documents than any term under it, so the choice is the one full counts
    would make."""
    cap = 4 * COMMON
    capped = [(_count(conn, table, t, cap), t) for t in terms]
    known = [(n, t) for n, t in capped if n < cap]
    if len(known) < k:
        known += [(counts.get(conn, table, t), t) for n, t in capped if n >= cap]
    return [t for _, t in sorted(known)[:k]]


def _count(conn: sqlite3.Connection, table: str, term: str, cap: int | None) -> int:
    """How many rows of the FTS5 ``table`` hold ``term``, counting at most ``cap``
    (memories here, hints in ``hints``)."""
    limit = "" if cap is None else f" LIMIT {int(cap)}"
    row = conn.execute(
        f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {table} MATCH ?{limit})",
        (_quote(term),),
    ).fetchone()
    return int(row[0])


def _quote(term: str) -> str:
    """``term`` as one FTS5 string (its quotes doubled), never read as syntax."""
    return '"' + term.replace('"', '""') + '"'


def rebuild(conn: sqlite3.Connection) -> None:
    """Re-index every live memory, namespace by namespace (migrations and repair)."""
    conn.execute("DELETE FROM fts_pending")
    namespaces = [r[0] for r in conn.execute("SELECT DISTINCT namespace FROM memories")]
    # Migrations older than the log rebuild too; a log row tells term indexes to rebuild.
    logged = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'fts_log'").fetchone()
    for namespace in namespaces:
        table = table_for(conn, namespace, create=True)
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('delete-all')")
        conn.execute(
            f"INSERT INTO {table}(rowid, {_COLS}) SELECT seq, {_COLS} FROM memories "
            "WHERE namespace = ? AND deleted_at IS NULL",
            (namespace,),
        )
        if logged:
            conn.execute("INSERT INTO fts_log(namespace, seq) VALUES (?, NULL)", (namespace,))


def index_counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """(rows the keyword indexes hold, sum of |indexed - live| per namespace)."""
    per_ns = dict(
        conn.execute(
            "SELECT namespace, count(*) FROM memories WHERE deleted_at IS NULL GROUP BY namespace"
        ).fetchall()
    )
    indexed = 0
    mismatch = 0
    for ident, namespace in conn.execute("SELECT id, namespace FROM fts_namespaces").fetchall():
        # The docsize shadow table has one row per indexed document.
        (rows,) = conn.execute(f"SELECT count(*) FROM fts_{int(ident)}_docsize").fetchone()
        indexed += int(rows)
        mismatch += abs(int(rows) - int(per_ns.pop(namespace, 0)))
    return indexed, mismatch + sum(int(n) for n in per_ns.values())  # + unindexed namespaces


def integrity_check(conn: sqlite3.Connection) -> None:
    """Run FTS5's integrity check on every namespace index (raises if one is damaged)."""
    for (ident,) in conn.execute("SELECT id FROM fts_namespaces").fetchall():
        table = f"fts_{int(ident)}"
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")

"""SQLite schema migrations: named, ordered functions recorded in ``schema_migrations``.

Opening an older database applies whatever it lacks, in order, each in its own
transaction. Never edit a migration that has shipped; add a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime

from engram.errors import MigrationError
from engram.store.sqlite.steps import (
    Migration,
    m001_memories,
    m002_fts,
    m003_vectors_feedback,
    m004_provenance,
    m005_fts_update_trigger,
    m006_api_keys_transcripts,
    m007_session_index,
    m008_namespace_fts,
    m009_unembedded,
    m010_jobs,
    m011_hints,
    m012_documents,
    m013_graph,
    m014_review,
)
from engram.store.sqlite.steps_blocks import m025_core_blocks
from engram.store.sqlite.steps_chunks import m018_chunk_vectors
from engram.store.sqlite.steps_erase import m021_erase_audit
from engram.store.sqlite.steps_graph import m015_graph_aspects
from engram.store.sqlite.steps_lifecycle import m026_lifecycle
from engram.store.sqlite.steps_maintenance import m027_maintenance
from engram.store.sqlite.steps_org import m024_org_memory
from engram.store.sqlite.steps_palace import m016_palace
from engram.store.sqlite.steps_review import m020_review_prune
from engram.store.sqlite.steps_runs import m019_runs
from engram.store.sqlite.steps_sessions import m022_sessions
from engram.store.sqlite.steps_shared import m023_shared_knowledge
from engram.store.sqlite.steps_terms import m028_fts_log

MIGRATIONS: list[tuple[str, Migration]] = [
    ("001_memories", m001_memories),
    ("002_fts", m002_fts),
    ("003_vectors_feedback", m003_vectors_feedback),
    ("004_provenance", m004_provenance),
    ("005_fts_update_trigger", m005_fts_update_trigger),
    ("006_api_keys_transcripts", m006_api_keys_transcripts),
    ("007_session_index", m007_session_index),
    ("008_namespace_fts", m008_namespace_fts),
    ("009_unembedded", m009_unembedded),
    ("010_jobs", m010_jobs),
    ("011_hints", m011_hints),
    ("012_documents", m012_documents),
    ("013_graph", m013_graph),
    ("014_review", m014_review),
    ("015_graph_aspects", m015_graph_aspects),
    ("016_palace", m016_palace),
    ("018_chunk_vectors", m018_chunk_vectors),
    ("019_runs", m019_runs),
    ("020_review_prune", m020_review_prune),
    ("021_erase_audit", m021_erase_audit),
    ("022_sessions", m022_sessions),
    ("023_shared_knowledge", m023_shared_knowledge),
    ("024_org_memory", m024_org_memory),
    ("025_core_blocks", m025_core_blocks),
    ("026_lifecycle", m026_lifecycle),
    ("027_maintenance", m027_maintenance),
    ("028_fts_log", m028_fts_log),
]


def applied(conn: sqlite3.Connection) -> list[str]:
    """Names of the migrations this database has, in order."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    return [row[0] for row in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]


def _refuse_unknown(names: Iterable[str]) -> None:
    """``MigrationError`` if the database records a migration this engram lacks."""
    unknown = set(names) - {name for name, _ in MIGRATIONS}
    if unknown:
        raise MigrationError(
            f"this database has migrations {sorted(unknown)} that this engram does not know; "
            "it was written by a newer engram: upgrade engram to open it"
        )


def _apply(conn: sqlite3.Connection, name: str, fn: Migration) -> bool:
    """Apply one migration in its own ``BEGIN IMMEDIATE`` transaction, unless another
    connection has applied it meanwhile; returns whether this call applied it.

    Another process may open the same file at the same moment, so what ``migrate`` read
    before is only a hint: the write lock serialises the openers, and the applied set is
    read again under it, so exactly one of them runs each migration.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")  # waits up to the connection's busy timeout
    except sqlite3.Error as exc:
        raise MigrationError(f"migration {name} could not start: {exc}") from exc
    try:
        done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
        _refuse_unknown(done)  # a newer engram may have upgraded the file meanwhile
        if name in done:
            conn.execute("COMMIT")
            return False
        fn(conn)
        conn.execute(
            "INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)",
            (name, datetime.now(UTC).isoformat()),
        )
        conn.execute("COMMIT")
    except BaseException as exc:
        # A failed COMMIT or statement may already have ended the transaction.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(f"migration {name} failed: {exc}") from exc
        raise
    return True


def migrate(conn: sqlite3.Connection, *, upto: str | None = None) -> list[str]:
    """Apply missing migrations (through ``upto`` if given); returns the names applied.

    Safe when several processes open one file at once: each migration is re-checked
    inside its own write transaction, so one of them applies it and the others skip it
    (and leave it out of what they return). A store that has every migration takes no
    write lock at all.
    """
    done = set(applied(conn))
    _refuse_unknown(done)
    ran: list[str] = []
    for name, fn in MIGRATIONS:
        if name not in done and _apply(conn, name, fn):
            ran.append(name)
        if name == upto:
            break
    return ran


def current_version(conn: sqlite3.Connection) -> str:
    """The last applied migration's name, or ``"none"``."""
    names = applied(conn)
    return names[-1] if names else "none"

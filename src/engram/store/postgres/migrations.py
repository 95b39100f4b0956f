"""PostgreSQL schema migrations: named, ordered functions recorded in ``schema_migrations``.

The same discipline as the SQLite set (``engram.store.sqlite.migrations``), written for
PostgreSQL: each migration runs in its own transaction (DDL is transactional here), and a
session advisory lock serialises engram processes that open the same database at once.
Never edit a migration that has shipped; add a new one.

Schema notes:

- Identifier columns (ids, namespaces, hashes, session keys) use the "C" collation:
  byte order, as SQLite compares them, so keyset paging by id agrees on both backends.
- JSON fields (``facts``, ``tags``, ``metadata``, history ``before``/``after``) are ``json``,
  not ``jsonb``: ``json`` keeps the text verbatim (key order, number spelling), so a
  record reads back exactly as SQLite returns it and ``migrate-store`` is lossless.
- ``search`` is a ``tsvector`` kept by a trigger (not a generated column, which
  PostgreSQL would recompute on every update, e.g. when a vector is stored). Its text is
  folded by ``engram_fold`` the way FTS5's ``unicode61 remove_diacritics 2`` tokenizer
  splits and folds, and stemmed by a snowball dictionary without a stop-word list, like
  FTS5's ``porter`` (engram drops stop words from queries, not from the index).
- Vectors live in one table with an untyped ``vector`` column; each (model, dimension)
  gets its own partial HNSW index on ``embedding::vector(N)`` (pgvector's documented
  pattern for several dimensions), created by the store when that model is first used.
"""

from __future__ import annotations

import psycopg

from engram.errors import MigrationError
from engram.store.postgres.steps import (
    LOCK_KEY,
    Migration,
    m001_memories,
    m002_keyword_search,
    m003_vectors_feedback,
    m004_api_keys_transcripts,
    m005_unembedded,
    m006_jobs,
    m007_hints,
    m008_documents,
    m009_graph,
    m010_review,
)
from engram.store.postgres.steps_blocks import m021_core_blocks
from engram.store.postgres.steps_chunks import m014_chunk_vectors
from engram.store.postgres.steps_erase import m017_erase_audit
from engram.store.postgres.steps_graph import m011_graph_aspects
from engram.store.postgres.steps_lifecycle import m022_lifecycle
from engram.store.postgres.steps_maintenance import m023_maintenance
from engram.store.postgres.steps_org import m020_org_memory
from engram.store.postgres.steps_palace import m012_palace
from engram.store.postgres.steps_review import m016_review_prune
from engram.store.postgres.steps_runs import m015_runs
from engram.store.postgres.steps_sessions import m018_sessions
from engram.store.postgres.steps_shared import m019_shared_knowledge

MIGRATIONS: list[tuple[str, Migration]] = [
    ("001_memories", m001_memories),
    ("002_keyword_search", m002_keyword_search),
    ("003_vectors_feedback", m003_vectors_feedback),
    ("004_api_keys_transcripts", m004_api_keys_transcripts),
    ("005_unembedded", m005_unembedded),
    ("006_jobs", m006_jobs),
    ("007_hints", m007_hints),
    ("008_documents", m008_documents),
    ("009_graph", m009_graph),
    ("010_review", m010_review),
    ("011_graph_aspects", m011_graph_aspects),
    ("012_palace", m012_palace),
    ("014_chunk_vectors", m014_chunk_vectors),
    ("015_runs", m015_runs),
    ("016_review_prune", m016_review_prune),
    ("017_erase_audit", m017_erase_audit),
    ("018_sessions", m018_sessions),
    ("019_shared_knowledge", m019_shared_knowledge),
    ("020_org_memory", m020_org_memory),
    ("021_core_blocks", m021_core_blocks),
    ("022_lifecycle", m022_lifecycle),
    ("023_maintenance", m023_maintenance),
]


def applied(conn: psycopg.Connection) -> list[str]:
    """Names of the migrations this database has, in order."""
    with conn.transaction():
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        rows = conn.execute(
            'SELECT name FROM schema_migrations ORDER BY name COLLATE "C"'
        ).fetchall()
    return [str(r[0]) for r in rows]


def migrate(conn: psycopg.Connection, *, upto: str | None = None) -> list[str]:
    """Apply missing migrations (through ``upto`` if given); returns the names applied.

    ``conn`` must be in autocommit mode: each migration gets its own transaction.
    """
    conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
    try:
        done = set(applied(conn))
        known = [name for name, _ in MIGRATIONS]
        unknown = done - set(known)
        if unknown:
            raise MigrationError(
                f"this database has migrations {sorted(unknown)} that this engram does not "
                "know; it was written by a newer engram: upgrade engram to open it"
            )
        ran: list[str] = []
        for name, fn in MIGRATIONS:
            if name in done:
                continue
            try:
                with conn.transaction():
                    fn(conn)
                    conn.execute("INSERT INTO schema_migrations(name) VALUES (%s)", (name,))
            except psycopg.errors.InsufficientPrivilege as exc:
                raise MigrationError(
                    f"migration {name} needs a privilege this role lacks ({exc}); have a "
                    "database owner run `CREATE EXTENSION vector` once, or open engram "
                    "as the owner"
                ) from exc
            except psycopg.Error as exc:
                raise MigrationError(f"migration {name} failed: {exc}") from exc
            ran.append(name)
            if name == upto:
                break
        return ran
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))


def current_version(conn: psycopg.Connection) -> str:
    """The last applied migration's name, or ``"none"``."""
    names = applied(conn)
    return names[-1] if names else "none"

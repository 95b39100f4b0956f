"""Schema migrations of both engines: one ordered list of named steps, recorded in
``schema_migrations``, and the runner.

Opening an older database applies whatever it lacks, in order, each step in its own
transaction. Never edit a step that has shipped; add a new one (with the same name on
both engines) at the end of :data:`STEPS`.

The two engines shipped their steps under their own numbers before they shared this
list, and a database records the names it has, so each :class:`Step` names itself per
engine; a step one engine never had (SQLite's FTS5 repairs, say) has no name there.
PostgreSQL's ``001_memories`` made what SQLite's 001, 004 and 007 made.

The runner is shared; only its locking is each engine's own. SQLite takes ``BEGIN
IMMEDIATE`` per step and reads the applied set again under it, so when several processes
open one new file at once, exactly one of them runs each step (and a store that has
every step takes no write lock at all). PostgreSQL runs DDL in a transaction too, and a
session advisory lock serialises engram processes that open one database at once.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engram.errors import MigrationError
from engram.store.sql.chat import m030_chat_settings
from engram.store.sql.dialect import Dialect
from engram.store.sql.palace_turns import m034_palace_mined_seq
from engram.store.sql.schedule_leases import m035_schedule_leases
from engram.store.sql.steps import (
    Migration,
    m001_memories,
    m003_vectors_feedback,
    m004_provenance,
    m006_api_keys_transcripts,
    m007_session_index,
    m009_unembedded,
)
from engram.store.sql.steps_agents import (
    m022_sessions,
    m023_shared_knowledge,
    m024_org_memory,
    m025_core_blocks,
    m026_lifecycle,
    m027_maintenance,
    m029_job_history,
)
from engram.store.sql.steps_graph import m013_graph, m015_graph_aspects, m032_relations_by_type
from engram.store.sql.steps_keyword import (
    m002_keyword_search,
    m005_fts_update_trigger,
    m008_namespace_fts,
    m011_hints,
    m028_fts_log,
    m031_keyword_terms,
)
from engram.store.sql.steps_parts import (
    m010_jobs,
    m012_documents,
    m014_review,
    m016_palace,
    m018_chunk_vectors,
    m019_runs,
    m020_review_prune,
    m021_erase_audit,
    m038_documents_source,
    m039_runs_agent,
    m040_checkpoints_agent,
    m041_api_keys_agent,
)
from engram.store.sql.steps_search import m033_memory_search, m037_keyword_bm25
from engram.store.sql.steps_vectors import m036_bulk_vector_epoch

#: pg_advisory_lock key that serialises PostgreSQL migrations ("engram" in ASCII).
LOCK_KEY = 0x656E6772616D


@dataclass(frozen=True, slots=True)
class Step:
    """One schema step: the name each engine records it under (None: the engine does
    not have it) and the function that makes it."""

    sqlite: str | None
    postgres: str | None
    run: Migration


# fmt: off
#: Every step, in order.
STEPS: tuple[Step, ...] = (
    #     SQLite                       PostgreSQL
    Step("001_memories",              "001_memories",              m001_memories),
    Step("002_fts",                   "002_keyword_search",        m002_keyword_search),
    Step("003_vectors_feedback",      "003_vectors_feedback",      m003_vectors_feedback),
    Step("004_provenance",            None,                        m004_provenance),
    Step("005_fts_update_trigger",    None,                        m005_fts_update_trigger),
    Step("006_api_keys_transcripts",  "004_api_keys_transcripts",  m006_api_keys_transcripts),
    Step("007_session_index",         None,                        m007_session_index),
    Step("008_namespace_fts",         None,                        m008_namespace_fts),
    Step("009_unembedded",            "005_unembedded",            m009_unembedded),
    Step("010_jobs",                  "006_jobs",                  m010_jobs),
    Step("011_hints",                 "007_hints",                 m011_hints),
    Step("012_documents",             "008_documents",             m012_documents),
    Step("013_graph",                 "009_graph",                 m013_graph),
    Step("014_review",                "010_review",                m014_review),
    Step("015_graph_aspects",         "011_graph_aspects",         m015_graph_aspects),
    Step("016_palace",                "012_palace",                m016_palace),
    Step("018_chunk_vectors",         "014_chunk_vectors",         m018_chunk_vectors),
    Step("019_runs",                  "015_runs",                  m019_runs),
    Step("020_review_prune",          "016_review_prune",          m020_review_prune),
    Step("021_erase_audit",           "017_erase_audit",           m021_erase_audit),
    Step("022_sessions",              "018_sessions",              m022_sessions),
    Step("023_shared_knowledge",      "019_shared_knowledge",      m023_shared_knowledge),
    Step("024_org_memory",            "020_org_memory",            m024_org_memory),
    Step("025_core_blocks",           "021_core_blocks",           m025_core_blocks),
    Step("026_lifecycle",             "022_lifecycle",             m026_lifecycle),
    Step("027_maintenance",           "023_maintenance",           m027_maintenance),
    Step("028_fts_log",               None,                        m028_fts_log),
    Step("029_job_history",           "024_job_history",           m029_job_history),
    Step("030_chat_settings",         "025_chat_settings",         m030_chat_settings),
    Step(None,                        "026_keyword_terms",         m031_keyword_terms),
    Step("032_relations_by_type",     "027_relations_by_type",     m032_relations_by_type),
    Step(None,                        "028_memory_search",         m033_memory_search),
    Step("034_palace_mined_seq",      "029_palace_mined_seq",      m034_palace_mined_seq),
    Step("035_schedule_leases",       "030_schedule_leases",       m035_schedule_leases),
    Step(None,                        "031_bulk_vector_epoch",     m036_bulk_vector_epoch),
    Step(None,                        "032_keyword_bm25",          m037_keyword_bm25),
    Step("038_documents_source",      "033_documents_source",      m038_documents_source),
    Step("039_runs_agent",            "034_runs_agent",            m039_runs_agent),
    Step("040_checkpoints_agent",     "035_checkpoints_agent",     m040_checkpoints_agent),
    Step("041_api_keys_agent",        "036_api_keys_agent",        m041_api_keys_agent),
)
# fmt: on


def named(d: Dialect) -> list[tuple[str, Migration]]:
    """``d``'s engine's steps in order, each with the name it records."""
    out = []
    for step in STEPS:
        name = step.sqlite if d.name == "sqlite" else step.postgres
        if name is not None:
            out.append((name, step.run))
    return out


# -- each engine's locking and bookkeeping ---------------------------------------------


@contextmanager
def _sqlite_step(raw: sqlite3.Connection, name: str) -> Iterator[None]:
    """One step's ``BEGIN IMMEDIATE`` transaction (it waits up to the connection's busy
    timeout); committed when the block ends, rolled back if it raises."""
    try:
        raw.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise MigrationError(f"migration {name} could not start: {exc}") from exc
    try:
        yield
        raw.execute("COMMIT")
    except BaseException as exc:
        # A failed COMMIT or statement may already have ended the transaction.
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(f"migration {name} failed: {exc}") from exc
        raise


def _search_path_advice(exc: Exception) -> str | None:
    """What to change when a step failed because of the connection's ``search_path``
    (docs/deploy-postgres.md, "Schema"), or None when it did not."""
    import psycopg  # only a PostgreSQL store has it

    if isinstance(exc, psycopg.errors.InvalidSchemaName):
        return (
            "there is no schema on the search_path to create engram's tables in: create "
            "it first (`CREATE SCHEMA engram;`) or fix `options=-csearch_path%3D...` in "
            "the store URL"
        )
    if isinstance(exc, psycopg.errors.UndefinedObject) and '"vector"' in str(exc):
        return (
            "the vector extension is installed in a schema this connection's search_path "
            "leaves out: list that schema too, e.g. `options=-csearch_path%3Dengram,public` "
            "(`SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = "
            "'vector'` names it)"
        )
    return None


def foreign(tables: Sequence[str]) -> str | None:
    """When ``tables`` (a database's or a schema's) are another program's, with none of
    them engram's ``schema_migrations``: the first few of them, to name in the refusal
    (both backends refuse to open such a database rather than add engram's tables)."""
    if not tables or "schema_migrations" in tables:
        return None
    names = sorted(tables)
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _primary(exc: Exception) -> str:
    """The server's one-line message of a driver error, without its LINE and caret."""
    diag = getattr(exc, "diag", None)
    primary = getattr(diag, "message_primary", None)
    return primary if isinstance(primary, str) and primary else str(exc)


def _privilege_advice(exc: Exception) -> str:
    """What an operator does about a step the role may not run (docs/deploy-postgres.md,
    "Privileges"). pgvector is not a trusted extension, so only a superuser may create
    it, not the database's owner; and since PostgreSQL 15 only the owner of schema
    ``public`` (the database's owner) may create tables there."""
    said = _primary(exc)
    if "extension" in said:
        return (
            "pgvector may only be installed by a superuser: have one run `CREATE EXTENSION "
            "vector;` in this database once, then open it again"
        )
    schema = re.search(r"for schema (\S+)", said)
    if schema is not None:
        return (
            f"the role may not create tables in schema {schema.group(1)}: have its owner run "
            f"`GRANT CREATE ON SCHEMA {schema.group(1)} TO <this role>;` (or make this role "
            "the database's owner), then open it again"
        )
    return "have the database's owner grant it, or open engram as the owner"


@contextmanager
def _postgres_transaction(raw: Any, lacks: str, failed: str, *, wrap: bool) -> Iterator[None]:
    """A transaction on an autocommit psycopg connection whose errors say what to do:
    ``lacks`` names what a missing privilege stopped, ``failed`` what another error did
    (with the search path's advice when there is one, else the error when ``wrap``;
    without ``wrap`` an error with no advice is raised as it is)."""
    import psycopg  # only a PostgreSQL store has it

    try:
        with raw.transaction():
            yield
    except psycopg.errors.InsufficientPrivilege as exc:
        raise MigrationError(f"{lacks} ({_primary(exc)}); {_privilege_advice(exc)}") from exc
    except psycopg.Error as exc:
        advice = _search_path_advice(exc)
        if advice is None and not wrap:
            raise
        raise MigrationError(f"{failed}: {advice if advice is not None else exc}") from exc


def _postgres_bookkeeping(raw: Any) -> AbstractContextManager[None]:
    """The transaction that reads (and first creates) ``schema_migrations``."""
    said = "cannot create engram's tables"
    return _postgres_transaction(raw, said, said, wrap=False)


def _postgres_step(raw: Any, name: str) -> AbstractContextManager[None]:
    """One step's transaction on an autocommit psycopg connection."""
    lacks = f"migration {name} needs a privilege this role lacks"
    return _postgres_transaction(raw, lacks, f"migration {name} failed", wrap=True)


@contextmanager
def _postgres_lock(raw: Any) -> Iterator[None]:
    """The session advisory lock held while one process migrates."""
    raw.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
    try:
        yield
    finally:
        raw.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))


@dataclass(frozen=True, slots=True)
class _Engine:
    """What the runner does differently per engine."""

    #: ``schema_migrations`` as the engine has always made it.
    table: str
    #: ``ORDER BY`` of names in byte order.
    order: str
    #: Around reading and creating ``schema_migrations``.
    bookkeeping: Callable[[Any], AbstractContextManager[Any]]
    #: Around a whole ``migrate``.
    lock: Callable[[Any], AbstractContextManager[Any]]
    #: Around one step.
    step: Callable[[Any, str], AbstractContextManager[None]]


_ENGINES = {
    "sqlite": _Engine(
        table="(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)",
        order="name",
        bookkeeping=lambda raw: nullcontext(),
        lock=lambda raw: nullcontext(),
        step=_sqlite_step,
    ),
    "postgres": _Engine(
        table="(name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        order='name COLLATE "C"',
        bookkeeping=_postgres_bookkeeping,
        lock=_postgres_lock,
        step=_postgres_step,
    ),
}


# -- the runner ------------------------------------------------------------------------


def applied(raw: Any, d: Dialect) -> list[str]:
    """Names of the migrations this database has, in order (``raw``: the driver's
    connection, autocommit on PostgreSQL)."""
    engine = _ENGINES[d.name]
    with engine.bookkeeping(raw):
        raw.execute(f"CREATE TABLE IF NOT EXISTS schema_migrations {engine.table}")
        rows = raw.execute(f"SELECT name FROM schema_migrations ORDER BY {engine.order}")
        return [str(row[0]) for row in rows.fetchall()]


def _refuse_unknown(names: Iterable[str], d: Dialect) -> None:
    """``MigrationError`` if the database records a migration this engram lacks."""
    unknown = set(names) - {name for name, _ in named(d)}
    if unknown:
        raise MigrationError(
            f"this database has migrations {sorted(unknown)} that this engram does not know; "
            "it was written by a newer engram: upgrade engram to open it"
        )


def _apply(raw: Any, d: Dialect, name: str, fn: Migration) -> bool:
    """Apply one migration in its own transaction, unless another connection has applied
    it meanwhile; returns whether this call applied it.

    Another process may open the same store at the same moment, so what ``migrate`` read
    before is only a hint: the applied set is read again inside the transaction (on
    SQLite under the write lock that serialises the openers), so exactly one of them
    runs each migration.
    """
    conn = d.wrap(raw)
    with _ENGINES[d.name].step(raw, name):
        done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
        _refuse_unknown(done, d)  # a newer engram may have upgraded the store meanwhile
        if name in done:
            return False
        fn(conn, d)
        conn.execute(
            "INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)",
            (name, d.ts(datetime.now(UTC))),
        )
    return True


def migrate(raw: Any, d: Dialect, *, upto: str | None = None) -> list[str]:
    """Apply missing migrations (through ``upto`` if given); returns the names applied.

    ``raw`` is the driver's connection: ``sqlite3`` in autocommit mode
    (``isolation_level=None``), or psycopg with ``autocommit=True``. Safe when several
    processes open one store at once: one of them applies each migration and the others
    skip it (and leave it out of what they return).
    """
    with _ENGINES[d.name].lock(raw):
        done = set(applied(raw, d))
        _refuse_unknown(done, d)
        ran: list[str] = []
        for name, fn in named(d):
            if name not in done and _apply(raw, d, name, fn):
                ran.append(name)
            if name == upto:
                break
        return ran


def require_current(raw: Any, d: Dialect) -> None:
    """For an open that may not migrate (``postgres.read_only``, a replica): raise
    ``MigrationError`` saying what to do when the database lacks a migration this
    engram needs, where every read would fail on a missing table or column. Reads
    only: a replica refuses writes."""
    import psycopg  # only a PostgreSQL store opens read-only

    fix = (
        "postgres.read_only opens without migrating: open it once without "
        "postgres.read_only (on the primary) to migrate it"
    )
    try:
        rows = raw.execute("SELECT name FROM schema_migrations").fetchall()
    except psycopg.errors.UndefinedTable as exc:
        raise MigrationError(f"this database has no engram schema; {fix}") from exc
    done = {str(row[0]) for row in rows}
    _refuse_unknown(done, d)
    missing = [name for name, _ in named(d) if name not in done]
    if missing:
        raise MigrationError(
            f"this database lacks migration {missing[0]}"
            + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
            + f"; {fix}"
        )


def current_version(conn: Any, d: Dialect) -> str:
    """The last applied migration's name, or ``"none"`` (``conn``: a connection of a
    database that has ``schema_migrations``)."""
    order = _ENGINES[d.name].order
    row = conn.execute(f"SELECT name FROM schema_migrations ORDER BY {order} DESC LIMIT 1")
    found = row.fetchone()
    return "none" if found is None else str(found[0])

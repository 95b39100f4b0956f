"""SQLite schema migrations: named, ordered functions recorded in ``schema_migrations``.

Opening an older database applies whatever it lacks, in order, each in its own
transaction. Never edit a migration that has shipped; add a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from engram.errors import MigrationError
from engram.store.sqlite import fts

Migration = Callable[[sqlite3.Connection], None]


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run several statements inside the caller's transaction.

    ``executescript`` would commit first, so statements are split with
    ``sqlite3.complete_statement`` (which understands trigger bodies) and run one by one.
    """
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            conn.execute(buffer)
            buffer = ""
    if buffer.strip():
        conn.execute(buffer)


def m001_memories(conn: sqlite3.Connection) -> None:
    """The memory table, the audit history and the dedup key."""
    _run_script(
        conn,
        """
        CREATE TABLE memories (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            namespace TEXT NOT NULL,
            content TEXT NOT NULL,
            normalized TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            type TEXT NOT NULL DEFAULT 'fact',
            category TEXT,
            title TEXT,
            narrative TEXT,
            facts TEXT NOT NULL DEFAULT '[]',
            tags TEXT NOT NULL DEFAULT '[]',
            importance REAL,
            quality INTEGER NOT NULL DEFAULT 0,
            score REAL,
            confidence REAL,
            user_id TEXT,
            agent_id TEXT,
            metadata TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            deleted_at TEXT
        );
        CREATE INDEX memories_ns_created ON memories(namespace, created_at);
        CREATE UNIQUE INDEX memories_ns_hash_live ON memories(namespace, content_hash)
            WHERE deleted_at IS NULL;
        CREATE TABLE memory_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            memory_id TEXT NOT NULL,
            namespace TEXT NOT NULL,
            event TEXT NOT NULL,
            before TEXT,
            after TEXT,
            actor TEXT,
            reason TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX memory_history_memory ON memory_history(memory_id, id);
        """,
    )


def m002_fts(conn: sqlite3.Connection) -> None:
    """FTS5 external-content index over live memories, kept in sync by triggers.

    Only live rows are indexed: a tombstone removes the row from the index, so keyword
    search can never return it.
    """
    _run_script(
        conn,
        """
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            content, title, narrative, facts, tags,
            content='memories', content_rowid='seq',
            tokenize='porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
        WHEN new.deleted_at IS NULL BEGIN
            INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags)
            VALUES (new.seq, new.content, new.title, new.narrative, new.facts, new.tags);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
        WHEN old.deleted_at IS NULL BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, title, narrative, facts, tags)
            VALUES ('delete', old.seq, old.content, old.title, old.narrative, old.facts, old.tags);
        END;
        CREATE TRIGGER memories_fts_update_old
        AFTER UPDATE OF content, title, narrative, facts, tags, deleted_at ON memories
        WHEN old.deleted_at IS NULL BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, title, narrative, facts, tags)
            VALUES ('delete', old.seq, old.content, old.title, old.narrative, old.facts, old.tags);
        END;
        CREATE TRIGGER memories_fts_update_new
        AFTER UPDATE OF content, title, narrative, facts, tags, deleted_at ON memories
        WHEN new.deleted_at IS NULL BEGIN
            INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags)
            VALUES (new.seq, new.content, new.title, new.narrative, new.facts, new.tags);
        END;
        """,
    )
    # Index whatever an older database already holds.
    conn.execute(
        "INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags) "
        "SELECT seq, content, title, narrative, facts, tags FROM memories "
        "WHERE deleted_at IS NULL"
    )


def m003_vectors_feedback(conn: sqlite3.Connection) -> None:
    """Vector rows, the feedback log (seed 000) and the vector epoch counter."""
    _run_script(
        conn,
        """
        CREATE TABLE memory_vectors (
            memory_seq INTEGER PRIMARY KEY REFERENCES memories(seq) ON DELETE CASCADE,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            content_hash TEXT NOT NULL,
            vector BLOB NOT NULL
        );
        CREATE INDEX memory_vectors_model ON memory_vectors(model);
        CREATE TABLE memory_feedback_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            memory_id TEXT NOT NULL,
            namespace TEXT NOT NULL,
            rating INTEGER NOT NULL,
            comment TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX memory_feedback_memory ON memory_feedback_log(memory_id);
        CREATE TABLE engram_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO engram_meta(key, value) VALUES ('vector_epoch', 0);
        CREATE TRIGGER memory_vectors_epoch_ins AFTER INSERT ON memory_vectors BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'vector_epoch';
        END;
        CREATE TRIGGER memory_vectors_epoch_upd AFTER UPDATE ON memory_vectors BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'vector_epoch';
        END;
        CREATE TRIGGER memory_vectors_epoch_del AFTER DELETE ON memory_vectors BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'vector_epoch';
        END;
        CREATE TRIGGER memories_epoch_liveness AFTER UPDATE OF deleted_at, content_hash
        ON memories BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'vector_epoch';
        END;
        """,
    )


def m004_provenance(conn: sqlite3.Connection) -> None:
    """Provenance columns (seed 000 added run_id the same way, with ALTER TABLE)."""
    for column in (
        "run_id TEXT",
        "session_id TEXT",
        "source_memory_id TEXT",
        "document_id TEXT",
        "who TEXT",
        "why TEXT",
        "extraction_model TEXT",
        "embedding_model TEXT",
    ):
        conn.execute(f"ALTER TABLE memories ADD COLUMN {column}")
    conn.execute("CREATE INDEX memories_ns_run ON memories(namespace, run_id)")


def m005_fts_update_trigger(conn: sqlite3.Connection) -> None:
    """One FTS update trigger that deletes the old entry before inserting the new one.

    002 used two AFTER UPDATE triggers, and SQLite fires triggers of one event newest
    first: the new entry was inserted, then the old entry's 'delete' removed the row's
    docsize record, leaving an index that fails every BM25 query on an updated memory
    ("database disk image is malformed"). Statements inside one trigger run in order.
    The index is then rebuilt from live rows to repair databases written before this.
    """
    _run_script(
        conn,
        """
        DROP TRIGGER memories_fts_update_old;
        DROP TRIGGER memories_fts_update_new;
        CREATE TRIGGER memories_fts_update
        AFTER UPDATE OF content, title, narrative, facts, tags, deleted_at ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, title, narrative, facts, tags)
            SELECT 'delete', old.seq, old.content, old.title, old.narrative, old.facts, old.tags
            WHERE old.deleted_at IS NULL;
            INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags)
            SELECT new.seq, new.content, new.title, new.narrative, new.facts, new.tags
            WHERE new.deleted_at IS NULL;
        END;
        INSERT INTO memories_fts(memories_fts) VALUES ('delete-all');
        INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags)
            SELECT seq, content, title, narrative, facts, tags FROM memories
            WHERE deleted_at IS NULL;
        """,
    )


def m006_api_keys_transcripts(conn: sqlite3.Connection) -> None:
    """API keys of the HTTP API (hashed) and seed 004's lossless session transcripts."""
    _run_script(
        conn,
        """
        CREATE TABLE api_keys (
            id TEXT PRIMARY KEY,
            key_hash TEXT NOT NULL UNIQUE,
            user TEXT NOT NULL,
            admin INTEGER NOT NULL DEFAULT 0,
            name TEXT,
            created_at TEXT NOT NULL,
            last_used_at TEXT,
            revoked_at TEXT
        );
        CREATE TABLE session_transcripts (
            namespace TEXT NOT NULL,
            session_key TEXT NOT NULL,
            content TEXT NOT NULL,
            agent_id TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (namespace, session_key)
        );
        CREATE INDEX session_transcripts_created ON session_transcripts(namespace, created_at);
        """,
    )


def m007_session_index(conn: sqlite3.Connection) -> None:
    """Recall reads a session's members in time order (session context)."""
    conn.execute("CREATE INDEX memories_ns_session ON memories(namespace, session_id, created_at)")


def m008_namespace_fts(conn: sqlite3.Connection) -> None:
    """One FTS5 index per namespace, so BM25 statistics stay inside a namespace.

    The store-wide ``memories_fts`` goes; triggers now queue changes in
    ``fts_pending`` and the store applies them to the namespace's own index before it
    commits (``engram.store.sqlite.fts``). Every live memory is re-indexed.
    """
    _run_script(
        conn,
        """
        CREATE TABLE fts_namespaces (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL UNIQUE
        );
        CREATE TABLE fts_pending (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            op TEXT NOT NULL,
            namespace TEXT NOT NULL,
            seq INTEGER NOT NULL,
            content TEXT, title TEXT, narrative TEXT, facts TEXT, tags TEXT
        );
        DROP TRIGGER memories_fts_insert;
        DROP TRIGGER memories_fts_delete;
        DROP TRIGGER memories_fts_update;
        DROP TABLE memories_fts;
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
        WHEN new.deleted_at IS NULL BEGIN
            INSERT INTO fts_pending(op, namespace, seq, content, title, narrative, facts, tags)
            VALUES ('add', new.namespace, new.seq, new.content, new.title, new.narrative,
                    new.facts, new.tags);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
        WHEN old.deleted_at IS NULL BEGIN
            INSERT INTO fts_pending(op, namespace, seq, content, title, narrative, facts, tags)
            VALUES ('remove', old.namespace, old.seq, old.content, old.title, old.narrative,
                    old.facts, old.tags);
        END;
        CREATE TRIGGER memories_fts_update
        AFTER UPDATE OF content, title, narrative, facts, tags, deleted_at ON memories BEGIN
            INSERT INTO fts_pending(op, namespace, seq, content, title, narrative, facts, tags)
            SELECT 'remove', old.namespace, old.seq, old.content, old.title, old.narrative,
                   old.facts, old.tags
            WHERE old.deleted_at IS NULL;
            INSERT INTO fts_pending(op, namespace, seq, content, title, narrative, facts, tags)
            SELECT 'add', new.namespace, new.seq, new.content, new.title, new.narrative,
                   new.facts, new.tags
            WHERE new.deleted_at IS NULL;
        END;
        """,
    )
    fts.rebuild(conn)


def m009_unembedded(conn: sqlite3.Connection) -> None:
    """A memory's ``embedding_model`` now means "the model of its current vector", NULL
    while it has none; a partial index counts a namespace's unembedded memories cheaply,
    so recall can warn when dense search ran without some of them."""
    conn.execute(
        "UPDATE memories SET embedding_model = NULL WHERE embedding_model IS NOT NULL AND "
        "NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_seq = memories.seq "
        "AND v.model = memories.embedding_model AND v.content_hash = memories.content_hash)"
    )
    conn.execute(
        "CREATE INDEX memories_unembedded ON memories(namespace) "
        "WHERE deleted_at IS NULL AND embedding_model IS NULL"
    )


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

"""The SQLite schema, one named step per migration, in order (the runner and
the ordered list are in ``migrations``). Never edit a step that has shipped; add one."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from engram.store.sqlite import fts, hints

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


def m010_jobs(conn: sqlite3.Connection) -> None:
    """seed 004's job queue. The partial unique indexes hold its enqueue dedup (one pending
    or leased job per kind and memory, or document) even when writers race."""
    _run_script(
        conn,
        """
        CREATE TABLE memory_jobs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL, namespace TEXT NOT NULL, memory_id TEXT, document_id TEXT,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'leased', 'completed', 'dead')),
            attempts INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL DEFAULT 3,
            payload TEXT NOT NULL DEFAULT '{}', result TEXT, error TEXT,
            created_at TEXT NOT NULL, run_after TEXT NOT NULL,
            leased_at TEXT, completed_at TEXT, failed_at TEXT
        );
        CREATE INDEX memory_jobs_lease ON memory_jobs(status, created_at, run_after);
        CREATE INDEX memory_jobs_stale ON memory_jobs(status, leased_at);
        CREATE INDEX memory_jobs_ns ON memory_jobs(namespace, status, kind);
        CREATE UNIQUE INDEX memory_jobs_memory_once ON memory_jobs(kind, memory_id)
            WHERE memory_id IS NOT NULL AND status IN ('pending', 'leased');
        CREATE UNIQUE INDEX memory_jobs_document_once ON memory_jobs(kind, document_id)
            WHERE document_id IS NOT NULL AND status IN ('pending', 'leased');
        """,
    )


def m011_hints(conn: sqlite3.Connection) -> None:
    """seed 004's prospective index: ``memory_hints`` (removed with their memory by
    ``ON DELETE CASCADE``) and the bookkeeping of per-namespace FTS5 hint indexes. The
    schema sits beside the code that keeps it, ``engram.store.sqlite.hints``."""
    hints.create_schema(conn)


def m012_documents(conn: sqlite3.Connection) -> None:
    """seed 004's document ingest: ``documents`` (the source verbatim and the status of
    its ingest job) and ``document_memories`` (which memory holds which chunk)."""
    _run_script(
        conn,
        """
        CREATE TABLE documents (
            id TEXT PRIMARY KEY,
            namespace TEXT NOT NULL,
            source_type TEXT NOT NULL,
            source TEXT,
            title TEXT,
            raw_content TEXT,
            content_type TEXT,
            status TEXT NOT NULL DEFAULT 'queued',
            error TEXT,
            chunk_count INTEGER NOT NULL DEFAULT 0,
            byte_length INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX documents_ns_created ON documents(namespace, created_at);
        CREATE TABLE document_memories (
            document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            memory_id TEXT NOT NULL,
            chunk_index INTEGER NOT NULL,
            PRIMARY KEY (document_id, chunk_index)
        );
        CREATE INDEX document_memories_memory ON document_memories(memory_id);
        """,
    )


def m013_graph(conn: sqlite3.Connection) -> None:
    """The knowledge graph (seeds 003, 004). Rows derived from a memory cascade when it
    is purged (a relation's first source is set NULL); ``memory_id`` columns are indexed
    so the cascade does not scan."""
    _run_script(
        conn,
        """
        CREATE TABLE entities (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            name TEXT NOT NULL,
            canonical_name TEXT NOT NULL,
            entity_type TEXT NOT NULL DEFAULT 'unknown',
            mentions INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (namespace, canonical_name)
        );
        CREATE INDEX entities_ns_mentions ON entities(namespace, mentions DESC);
        CREATE TABLE entity_aliases (
            entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace TEXT NOT NULL,
            alias TEXT NOT NULL,
            PRIMARY KEY (namespace, alias)
        );
        CREATE INDEX entity_aliases_entity ON entity_aliases(entity_id);
        CREATE TABLE relations (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            source_entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            target_entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            relation_type TEXT NOT NULL,
            confidence REAL NOT NULL,
            mentions INTEGER NOT NULL DEFAULT 1,
            strength REAL NOT NULL DEFAULT 1.0,
            valid_from TEXT NOT NULL,
            valid_to TEXT,
            source_memory_id TEXT REFERENCES memories(id) ON DELETE SET NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX relations_source
            ON relations(namespace, source_entity_id, relation_type, valid_from);
        CREATE INDEX relations_target ON relations(namespace, target_entity_id, valid_from);
        CREATE INDEX relations_ns_from ON relations(namespace, valid_from);
        CREATE INDEX relations_memory ON relations(source_memory_id);
        CREATE TABLE relation_mentions (
            relation_id INTEGER NOT NULL REFERENCES relations(id) ON DELETE CASCADE,
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            confidence REAL NOT NULL,
            PRIMARY KEY (relation_id, memory_id)
        );
        CREATE INDEX relation_mentions_memory ON relation_mentions(memory_id);
        CREATE TABLE memory_entity_mentions (
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace TEXT NOT NULL,
            mention_text TEXT NOT NULL,
            confidence REAL NOT NULL,
            PRIMARY KEY (memory_id, entity_id)
        );
        CREATE INDEX memory_entity_mentions_entity ON memory_entity_mentions(entity_id);
        CREATE TABLE entity_aspects (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace TEXT NOT NULL,
            canonical_name TEXT NOT NULL,
            name TEXT NOT NULL,
            weight REAL NOT NULL DEFAULT 0.5,
            updated_at TEXT NOT NULL,
            UNIQUE (entity_id, canonical_name)
        );
        CREATE TABLE entity_attributes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace TEXT NOT NULL,
            aspect_id INTEGER REFERENCES entity_aspects(id) ON DELETE SET NULL,
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            content TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT 'attribute' CHECK (kind IN ('attribute', 'constraint')),
            importance REAL NOT NULL DEFAULT 0.5,
            created_at TEXT NOT NULL,
            UNIQUE (entity_id, memory_id, content)
        );
        CREATE INDEX entity_attributes_memory ON entity_attributes(memory_id);
        CREATE INDEX entity_attributes_aspect ON entity_attributes(aspect_id);
        """,
    )


def m014_review(conn: sqlite3.Connection) -> None:
    """Supersession (a memory the pipeline replaced points at its successor) and the
    review queue of proposals that contradiction detection held back (seed 004)."""
    conn.execute("ALTER TABLE memories ADD COLUMN superseded_by TEXT")
    _run_script(
        conn,
        """
        CREATE TABLE review_queue (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            target_id TEXT,
            action TEXT NOT NULL,
            proposal TEXT NOT NULL,
            reason TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            resolved_by TEXT,
            note TEXT,
            created_at TEXT NOT NULL,
            resolved_at TEXT
        );
        CREATE INDEX review_queue_ns_status ON review_queue(namespace, status, id);
        """,
    )

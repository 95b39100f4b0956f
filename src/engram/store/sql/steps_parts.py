"""The schema steps of the job queue, documents, review, the palace, chunk vectors, the
run log and the erase audit, for both engines. Never edit a step that has shipped; add
one."""

from __future__ import annotations

from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.steps import bumps, pick, script


def m010_jobs(conn: Conn, d: Dialect) -> None:
    """seed 004's job queue. The partial unique indexes hold its enqueue dedup (one
    pending or leased job per kind and memory, or document) even when writers race
    (PostgreSQL's ``INSERT ... ON CONFLICT DO NOTHING`` relies on them). PostgreSQL's
    lease and stale indexes are partial, on the status each one reads."""
    script(
        conn,
        d,
        """
        CREATE TABLE memory_jobs (
            id {id},
            kind {key} NOT NULL, namespace {key} NOT NULL, memory_id {key}, document_id {key},
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'leased', 'completed', 'dead')),
            attempts INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL DEFAULT 3,
            payload {json} NOT NULL DEFAULT '{}', result {json}, error TEXT,
            created_at {time} NOT NULL, run_after {time} NOT NULL,
            leased_at {time}, completed_at {time}, failed_at {time}
        );
        CREATE INDEX memory_jobs_lease ON memory_jobs{lease};
        CREATE INDEX memory_jobs_stale ON memory_jobs{stale};
        CREATE INDEX memory_jobs_ns ON memory_jobs(namespace, status, kind);
        CREATE UNIQUE INDEX memory_jobs_memory_once ON memory_jobs(kind, memory_id)
            WHERE memory_id IS NOT NULL AND status IN ('pending', 'leased');
        CREATE UNIQUE INDEX memory_jobs_document_once ON memory_jobs(kind, document_id)
            WHERE document_id IS NOT NULL AND status IN ('pending', 'leased');
        """,
        lease=pick(
            d,
            sqlite="(status, created_at, run_after)",
            postgres="(created_at, id) WHERE status = 'pending'",
        ),
        stale=pick(d, sqlite="(status, leased_at)", postgres="(leased_at) WHERE status = 'leased'"),
    )


def m012_documents(conn: Conn, d: Dialect) -> None:
    """seed 004's document ingest: ``documents`` (the source verbatim and the status of
    its ingest job) and ``document_memories`` (which memory holds which chunk)."""
    script(
        conn,
        d,
        """
        CREATE TABLE documents (
            id {key} PRIMARY KEY,
            namespace {key} NOT NULL,
            source_type TEXT NOT NULL,
            source TEXT,
            title TEXT,
            raw_content TEXT,
            content_type TEXT,
            status TEXT NOT NULL DEFAULT 'queued',
            error TEXT,
            chunk_count INTEGER NOT NULL DEFAULT 0,
            byte_length {bigint} NOT NULL DEFAULT 0,
            created_at {time} NOT NULL,
            updated_at {time} NOT NULL
        );
        CREATE INDEX documents_ns_created ON documents(namespace, created_at);
        CREATE TABLE document_memories (
            document_id {key} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            memory_id {key} NOT NULL,
            chunk_index INTEGER NOT NULL,
            PRIMARY KEY (document_id, chunk_index)
        );
        CREATE INDEX document_memories_memory ON document_memories(memory_id);
        """,
    )


def m014_review(conn: Conn, d: Dialect) -> None:
    """Supersession (a memory the pipeline replaced points at its successor) and the
    review queue of proposals that contradiction detection held back (seed 004)."""
    script(
        conn,
        d,
        """
        ALTER TABLE memories ADD COLUMN superseded_by {key};
        CREATE TABLE review_queue (
            id {id},
            namespace {key} NOT NULL,
            memory_id {key} NOT NULL,
            target_id {key},
            action TEXT NOT NULL,
            proposal {json} NOT NULL,
            reason TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            resolved_by TEXT,
            note TEXT,
            created_at {time} NOT NULL,
            resolved_at {time}
        );
        CREATE INDEX review_queue_ns_status ON review_queue(namespace, status, id);
        """,
    )


def m016_palace(conn: Conn, d: Dialect) -> None:
    """The palace (FEATURES G6, G7; seed 003): wings, rooms, closets, drawers and their
    aliases. Numbers come from counters (``palace_counters.wings``,
    ``palace_wings.rooms_made``, ``palace_rooms.drawers_made``) so a number is never
    given out twice, even after its drawer's memory is purged (the drawer cascades)."""
    script(
        conn,
        d,
        """
        CREATE TABLE palace_counters (
            namespace {key} PRIMARY KEY,
            wings INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE palace_wings (
            id {id},
            namespace {key} NOT NULL,
            number INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            slug {key} NOT NULL,
            rooms_made INTEGER NOT NULL DEFAULT 0,
            created_at {time} NOT NULL,
            UNIQUE (namespace, slug),
            UNIQUE (namespace, number)
        );
        CREATE TABLE palace_rooms (
            id {id},
            namespace {key} NOT NULL,
            wing_id {bigint} NOT NULL REFERENCES palace_wings(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            name TEXT NOT NULL,
            slug {key} NOT NULL,
            drawers_made INTEGER NOT NULL DEFAULT 0,
            created_at {time} NOT NULL,
            UNIQUE (wing_id, slug),
            UNIQUE (wing_id, number)
        );
        CREATE TABLE palace_closets (
            id {id},
            namespace {key} NOT NULL,
            room_id {bigint} NOT NULL REFERENCES palace_rooms(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            slug {key} NOT NULL,
            created_at {time} NOT NULL,
            UNIQUE (room_id, slug)
        );
        CREATE TABLE palace_aliases (
            namespace {key} NOT NULL,
            level TEXT NOT NULL,
            parent_id {bigint} NOT NULL,
            alias {key} NOT NULL,
            target_id {bigint} NOT NULL,
            PRIMARY KEY (namespace, level, parent_id, alias)
        );
        CREATE INDEX palace_aliases_target ON palace_aliases(level, target_id);
        CREATE TABLE palace_drawers (
            id {id},
            namespace {key} NOT NULL,
            room_id {bigint} NOT NULL REFERENCES palace_rooms(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            memory_id {key} NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            role TEXT,
            tags {json} NOT NULL DEFAULT '[]',
            created_at {time} NOT NULL,
            UNIQUE (room_id, turn),
            UNIQUE (room_id, number)
        );
        CREATE INDEX palace_drawers_memory ON palace_drawers(memory_id, room_id);
        CREATE TABLE palace_closet_drawers (
            closet_id {bigint} NOT NULL REFERENCES palace_closets(id) ON DELETE CASCADE,
            drawer_id {bigint} NOT NULL REFERENCES palace_drawers(id) ON DELETE CASCADE,
            PRIMARY KEY (closet_id, drawer_id)
        );
        CREATE INDEX palace_closet_drawers_drawer ON palace_closet_drawers(drawer_id);
        """,
    )


def m018_chunk_vectors(conn: Conn, d: Dialect) -> None:
    """Chunk vectors of long memories (issue 13: long messages). A content change drops
    the memory's chunks at once: they describe text it no longer has.

    SQLite keeps them beside ``memory_vectors`` with the chunk epoch: a counter that
    moves on every chunk write and every change of a memory's liveness or content, so
    the in-memory chunk matrices (``store/sqlite/chunks.py``) know when to reload.
    PostgreSQL's searches join ``memories`` for liveness and the current content hash,
    so no trigger has to keep a flag in step; the namespace is copied onto each row so
    a search reads one namespace's rows through the index (the join would hide stale
    chunks anyway; the trigger frees the rows)."""
    script(
        conn,
        d,
        pick(
            d,
            sqlite="""
            CREATE TABLE memory_chunks (
                memory_seq INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE,
                model TEXT NOT NULL,
                ordinal INTEGER NOT NULL,
                dim INTEGER NOT NULL,
                content_hash TEXT NOT NULL,
                vector BLOB NOT NULL,
                PRIMARY KEY (memory_seq, model, ordinal)
            );
            CREATE INDEX memory_chunks_model ON memory_chunks(model);
            INSERT INTO engram_meta(key, value) VALUES ('chunk_epoch', 0);
            """
            + bumps(
                "chunk_epoch",
                ("memory_chunks_epoch_ins", "AFTER INSERT ON memory_chunks"),
                ("memory_chunks_epoch_del", "AFTER DELETE ON memory_chunks"),
                ("memories_chunk_epoch", "AFTER UPDATE OF deleted_at, content_hash ON memories"),
            )
            + """
            CREATE TRIGGER memories_chunks_stale AFTER UPDATE OF content_hash ON memories
            WHEN NEW.content_hash IS NOT OLD.content_hash BEGIN
                DELETE FROM memory_chunks WHERE memory_seq = NEW.seq;
            END;
            """,
            postgres="""
            CREATE TABLE memory_chunks (
                memory_id {key} NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
                model TEXT NOT NULL,
                ordinal INTEGER NOT NULL,
                namespace {key} NOT NULL,
                dim INTEGER NOT NULL,
                content_hash TEXT NOT NULL,
                embedding vector NOT NULL,
                PRIMARY KEY (memory_id, model, ordinal)
            );
            CREATE INDEX memory_chunks_ns_model ON memory_chunks(namespace, model);
            CREATE INDEX memory_chunks_model ON memory_chunks(model);
            CREATE FUNCTION engram_memories_chunks_stale() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM memory_chunks WHERE memory_id = NEW.id;
                RETURN NULL;
            END
            $$;
            CREATE TRIGGER memories_chunks_stale AFTER UPDATE OF content_hash ON memories
                FOR EACH ROW WHEN (NEW.content_hash IS DISTINCT FROM OLD.content_hash)
                EXECUTE FUNCTION engram_memories_chunks_stale();
            """,
        ),
    )


def m019_runs(conn: Conn, d: Dialect) -> None:
    """The run log (FEATURES H1, H2; seed 000's ``RunTrace``): ``runs`` (one row per run
    of a namespace) and ``run_memory_hits`` (seed 000: ``log_memory_hits`` records which
    observations were injected, with their titles). A hit keeps no foreign key to
    ``memories``: the log outlives a purged memory."""
    script(
        conn,
        d,
        """
        CREATE TABLE runs (
            namespace {key} NOT NULL,
            run_id {key} NOT NULL,
            task TEXT,
            task_type TEXT,
            status TEXT NOT NULL,
            score {real},
            tokens_in {bigint},
            tokens_out {bigint},
            output TEXT,
            output_chars {bigint} NOT NULL DEFAULT 0,
            output_path TEXT,
            issues {json} NOT NULL DEFAULT '[]',
            metadata {json} NOT NULL DEFAULT '{}',
            started_at {time},
            finished_at {time},
            created_at {time} NOT NULL,
            updated_at {time} NOT NULL,
            PRIMARY KEY (namespace, run_id)
        );
        CREATE INDEX runs_ns_created ON runs(namespace, created_at);
        CREATE TABLE run_memory_hits (
            namespace {key} NOT NULL,
            run_id {key} NOT NULL,
            memory_id {key} NOT NULL,
            rank INTEGER NOT NULL,
            score {real},
            title TEXT,
            at {time} NOT NULL,
            PRIMARY KEY (namespace, run_id, memory_id),
            FOREIGN KEY (namespace, run_id) REFERENCES runs(namespace, run_id)
                ON DELETE CASCADE
        );
        CREATE INDEX run_memory_hits_memory ON run_memory_hits(namespace, memory_id);
        """,
    )


def m020_review_prune(conn: Conn, d: Dialect) -> None:
    """Review (FEATURES H3, H4; seed 000): every prune candidate has quality < 0 (seed
    000's rule), so a partial index over those few rows answers
    ``mem.review.prune_candidates`` without scanning a large namespace; the export reads
    a namespace's feedback log in id order."""
    script(
        conn,
        d,
        """
        CREATE INDEX memories_prune ON memories(namespace, quality, score)
            WHERE deleted_at IS NULL AND quality < 0;
        CREATE INDEX memory_feedback_ns ON memory_feedback_log(namespace, id);
        """,
    )


def m021_erase_audit(conn: Conn, d: Dialect) -> None:
    """The erase audit (issue 14): one row per erase (who erased what, when, with which
    filters, and how much), in a table no erase deletes from."""
    script(
        conn,
        d,
        """
        CREATE TABLE erase_audit (
            id {serial},
            namespace {key} NOT NULL,
            actor TEXT,
            filters {jsonb} NOT NULL,
            whole_namespace {bool} NOT NULL,
            memories_erased {bigint} NOT NULL,
            rows_erased {bigint} NOT NULL,
            created_at {time} NOT NULL
        );
        CREATE INDEX erase_audit_namespace ON erase_audit(namespace, id);
        """,
    )


def m038_documents_source(conn: Conn, d: Dialect) -> None:
    """Documents by their source (``documents.by_source``: every file ingest asks for
    the earlier ingests of its path, every finished one for those it replaces; ``GET
    /v1/documents?source=``) without reading the namespace's every document. PostgreSQL's
    is a hash index: a b-tree entry holds at most about 2.7 kB, and a URL may be 8 kB."""
    script(
        conn,
        d,
        "CREATE INDEX documents_source ON documents{on};",
        on=pick(d, sqlite="(namespace, source)", postgres=" USING hash (source)"),
    )


def m039_runs_agent(conn: Conn, d: Dialect) -> None:
    """The agent that recorded a run (``record_run``/``compress_and_store`` with an
    ``agent_id``), so a crew's ``runs.list(user_id=..., agent_id="coder")`` lists the
    coder's runs: before, the run log had no agent and the ``agent_id`` was dropped,
    answering every agent's runs (docs/benchmarks.md, round twenty-eight)."""
    script(
        conn,
        d,
        """
        ALTER TABLE runs ADD COLUMN agent_id {key};
        CREATE INDEX runs_ns_agent ON runs(namespace, agent_id, created_at);
        """,
    )


def m040_checkpoints_agent(conn: Conn, d: Dialect) -> None:
    """The agent whose session a checkpoint is, so ``sessions.list(user_id=...,
    agent_id="coder")`` lists the coder's sessions, not every agent's (round
    twenty-eight)."""
    script(
        conn,
        d,
        """
        ALTER TABLE session_checkpoints ADD COLUMN agent_id {key};
        CREATE INDEX session_checkpoints_agent ON session_checkpoints(namespace, agent_id);
        """,
    )


def m041_api_keys_agent(conn: Conn, d: Dialect) -> None:
    """The agent a key is bound to (``engram keys create --user dana --agent coder``):
    such a key acts only as that agent of its user (``engram.keys.Principal``). NULL,
    as every key made before, keeps the user's whole reach (keys38)."""
    conn.execute("ALTER TABLE api_keys ADD COLUMN agent TEXT")

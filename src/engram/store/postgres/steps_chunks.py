"""PostgreSQL schema step of chunk vectors (issue 13: long messages), as SQLite's
``018_chunk_vectors``. Never edit it once shipped; add a step."""

from __future__ import annotations

import psycopg


def m014_chunk_vectors(conn: psycopg.Connection) -> None:
    """Chunk vectors of long memories. Searches join ``memories`` for liveness and the
    current content hash, so no trigger has to keep a flag in step; the namespace is
    copied here so a search reads one namespace's rows through the index."""
    conn.execute(
        """
        CREATE TABLE memory_chunks (
            memory_id TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            namespace TEXT COLLATE "C" NOT NULL,
            dim INTEGER NOT NULL,
            content_hash TEXT NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (memory_id, model, ordinal)
        )
        """
    )
    conn.execute("CREATE INDEX memory_chunks_ns_model ON memory_chunks(namespace, model)")
    conn.execute("CREATE INDEX memory_chunks_model ON memory_chunks(model)")
    # A content change drops the memory's chunks at once: they describe text it no
    # longer has (the join would hide them anyway; this frees the rows).
    conn.execute(
        """
        CREATE FUNCTION engram_memories_chunks_stale() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM memory_chunks WHERE memory_id = NEW.id;
            RETURN NULL;
        END
        $$
        """
    )
    conn.execute(
        "CREATE TRIGGER memories_chunks_stale AFTER UPDATE OF content_hash ON memories "
        "FOR EACH ROW WHEN (NEW.content_hash IS DISTINCT FROM OLD.content_hash) "
        "EXECUTE FUNCTION engram_memories_chunks_stale()"
    )

"""SQLite schema step of chunk vectors (issue 13: long messages). Never edit it once
shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m018_chunk_vectors(conn: sqlite3.Connection) -> None:
    """Chunk vectors of long memories, and the chunk epoch: a counter that moves on every
    chunk write and every change of a memory's liveness or content, so the in-memory
    chunk matrices (``store/sqlite/chunks.py``) know when to reload. A content change
    drops the memory's chunks at once: they describe text it no longer has."""
    _run_script(
        conn,
        """
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
        CREATE TRIGGER memory_chunks_epoch_ins AFTER INSERT ON memory_chunks BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'chunk_epoch';
        END;
        CREATE TRIGGER memory_chunks_epoch_del AFTER DELETE ON memory_chunks BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'chunk_epoch';
        END;
        CREATE TRIGGER memories_chunk_epoch AFTER UPDATE OF deleted_at, content_hash
        ON memories BEGIN
            UPDATE engram_meta SET value = value + 1 WHERE key = 'chunk_epoch';
        END;
        CREATE TRIGGER memories_chunks_stale AFTER UPDATE OF content_hash ON memories
        WHEN NEW.content_hash IS NOT OLD.content_hash BEGIN
            DELETE FROM memory_chunks WHERE memory_seq = NEW.seq;
        END;
        """,
    )

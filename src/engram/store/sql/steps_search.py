"""PostgreSQL's narrow copy of what keyword search reads (issue 29, round 9).

The keyword leg's ranking statement reads, for each candidate, only its id, its ``seq``
and its ``search`` tsvector, but a ``memories`` row carries the whole memory (1.3-1.6 KB
at the benchmark's sizes), so finding 1,000 candidates visits about a page per few
rows. ``memory_search`` holds just those columns for live memories (two fifths of the
bytes: 60 of 158 MB at 100k, 616 of 1,455 MB at 1M; the tsvector is most of a narrow
row), with its own GIN index, and keyword search ranks from
it (``engram.store.postgres.keyword``). A row trigger on ``memories`` keeps it in step
inside the writing transaction, so a search in that transaction sees its own writes.
"""

from __future__ import annotations

from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.steps import script


def m033_memory_search(conn: Conn, d: Dialect) -> None:
    """PostgreSQL: ``memory_search`` (seq, id, namespace, search) of every live memory,
    filled from ``memories`` in place (no row of any other table changes) and kept by
    ``engram_memory_search_sync``. SQLite's keyword index is FTS5 (nothing to do)."""
    if d.name == "sqlite":
        return
    script(
        conn,
        d,
        """
        CREATE TABLE memory_search (
            seq BIGINT PRIMARY KEY,
            id {key} NOT NULL,
            namespace {key} NOT NULL,
            search tsvector
        );
        INSERT INTO memory_search (seq, id, namespace, search)
            SELECT seq, id, namespace, search FROM memories WHERE deleted_at IS NULL;
        CREATE INDEX memory_search_terms ON memory_search USING gin(search);
        CREATE FUNCTION engram_memory_search_sync() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                DELETE FROM memory_search WHERE seq = OLD.seq;
            END IF;
            IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
                INSERT INTO memory_search (seq, id, namespace, search)
                VALUES (NEW.seq, NEW.id, NEW.namespace, NEW.search);
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER memories_search_insert AFTER INSERT ON memories
            FOR EACH ROW EXECUTE FUNCTION engram_memory_search_sync();
        CREATE TRIGGER memories_search_delete AFTER DELETE ON memories
            FOR EACH ROW EXECUTE FUNCTION engram_memory_search_sync();
        CREATE TRIGGER memories_search_update AFTER UPDATE ON memories
            FOR EACH ROW WHEN (
                OLD.search IS DISTINCT FROM NEW.search
                OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
                OR OLD.namespace IS DISTINCT FROM NEW.namespace
                OR OLD.id IS DISTINCT FROM NEW.id
            ) EXECUTE FUNCTION engram_memory_search_sync();
        """,
    )

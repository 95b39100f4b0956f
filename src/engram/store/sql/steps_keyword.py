"""The schema steps of keyword search, where the engines really differ: FTS5 indexes
fed by triggers (and the term index's change log) on SQLite, a folded and stemmed
``tsvector`` with GIN indexes on PostgreSQL. Never edit a step that has shipped; add one.

PostgreSQL's text is folded by ``engram_fold`` the way FTS5's ``unicode61
remove_diacritics 2`` tokenizer splits and folds, and stemmed by a snowball dictionary
without a stop-word list, like FTS5's ``porter`` (engram drops stop words from queries,
not from the index). ``search`` is kept by a trigger, not a generated column, which
PostgreSQL would recompute on every update (when a vector is stored, say).
"""

from __future__ import annotations

import sqlite3
import unicodedata
from typing import cast

from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.steps import script

# Latin letters with diacritics and their bases: FTS5's remove_diacritics folds these.
_ACCENTED = "àáâãäåāăąçćčďèéêëēĕėęěìíîïĩīįñńňòóôõöøōőùúûüũūůűųýÿźżžśšşţťĺľłŕř"
_PLAIN = "".join(
    {"ø": "o", "ł": "l"}.get(c) or unicodedata.normalize("NFD", c)[0] for c in _ACCENTED
)


def _sqlite(conn: Conn) -> sqlite3.Connection:
    """The SQLite connection itself (``SQLITE.wrap`` hands it over as it is), for the
    FTS5 helpers of ``engram.store.sqlite``."""
    return cast(sqlite3.Connection, conn)


#: What the index's triggers write: a live row's text added, and the same removed
#: (FTS5's external-content delete names the old values).
_ADD = """INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags)
        VALUES (new.seq, new.content, new.title, new.narrative, new.facts, new.tags);"""
_REMOVE = """INSERT INTO memories_fts(memories_fts, rowid, content, title, narrative, facts, tags)
        VALUES ('delete', old.seq, old.content, old.title, old.narrative, old.facts, old.tags);"""
_UPDATE = "AFTER UPDATE OF content, title, narrative, facts, tags, deleted_at ON memories"

#: Where 008's triggers queue a row's text for its namespace's own index.
_QUEUE = "INSERT INTO fts_pending(op, namespace, seq, content, title, narrative, facts, tags)"


def _queued(name: str, event: str, op: str, row: str) -> str:
    """008's trigger that queues ``op`` of the ``row`` (``new`` or ``old``) on ``event``."""
    values = ", ".join(f"{row}.{c}" for c in ("namespace", "seq", "content", "title"))
    return (
        f"CREATE TRIGGER memories_fts_{name} AFTER {event} ON memories\n"
        f"        WHEN {row}.deleted_at IS NULL BEGIN\n"
        f"            {_QUEUE}\n"
        f"            VALUES ('{op}', {values}, {row}.narrative,\n"
        f"                    {row}.facts, {row}.tags);\n"
        "        END;"
    )


#: SQLite's 002: the index, its triggers, and whatever an older database holds.
_FTS5 = f"""
    CREATE VIRTUAL TABLE memories_fts USING fts5(
        content, title, narrative, facts, tags,
        content='memories', content_rowid='seq',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
    WHEN new.deleted_at IS NULL BEGIN
        {_ADD}
    END;
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
    WHEN old.deleted_at IS NULL BEGIN
        {_REMOVE}
    END;
    CREATE TRIGGER memories_fts_update_old
    {_UPDATE}
    WHEN old.deleted_at IS NULL BEGIN
        {_REMOVE}
    END;
    CREATE TRIGGER memories_fts_update_new
    {_UPDATE}
    WHEN new.deleted_at IS NULL BEGIN
        {_ADD}
    END;
    INSERT INTO memories_fts(rowid, content, title, narrative, facts, tags)
        SELECT seq, content, title, narrative, facts, tags FROM memories
        WHERE deleted_at IS NULL;
    """


def m002_keyword_search(conn: Conn, d: Dialect) -> None:
    """The keyword index of live memories (SQLite ``002_fts``, PostgreSQL
    ``002_keyword_search``); whatever an older database holds is indexed at once.

    SQLite: an FTS5 external-content index kept in sync by triggers. Only live rows are
    indexed: a tombstone removes the row from the index, so keyword search can never
    return it. PostgreSQL: a ``tsvector`` per memory, kept by a trigger, with a GIN
    index; weights follow seed 000's title-over-body ranking and the SQLite BM25 column
    weights (content 1, title 2, narrative 1, facts 1, tags 0.5): title A, body B, tags C.
    """
    if d.name == "sqlite":
        script(conn, d, _FTS5)
        return
    script(
        conn,
        d,
        f"""
        CREATE FUNCTION engram_fold(t text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT translate(
                regexp_replace(lower(coalesce(t, '')), '[[:punct:]]+', ' ', 'g'),
                '{_ACCENTED}{_ACCENTED.upper()}', '{_PLAIN}{_PLAIN}'
            )
        $$;
        CREATE TEXT SEARCH DICTIONARY engram_english_stem
            (TEMPLATE = snowball, Language = english);
        CREATE TEXT SEARCH CONFIGURATION engram_english (COPY = pg_catalog.english);
        ALTER TEXT SEARCH CONFIGURATION engram_english ALTER MAPPING FOR
            asciiword, asciihword, hword_asciipart, word, hword, hword_part
            WITH engram_english_stem;
        ALTER TABLE memories ADD COLUMN search tsvector;
        CREATE FUNCTION engram_memories_search() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            NEW.search :=
                setweight(to_tsvector('engram_english', engram_fold(NEW.title)), 'A')
                || setweight(to_tsvector('engram_english',
                       engram_fold(left(NEW.content, 262144))), 'B')
                || setweight(to_tsvector('engram_english', engram_fold(NEW.narrative)), 'B')
                || setweight(to_tsvector('engram_english', engram_fold(NEW.facts::text)), 'B')
                || setweight(to_tsvector('engram_english', engram_fold(NEW.tags::text)), 'C');
            RETURN NEW;
        END
        $$;
        CREATE TRIGGER memories_search BEFORE INSERT OR UPDATE OF
            content, title, narrative, facts, tags ON memories
            FOR EACH ROW EXECUTE FUNCTION engram_memories_search();
        UPDATE memories SET content = content;
        CREATE INDEX memories_search_live ON memories USING gin(search)
            WHERE deleted_at IS NULL;
        """,
    )


def m005_fts_update_trigger(conn: Conn, d: Dialect) -> None:
    """SQLite: one FTS update trigger that deletes the old entry before inserting the
    new one.

    002 used two AFTER UPDATE triggers, and SQLite fires triggers of one event newest
    first: the new entry was inserted, then the old entry's 'delete' removed the row's
    docsize record, leaving an index that fails every BM25 query on an updated memory
    ("database disk image is malformed"). Statements inside one trigger run in order.
    The index is then rebuilt from live rows to repair databases written before this.
    """
    script(
        conn,
        d,
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


def m008_namespace_fts(conn: Conn, d: Dialect) -> None:
    """SQLite: one FTS5 index per namespace, so BM25 statistics stay inside a namespace.

    The store-wide ``memories_fts`` goes; triggers now queue changes in
    ``fts_pending`` and the store applies them to the namespace's own index before it
    commits (``engram.store.sqlite.fts``). Every live memory is re-indexed.
    """
    from engram.store.sqlite import fts

    script(
        conn,
        d,
        f"""
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
        {_queued("insert", "INSERT", "add", "new")}
        {_queued("delete", "DELETE", "remove", "old")}
        CREATE TRIGGER memories_fts_update
        AFTER UPDATE OF content, title, narrative, facts, tags, deleted_at ON memories BEGIN
            {_QUEUE}
            SELECT 'remove', old.namespace, old.seq, old.content, old.title, old.narrative,
                   old.facts, old.tags
            WHERE old.deleted_at IS NULL;
            {_QUEUE}
            SELECT 'add', new.namespace, new.seq, new.content, new.title, new.narrative,
                   new.facts, new.tags
            WHERE new.deleted_at IS NULL;
        END;
        """,
    )
    fts.rebuild(_sqlite(conn))


#: SQLite's ``011_hints``: ``memory_hints`` and the queue of hint rows to drop from the
#: per-namespace FTS5 hint indexes (``engram.store.sqlite.hints`` keeps them).
_HINTS_011 = """
CREATE TABLE hint_namespaces (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL UNIQUE
);
CREATE TABLE memory_hints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    namespace TEXT NOT NULL,
    hint TEXT NOT NULL,
    model TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX memory_hints_memory ON memory_hints(memory_id);
CREATE INDEX memory_hints_ns ON memory_hints(namespace, memory_id);
CREATE TABLE hint_fts_pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    hint_id INTEGER NOT NULL
);
CREATE TRIGGER memory_hints_unindex AFTER DELETE ON memory_hints BEGIN
    INSERT INTO hint_fts_pending(namespace, hint_id) VALUES (old.namespace, old.id);
END;
"""


def m011_hints(conn: Conn, d: Dialect) -> None:
    """seed 004's prospective index; purging a memory removes its hints (``ON DELETE
    CASCADE``). SQLite: ``memory_hints`` and the bookkeeping of per-namespace FTS5 hint
    indexes (``engram.store.sqlite.hints``). PostgreSQL: hints with a folded, stemmed
    ``tsvector`` (as ``memories.search`` is built) and a GIN index."""
    if d.name == "sqlite":
        script(conn, d, _HINTS_011)
        return
    script(
        conn,
        d,
        """
        CREATE TABLE memory_hints (
            id {id_always},
            memory_id {key} NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            namespace {key} NOT NULL,
            hint TEXT NOT NULL,
            model TEXT NOT NULL,
            created_at {time} NOT NULL,
            search tsvector GENERATED ALWAYS AS
                (to_tsvector('engram_english', engram_fold(hint))) STORED
        );
        CREATE INDEX memory_hints_memory ON memory_hints(memory_id);
        CREATE INDEX memory_hints_ns ON memory_hints(namespace, memory_id);
        CREATE INDEX memory_hints_search ON memory_hints USING gin(search);
        """,
    )


def m028_fts_log(conn: Conn, d: Dialect) -> None:
    """SQLite: ``fts_log``, which memory of which namespace changed its indexed text, in
    commit order (issue 13). ``fts.flush`` writes it beside each namespace's FTS5 index,
    and the in-memory term index (``term_search``) reads what it has not applied yet,
    whoever wrote it. A row with no ``seq`` says a whole namespace was re-indexed."""
    script(
        conn,
        d,
        """
        CREATE TABLE fts_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            seq INTEGER
        );
        """,
    )


#: Each ``keyword_terms`` source: its table, when one of its rows counts (``{row}``: OLD,
#: NEW or the table), and what else changes a row's count besides its text and namespace.
_TERM_SOURCES = (
    (
        "memories",
        "memories",
        "{row}.deleted_at IS NULL",
        "(OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR ",
    ),
    ("hints", "memory_hints", "TRUE", ""),
)

#: A row trigger's note of one row's lexemes, +1 or -1, for the commit's flush; the
#: transaction's count of notes (a local setting) tells the flush whether it has work.
#: ``{tokens}``: nothing (026), or the row's token count, signed (032: BM25's lengths).
_NOTE = """INSERT INTO keyword_terms_pending VALUES ('{source}', {row}.namespace,
                    coalesce(tsvector_to_array({row}.search), '{{}}'), {delta}{tokens});
                PERFORM set_config('engram.terms_pending', (coalesce(nullif(
                    current_setting('engram.terms_pending', true), ''), '0')::int + 1)::text,
                    true);"""


def _term_function(source: str, live: str, create: str = "CREATE", tokens: bool = False) -> str:
    """The trigger function that notes ``source``'s changes; with ``tokens``, each
    note also carries the row's token count (``engram_search_length``), signed."""

    def note(row: str, delta: int) -> str:
        counted = f", {delta} * engram_search_length({row}.search)" if tokens else ""
        return _NOTE.format(source=source, row=row, delta=delta, tokens=counted)

    return f"""
        {create} FUNCTION engram_{source}_terms() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' AND {live.format(row="OLD")} THEN
                {note("OLD", -1)}
            END IF;
            IF TG_OP <> 'DELETE' AND {live.format(row="NEW")} THEN
                {note("NEW", 1)}
            END IF;
            RETURN NULL;
        END
        $$;"""


def _term_triggers(source: str, table: str, live: str, also: str) -> str:
    """The trigger function and triggers that note ``source``'s changes, and the counts
    of the rows ``table`` already holds."""
    return (
        _term_function(source, live)
        + f"""
        CREATE TRIGGER {table}_terms AFTER INSERT OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION engram_{source}_terms();
        CREATE TRIGGER {table}_terms_update AFTER UPDATE ON {table} FOR EACH ROW
            WHEN (OLD.search IS DISTINCT FROM NEW.search OR {also}OLD.namespace <> NEW.namespace)
            EXECUTE FUNCTION engram_{source}_terms();
        INSERT INTO keyword_terms(source, namespace, term, df)
            SELECT '{source}', namespace, t, count(*) FROM {table},
                unnest(array_prepend('', coalesce(tsvector_to_array(search), '{{}}'))) t
            WHERE {live.format(row=table)} GROUP BY namespace, t;
        """
    )


#: ``engram_terms_flush``'s body as 026 made it: a transaction's notes added up at its
#: commit (032 replaces it with one that adds the token counts too).
FLUSH = """ RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF coalesce(nullif(current_setting('engram.terms_pending', true), ''), '0') = '0'
            THEN
                RETURN NULL;
            END IF;
            PERFORM set_config('engram.terms_pending', '0', true);
            WITH noted AS (
                DELETE FROM keyword_terms_pending RETURNING source, namespace, terms, delta
            )
            INSERT INTO keyword_terms AS k (source, namespace, term, df)
            SELECT source, namespace, t, sum(delta) FROM noted,
                unnest(array_prepend('', terms)) t
            GROUP BY source, namespace, t ORDER BY source, namespace, t
            ON CONFLICT (source, namespace, term) DO UPDATE SET df = k.df + excluded.df;
            RETURN NULL;
        END
        $$;"""


def m031_keyword_terms(conn: Conn, d: Dialect) -> None:
    """PostgreSQL: ``keyword_terms``, each namespace's BM25 statistics kept by triggers
    (issue 29), so keyword search reads a term's document frequency with a key lookup
    instead of counting matches (``engram.store.postgres.keyword``).

    One row per (source, namespace, lexeme): ``df`` is how many rows of the source hold
    the lexeme (live memories for ``memories``, every hint row for ``hints``); the
    lexeme ``''`` counts the rows themselves, BM25's N. Row triggers only note each
    change in ``keyword_terms_pending``; a deferred trigger adds a transaction's notes
    up at its commit, in one statement that takes the counts' row locks in key order:
    each count is written once per transaction (updating a common word's row once per
    memory of a 1,000-row batch made bulk loads 2.5 times slower), writers lock the
    counts only while they commit, and two writers cannot deadlock on them.
    Whatever the database holds is counted at once.
    """
    if d.name == "sqlite":  # the in-memory term index keeps SQLite's (``term_index``)
        return
    script(
        conn,
        d,
        """
        CREATE TABLE keyword_terms (
            source {key} NOT NULL,
            namespace {key} NOT NULL,
            term {key} NOT NULL,
            df BIGINT NOT NULL,
            PRIMARY KEY (source, namespace, term)
        );
        CREATE TABLE keyword_terms_pending (
            source {key} NOT NULL,
            namespace {key} NOT NULL,
            terms TEXT[] NOT NULL,
            delta INTEGER NOT NULL
        );
        CREATE FUNCTION engram_terms_flush()"""
        + FLUSH
        + """
        CREATE CONSTRAINT TRIGGER keyword_terms_flush AFTER INSERT ON keyword_terms_pending
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION engram_terms_flush();
        """
        + "".join(_term_triggers(*source) for source in _TERM_SOURCES),
    )

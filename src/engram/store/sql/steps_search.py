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

#: ``engram_memory_search_sync``'s body as 028 made it (032 adds the row's length).
_SYNC = """ RETURNS trigger
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
        $$;"""


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
        CREATE FUNCTION engram_memory_search_sync()"""
        + _SYNC
        + """
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


#: The ``keyword_terms`` term that holds a source's token count in a namespace (BM25's
#: total length; ``''`` holds N). No lexeme has a space in it.
TOKENS = " tokens"
#: FTS5's ``porter`` stems ASCII words of 3 to 64 letters, and it is the original Porter
#: algorithm, which PostgreSQL ships as the snowball ``porter`` stemmer; the ``english``
#: one (026 to 031) is Porter2, which stems ``deploys`` to ``deploy`` (FTS5: ``deploi``)
#: and ``monthly`` to ``month`` (``monthli``). FTS5 leaves words of one or two letters as
#: they are, Porter's algorithm does not (``us`` -> ``u``, ``ay`` -> ``ai``); so
#: ``engram_fold`` writes such a word as one that the stemmer brings back to it: a vowel
#: and ``s`` or ``y`` gets an ``e`` (``us`` -> ``use`` -> ``us``, in FTS5's term of
#: ``use`` and ``using`` too), a consonant and ``s`` another ``s`` (``ms`` -> ``mss`` ->
#: ``mss``, its own term as in FTS5, not ``m`` of ``I'm``).
_WORDS = "asciiword, asciihword, hword_asciipart, word, hword, hword_part"
#: 026's flush adds up each note's +1 / -1 per lexeme; 032's adds each note's signed
#: token count to ``TOKENS`` too.
_SUMMED = """SELECT source, namespace, t, sum(delta) FROM noted,
                unnest(array_prepend('', terms)) t"""
_SUMMED_TOKENS = f"""SELECT source, namespace, t, sum(n) FROM (
                SELECT source, namespace, t, delta AS n
                FROM noted, unnest(array_prepend('', terms)) t
                UNION ALL SELECT source, namespace, '{TOKENS}', tokens FROM noted
            ) x"""


def m037_keyword_bm25(conn: Conn, d: Dialect) -> None:
    """PostgreSQL: BM25 as FTS5 computes it (bm25pg27). A memory's length is its token
    count (``memory_search.len``; it was its count of distinct lexemes), the average is
    the namespace's (a ``keyword_terms`` row per source and namespace, ``TOKENS``,
    kept by the same triggers; it was the candidates' average), and words are stemmed
    by Porter's algorithm, as FTS5's ``porter``: every tsvector is computed again.
    SQLite's keyword index is FTS5 (nothing to do)."""
    if d.name == "sqlite":
        return
    from engram.store.sql.steps_keyword import _TERM_SOURCES, FLUSH, _term_function

    flush = FLUSH.replace("terms, delta\n", "terms, delta, tokens\n").replace(
        _SUMMED, _SUMMED_TOKENS
    )
    sync = _SYNC.replace(
        "search)\n                VALUES (NEW.seq, NEW.id, NEW.namespace, NEW.search)",
        "search, len)\n                VALUES (NEW.seq, NEW.id, NEW.namespace, NEW.search,\n"
        "                        engram_search_length(NEW.search))",
    )
    if flush == FLUSH or sync == _SYNC:  # a step's text is never edited, but guard it
        raise RuntimeError("032_keyword_bm25 could not derive its functions from 026 and 028")
    functions = "".join(
        _term_function(source, live, "CREATE OR REPLACE", tokens=True)
        for source, _, live, _ in _TERM_SOURCES
    )
    from engram.store.sql.steps_keyword import _ACCENTED, _PLAIN

    script(
        conn,
        d,
        f"""
        CREATE OR REPLACE FUNCTION engram_fold(t text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT regexp_replace(regexp_replace(translate(
                regexp_replace(lower(coalesce(t, '')), '[[:punct:]]+', ' ', 'g'),
                '{_ACCENTED}{_ACCENTED.upper()}', '{_PLAIN}{_PLAIN}'
            ), '\\m([aeiou][sy])\\M', '\\1e', 'g'), '\\m([b-df-hj-np-tv-z]s)\\M', '\\1s', 'g')
        $$;
        CREATE FUNCTION engram_search_length(v tsvector) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT coalesce(sum(cardinality(u.positions)), 0)::integer FROM unnest(v) u
        $$;
        ALTER TABLE keyword_terms_pending ADD COLUMN tokens BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE memory_search ADD COLUMN len INTEGER NOT NULL DEFAULT 0;
        CREATE OR REPLACE FUNCTION engram_terms_flush(){flush}
        CREATE OR REPLACE FUNCTION engram_memory_search_sync(){sync}
        {functions}
        CREATE TEXT SEARCH DICTIONARY engram_porter (TEMPLATE = snowball, Language = porter);
        ALTER TEXT SEARCH CONFIGURATION engram_english ALTER MAPPING FOR {_WORDS}
            WITH engram_porter;
        UPDATE memories SET content = content;
        UPDATE memory_search SET len = engram_search_length(search)
            WHERE len = 0 AND search IS NOT NULL;
        UPDATE memory_hints SET hint = hint;
        DELETE FROM keyword_terms_pending;
        SELECT set_config('engram.terms_pending', '0', true);
        DELETE FROM keyword_terms;
        INSERT INTO keyword_terms (source, namespace, term, df)
            SELECT 'memories', namespace, t, count(*) FROM memory_search,
                unnest(array_prepend('', coalesce(tsvector_to_array(search), '{{}}'))) t
            GROUP BY namespace, t
            UNION ALL SELECT 'memories', namespace, '{TOKENS}', sum(len) FROM memory_search
            GROUP BY namespace
            UNION ALL SELECT 'hints', namespace, t, count(*) FROM memory_hints,
                unnest(array_prepend('', coalesce(tsvector_to_array(search), '{{}}'))) t
            GROUP BY namespace, t
            UNION ALL SELECT 'hints', namespace, '{TOKENS}', sum(engram_search_length(search))
            FROM memory_hints GROUP BY namespace;
        """,
    )

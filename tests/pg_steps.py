"""Undoing a PostgreSQL migration step in a test database, to make one as an older
engram left it (the upgrade tests then run the steps again)."""

from __future__ import annotations

from typing import Any

import psycopg

from engram.store.sql.steps_keyword import _TERM_SOURCES, FLUSH, _term_function


def undo_keyword_bm25(conn: psycopg.Connection[Any]) -> None:
    """The database as it was before ``032_keyword_bm25`` (bm25pg27), its rows'
    tsvectors aside (the step computes them again): the ``english`` stemmer, no token
    counts, and 026's functions that keep the statistics."""
    statements = [
        "ALTER TEXT SEARCH CONFIGURATION engram_english ALTER MAPPING FOR asciiword, "
        "asciihword, hword_asciipart, word, hword, hword_part WITH engram_english_stem",
        "DROP TEXT SEARCH DICTIONARY engram_porter",
        f"CREATE OR REPLACE FUNCTION engram_terms_flush(){FLUSH}",
        *(
            _term_function(source, live, "CREATE OR REPLACE")
            for source, _, live, _ in _TERM_SOURCES
        ),
        "ALTER TABLE keyword_terms_pending DROP COLUMN tokens",
        "DELETE FROM keyword_terms WHERE term = ' tokens'",
        "ALTER TABLE memory_search DROP COLUMN len",
        "DROP FUNCTION engram_search_length",
        "DELETE FROM schema_migrations WHERE name = '032_keyword_bm25'",
    ]
    for statement in statements:
        conn.execute(statement)

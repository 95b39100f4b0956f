"""SQLite schema step of the term index (issue 13): the keyword change log. Never edit
it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m028_fts_log(conn: sqlite3.Connection) -> None:
    """``fts_log``: which memory of which namespace changed its indexed text, in commit
    order. ``fts.flush`` writes it beside each namespace's FTS5 index, and the in-memory
    term index (``term_search``) reads what it has not applied yet, whoever wrote it.
    A row with no ``seq`` says a whole namespace was re-indexed."""
    _run_script(
        conn,
        """
        CREATE TABLE fts_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            seq INTEGER
        );
        """,
    )

"""SQLite schema step of review (FEATURES H3, H4; seed 000): indexes for the prune
candidates and the preference export. Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m020_review_prune(conn: sqlite3.Connection) -> None:
    """Every prune candidate has quality < 0 (seed 000's rule), so a partial index over
    those few rows answers ``mem.review.prune_candidates`` without scanning a large
    namespace; the export reads a namespace's feedback log in id order."""
    _run_script(
        conn,
        """
        CREATE INDEX memories_prune ON memories(namespace, quality, score)
            WHERE deleted_at IS NULL AND quality < 0;
        CREATE INDEX memory_feedback_ns ON memory_feedback_log(namespace, id);
        """,
    )

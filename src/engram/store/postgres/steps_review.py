"""PostgreSQL schema step of review (FEATURES H3, H4; seed 000), as SQLite's
``020_review_prune``. Never edit it once shipped; add a step."""

from __future__ import annotations

import psycopg


def m016_review_prune(conn: psycopg.Connection) -> None:
    """As SQLite's 020: a partial index over the rows seed 000's prune rule can match
    (quality < 0), and the feedback log by namespace in id order for the export."""
    conn.execute(
        "CREATE INDEX memories_prune ON memories(namespace, quality, score) "
        "WHERE deleted_at IS NULL AND quality < 0"
    )
    conn.execute("CREATE INDEX memory_feedback_ns ON memory_feedback_log(namespace, id)")

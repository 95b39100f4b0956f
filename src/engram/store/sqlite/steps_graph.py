"""SQLite migrations of the knowledge graph after its first schema (013_graph)."""

from __future__ import annotations

import sqlite3

from engram.store.protocols.graph import normal_name


def m015_graph_aspects(conn: sqlite3.Connection) -> None:
    """Aspect feedback and entity normalisation (FEATURES G5, issue 12).

    Decay finds stale aspects per namespace by ``updated_at``, and feedback finds a
    memory's attributes per namespace: both get an index. Entities recorded before
    ``record`` matched normalised spellings ("Dr. Smith" / "dr smith") get their
    normalised spelling as an alias, as new entities do, where no other entity holds
    it."""
    conn.execute(
        "CREATE INDEX IF NOT EXISTS entity_aspects_ns_updated "
        "ON entity_aspects(namespace, updated_at)"
    )
    conn.execute(
        "CREATE INDEX IF NOT EXISTS entity_attributes_ns_memory "
        "ON entity_attributes(namespace, memory_id)"
    )
    rows = conn.execute("SELECT id, namespace, canonical_name FROM entities ORDER BY id")
    for entity_id, namespace, key in rows.fetchall():
        loose = normal_name(key)
        if not loose or loose == key:
            continue
        taken = conn.execute(
            "SELECT 1 FROM entities WHERE namespace = ? AND canonical_name = ? "
            "UNION ALL SELECT 1 FROM entity_aliases WHERE namespace = ? AND alias = ?",
            (namespace, loose, namespace, loose),
        ).fetchone()
        if taken is None:
            conn.execute(
                "INSERT INTO entity_aliases(entity_id, namespace, alias) VALUES (?, ?, ?)",
                (entity_id, namespace, loose),
            )

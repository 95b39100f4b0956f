"""PostgreSQL migrations of the knowledge graph after its first schema (009_graph)."""

from __future__ import annotations

import psycopg

from engram.store.protocols.graph import normal_name


def m011_graph_aspects(conn: psycopg.Connection) -> None:
    """As SQLite's 015: indexes for aspect decay and feedback, and the normalised
    spelling of every existing entity as an alias where no other entity holds it."""
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
        conn.execute(
            "INSERT INTO entity_aliases(entity_id, namespace, alias) SELECT %s, %s, %s "
            "WHERE NOT EXISTS (SELECT 1 FROM entities WHERE namespace = %s "
            "AND canonical_name = %s) ON CONFLICT DO NOTHING",
            (entity_id, namespace, loose, namespace, loose),
        )

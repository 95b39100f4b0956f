"""The schema steps of the knowledge graph (seeds 003, 004), for both engines. Never
edit a step that has shipped; add one."""

from __future__ import annotations

from engram.store.protocols.graph import normal_name
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.steps import pick, script


def m013_graph(conn: Conn, d: Dialect) -> None:
    """The knowledge graph. Rows derived from a memory cascade when it is purged (a
    relation's first source is set NULL); ``memory_id`` columns are indexed so the
    cascade does not scan. PostgreSQL keeps an attribute unique on ``md5(content)``: a
    btree entry cannot hold a long text."""
    script(
        conn,
        d,
        """
        CREATE TABLE entities (
            id {id},
            namespace {key} NOT NULL,
            name TEXT NOT NULL,
            canonical_name {key} NOT NULL,
            entity_type TEXT NOT NULL DEFAULT 'unknown',
            mentions INTEGER NOT NULL DEFAULT 0,
            created_at {time} NOT NULL,
            updated_at {time} NOT NULL,
            UNIQUE (namespace, canonical_name)
        );
        CREATE INDEX entities_ns_mentions ON entities(namespace, mentions DESC);
        CREATE TABLE entity_aliases (
            entity_id {bigint} NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace {key} NOT NULL,
            alias {key} NOT NULL,
            PRIMARY KEY (namespace, alias)
        );
        CREATE INDEX entity_aliases_entity ON entity_aliases(entity_id);
        CREATE TABLE relations (
            id {id},
            namespace {key} NOT NULL,
            source_entity_id {bigint} NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            target_entity_id {bigint} NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            relation_type {key} NOT NULL,
            confidence {real} NOT NULL,
            mentions INTEGER NOT NULL DEFAULT 1,
            strength {real} NOT NULL DEFAULT 1.0,
            valid_from {time} NOT NULL,
            valid_to {time},
            source_memory_id {key} REFERENCES memories(id) ON DELETE SET NULL,
            created_at {time} NOT NULL
        );
        CREATE INDEX relations_source
            ON relations(namespace, source_entity_id, relation_type, valid_from);
        CREATE INDEX relations_target ON relations(namespace, target_entity_id, valid_from);
        CREATE INDEX relations_ns_from ON relations(namespace, valid_from);
        CREATE INDEX relations_memory ON relations(source_memory_id);
        CREATE TABLE relation_mentions (
            relation_id {bigint} NOT NULL REFERENCES relations(id) ON DELETE CASCADE,
            memory_id {key} NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            confidence {real} NOT NULL,
            PRIMARY KEY (relation_id, memory_id)
        );
        CREATE INDEX relation_mentions_memory ON relation_mentions(memory_id);
        CREATE TABLE memory_entity_mentions (
            memory_id {key} NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            entity_id {bigint} NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace {key} NOT NULL,
            mention_text TEXT NOT NULL,
            confidence {real} NOT NULL,
            PRIMARY KEY (memory_id, entity_id)
        );
        CREATE INDEX memory_entity_mentions_entity ON memory_entity_mentions(entity_id);
        CREATE TABLE entity_aspects (
            id {id},
            entity_id {bigint} NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace {key} NOT NULL,
            canonical_name {key} NOT NULL,
            name TEXT NOT NULL,
            weight {real} NOT NULL DEFAULT 0.5,
            updated_at {time} NOT NULL,
            UNIQUE (entity_id, canonical_name)
        );
        CREATE TABLE entity_attributes (
            id {id},
            entity_id {bigint} NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            namespace {key} NOT NULL,
            aspect_id {bigint} REFERENCES entity_aspects(id) ON DELETE SET NULL,
            memory_id {key} NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            content TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT 'attribute' CHECK (kind IN ('attribute', 'constraint')),
            importance {real} NOT NULL DEFAULT 0.5,
            created_at {time} NOT NULL{attribute_once}
        );
        {attribute_index}
        CREATE INDEX entity_attributes_memory ON entity_attributes(memory_id);
        CREATE INDEX entity_attributes_aspect ON entity_attributes(aspect_id);
        """,
        attribute_once=pick(d, sqlite=",\n UNIQUE (entity_id, memory_id, content)", postgres=""),
        attribute_index=pick(
            d,
            sqlite="",
            postgres="CREATE UNIQUE INDEX entity_attributes_once\n"
            "ON entity_attributes(entity_id, memory_id, md5(content));",
        ),
    )


def m015_graph_aspects(conn: Conn, d: Dialect) -> None:
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
        # An alias held already (the primary key) is a conflict, so nothing is written.
        conn.execute(
            "INSERT INTO entity_aliases(entity_id, namespace, alias) SELECT ?, ?, ? "
            "WHERE NOT EXISTS (SELECT 1 FROM entities WHERE namespace = ? "
            "AND canonical_name = ?) ON CONFLICT DO NOTHING",
            (entity_id, namespace, loose, namespace, loose),
        )


def m032_relations_by_type(conn: Conn, d: Dialect) -> None:
    """The closer's learned cardinality of a relation type (``graph_changes.cardinality``)
    reads one type's relations of a namespace; on ``relations_source`` (namespace, then
    source) it read every relation of the namespace, a cost on the write path that grew
    with the graph (docs/benchmarks.md, issue 29). This index holds every column the
    count reads."""
    conn.execute(
        "CREATE INDEX IF NOT EXISTS relations_ns_type "
        "ON relations(namespace, relation_type, source_entity_id, valid_to)"
    )

"""Entity merge, split and relation invalidation for the PostgreSQL graph store, with
the SQLite store's semantics (``engram.store.sqlite.graph_merge``): run on a connection
inside the caller's transaction, under the namespace's graph lock, touching only the
rows of the entities involved."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import InvalidInputError, NotFoundError
from engram.records import iso
from engram.store.protocols.graph import canonical_name, normal_name

Conn = psycopg.Connection[Any]


def _entity_row(conn: Conn, namespace: str, entity_id: int) -> Sequence[Any]:
    row = conn.execute(
        "SELECT id, canonical_name, mentions, entity_type, name FROM entities "
        "WHERE id = %s AND namespace = %s FOR UPDATE",
        (entity_id, namespace),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no entity {entity_id} in namespace {namespace!r}")
    return tuple(row)


def merge(conn: Conn, namespace: str, keep: int, other: int, now: datetime) -> None:
    """Fold ``other`` into ``keep`` (see ``GraphStore.merge``)."""
    if keep == other:
        raise InvalidInputError("cannot merge an entity into itself; name two entities")
    _entity_row(conn, namespace, keep)
    _, other_key, other_mentions, _, _ = _entity_row(conn, namespace, other)
    # A memory that mentions both counts once: its row for ``other`` goes.
    shared = conn.execute(
        "DELETE FROM memory_entity_mentions WHERE entity_id = %s AND memory_id IN "
        "(SELECT memory_id FROM memory_entity_mentions WHERE entity_id = %s)",
        (other, keep),
    ).rowcount
    conn.execute(
        "UPDATE memory_entity_mentions SET entity_id = %s WHERE entity_id = %s", (keep, other)
    )
    conn.execute(
        "UPDATE entities SET mentions = mentions + GREATEST(0, %s - %s), updated_at = %s "
        "WHERE id = %s",
        (other_mentions, shared, now, keep),
    )
    conn.execute("UPDATE entity_aliases SET entity_id = %s WHERE entity_id = %s", (keep, other))
    rows = conn.execute(
        "SELECT id, source_entity_id, relation_type, target_entity_id, valid_from, valid_to "
        "FROM relations WHERE namespace = %s AND (source_entity_id = %s "
        "OR target_entity_id = %s) ORDER BY valid_from, id",
        (namespace, other, other),
    ).fetchall()
    for rid, source, kind, target, valid_from, valid_to in rows:
        source = keep if source == other else source
        target = keep if target == other else target
        if source == target:  # "Caroline knows Caro" says nothing once they are one
            conn.execute("DELETE FROM relations WHERE id = %s", (rid,))
            continue
        twin = conn.execute(
            "SELECT id FROM relations WHERE namespace = %s AND source_entity_id = %s "
            "AND relation_type = %s AND target_entity_id = %s AND id <> %s "
            "AND valid_from <= coalesce(%s, 'infinity'::timestamptz) "
            "AND %s <= coalesce(valid_to, 'infinity'::timestamptz) "
            "ORDER BY valid_to IS NOT NULL, valid_from LIMIT 1",
            (namespace, source, kind, target, rid, valid_to, valid_from),
        ).fetchone()
        if twin is None:
            conn.execute(
                "UPDATE relations SET source_entity_id = %s, target_entity_id = %s WHERE id = %s",
                (source, target, rid),
            )
        else:
            _fold_relation(conn, int(twin[0]), int(rid))
    conn.execute(
        "INSERT INTO entity_aliases(entity_id, namespace, alias) VALUES (%s, %s, %s) "
        "ON CONFLICT DO NOTHING",
        (keep, namespace, other_key),
    )
    conn.execute("DELETE FROM entities WHERE id = %s", (other,))


def _fold_relation(conn: Conn, into: int, gone: int) -> None:
    """Fold relation ``gone`` into its duplicate ``into``: windows united, stating
    memories joined (one row per memory), confidence averaged over their mentions."""
    columns = "confidence, mentions, valid_from, valid_to, source_memory_id"
    a = conn.execute(f"SELECT {columns} FROM relations WHERE id = %s", (into,)).fetchone()
    b = conn.execute(f"SELECT {columns} FROM relations WHERE id = %s", (gone,)).fetchone()
    assert a is not None and b is not None
    row = conn.execute(
        "SELECT count(*) FROM relation_mentions WHERE relation_id = %s AND memory_id IN "
        "(SELECT memory_id FROM relation_mentions WHERE relation_id = %s)",
        (gone, into),
    ).fetchone()
    shared = int(row[0]) if row else 0
    conn.execute(
        "UPDATE relation_mentions SET relation_id = %s WHERE relation_id = %s AND memory_id "
        "NOT IN (SELECT memory_id FROM relation_mentions WHERE relation_id = %s)",
        (into, gone, into),
    )
    mentions = max(1, int(a[1]) + int(b[1]) - shared)
    # seed 004's running average, over both rows' statements
    confidence = (a[0] * a[1] + b[0] * b[1]) / max(1, a[1] + b[1])
    earlier = b if b[2] < a[2] else a
    valid_to = None if a[3] is None or b[3] is None else max(a[3], b[3])
    conn.execute("DELETE FROM relations WHERE id = %s", (gone,))
    conn.execute(
        "UPDATE relations SET confidence = %s, mentions = %s, valid_from = %s, valid_to = %s, "
        "source_memory_id = coalesce(%s, source_memory_id) WHERE id = %s",
        (confidence, mentions, earlier[2], valid_to, earlier[4], into),
    )


def split(conn: Conn, namespace: str, entity_id: int, alias: str, now: datetime) -> int:
    """Make ``alias`` an entity again (see ``GraphStore.split``); returns its id."""
    _, key, _, entity_type, _ = _entity_row(conn, namespace, entity_id)
    found = conn.execute(
        "SELECT 1 FROM entity_aliases WHERE namespace = %s AND alias = %s AND entity_id = %s",
        (namespace, alias, entity_id),
    ).fetchone()
    if found is None:
        raise NotFoundError(
            f"{alias!r} is not an alias of entity {key!r}; see its aliases with mem.graph.entity()"
        )
    loose = normal_name(alias)
    moved: list[str] = []
    spelling = alias
    for memory_id, text in conn.execute(
        "SELECT memory_id, mention_text FROM memory_entity_mentions WHERE entity_id = %s",
        (entity_id,),
    ).fetchall():
        if canonical_name(text) == alias or normal_name(text) == loose:
            moved.append(memory_id)
            spelling = text
    conn.execute(
        "DELETE FROM entity_aliases WHERE namespace = %s AND alias = %s", (namespace, alias)
    )
    if loose != alias and loose != key:  # the alias's loose spelling goes with it
        conn.execute(
            "DELETE FROM entity_aliases WHERE namespace = %s AND alias = %s AND entity_id = %s",
            (namespace, loose, entity_id),
        )
    row = conn.execute(
        "INSERT INTO entities(namespace, name, canonical_name, entity_type, mentions, "
        "created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (namespace, spelling, alias, entity_type, len(moved), now, now),
    ).fetchone()
    assert row is not None
    new = int(row[0])
    conn.execute(
        "UPDATE entities SET mentions = GREATEST(0, mentions - %s), updated_at = %s WHERE id = %s",
        (len(moved), now, entity_id),
    )
    if not moved:  # an alias no mention was spelled as: nothing more to move
        return new
    conn.execute(
        "UPDATE memory_entity_mentions SET entity_id = %s WHERE entity_id = %s "
        "AND memory_id = ANY(%s)",
        (new, entity_id, moved),
    )
    for end in ("source_entity_id", "target_entity_id"):
        conn.execute(
            f"UPDATE relations SET {end} = %s WHERE namespace = %s AND {end} = %s "
            "AND source_memory_id = ANY(%s)",
            (new, namespace, entity_id, moved),
        )
    return new


def invalidate(
    conn: Conn,
    namespace: str,
    fact: tuple[int, str, int],
    at: datetime,
    now: datetime,
) -> int:
    """Close the current relation ``fact`` at ``at``; returns its id."""
    source, kind, target = fact
    row = conn.execute(
        "SELECT id, valid_from FROM relations WHERE namespace = %s AND source_entity_id = %s "
        "AND relation_type = %s AND target_entity_id = %s AND valid_to IS NULL "
        "ORDER BY valid_from DESC, id DESC LIMIT 1 FOR UPDATE",
        (namespace, source, kind, target),
    ).fetchone()
    if row is None:
        raise NotFoundError(
            f"no current {kind!r} relation between those entities in namespace "
            f"{namespace!r}; see mem.graph.relations() for what holds"
        )
    if at < row[1]:
        raise InvalidInputError(
            f"the relation holds from {iso(row[1])}; it cannot end before it started ({iso(at)})"
        )
    conn.execute("UPDATE relations SET valid_to = %s WHERE id = %s", (at, row[0]))
    conn.execute("UPDATE entities SET updated_at = %s WHERE id IN (%s, %s)", (now, source, target))
    return int(row[0])

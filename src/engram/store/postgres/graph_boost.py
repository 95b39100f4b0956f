"""seed 004's graph boost lookup on PostgreSQL (FEATURES G4): query names -> entities
-> one hop -> memories, four indexed statements (arrays bound as parameters, no loop
over rows) with a deadline checked between them. ``PostgresGraph.boost_lookup`` runs
it on a pooled read connection."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import psycopg

from engram.store.protocols.graph import BoostLookup

#: The clock the deadline is read with (a seam for tests).
now = time.monotonic


def boost_lookup(
    conn: psycopg.Connection[Any],
    namespace: str,
    names: Sequence[str],
    *,
    entity_limit: int,
    neighbor_limit: int,
    memory_limit: int,
    hub_mentions: int,
    deadline: float,
) -> BoostLookup:
    """See ``GraphStore.boost_lookup``."""
    names = list(dict.fromkeys(names))
    if not names:
        return BoostLookup(())
    hub = hub_mentions if hub_mentions > 0 else -1
    rows = conn.execute(
        "SELECT id, mentions FROM entities WHERE namespace = %s AND (canonical_name = "
        "ANY(%s) OR id IN (SELECT entity_id FROM entity_aliases WHERE namespace = %s "
        "AND alias = ANY(%s))) "
        "ORDER BY mentions DESC, id LIMIT %s",
        (namespace, names, namespace, names, entity_limit),
    ).fetchall()
    matched = [int(r[0]) for r in rows]
    # Hubs neither boost their own mentions nor lead anywhere: a speaker named in every
    # turn is linked to everything they talked about.
    seeds = [int(r[0]) for r in rows if hub < 0 or int(r[1]) <= hub]
    if not matched:
        return BoostLookup(())
    if now() > deadline:
        return BoostLookup((), tuple(matched), timed_out=True)
    direct = _memories(conn, namespace, seeds, hub, memory_limit, [])
    late = now() > deadline
    if late or len(direct) >= memory_limit or not seeds:
        return BoostLookup(direct, tuple(matched), timed_out=late)
    # One hop through the relations that hold now, either direction; the strongest
    # (most often stated) first.
    found = conn.execute(
        "SELECT other FROM (SELECT target_entity_id AS other, mentions FROM relations "
        "WHERE namespace = %s AND valid_to IS NULL AND source_entity_id = ANY(%s) "
        "UNION ALL SELECT source_entity_id, mentions FROM relations WHERE namespace = %s "
        "AND valid_to IS NULL AND target_entity_id = ANY(%s)) AS hop "
        "WHERE other <> ALL(%s) GROUP BY other ORDER BY max(mentions) DESC, other LIMIT %s",
        (namespace, seeds, namespace, seeds, matched, neighbor_limit),
    ).fetchall()
    neighbors = [int(r[0]) for r in found]
    if now() > deadline:
        return BoostLookup(direct, tuple(matched), tuple(neighbors), timed_out=True)
    more = _memories(conn, namespace, neighbors, hub, memory_limit - len(direct), list(direct))
    return BoostLookup(
        (*direct, *more), tuple(matched), tuple(neighbors), timed_out=now() > deadline
    )


def _memories(
    conn: psycopg.Connection[Any],
    namespace: str,
    entity_ids: list[int],
    hub: int,
    limit: int,
    skip: list[str],
) -> tuple[str, ...]:
    """Live memories mentioning the entities that are not hubs; those of the rarest
    entity first (a rare name says more about a memory than a common one)."""
    if not entity_ids or limit <= 0:
        return ()
    rows = conn.execute(
        "SELECT m.memory_id FROM memory_entity_mentions m "
        "JOIN entities e ON e.id = m.entity_id "
        "JOIN memories x ON x.id = m.memory_id AND x.deleted_at IS NULL "
        "WHERE m.namespace = %s AND m.entity_id = ANY(%s) AND (%s < 0 OR e.mentions <= %s) "
        "AND m.memory_id <> ALL(%s) "
        "GROUP BY m.memory_id ORDER BY min(e.mentions), m.memory_id LIMIT %s",
        (namespace, entity_ids, hub, hub, skip, limit),
    ).fetchall()
    return tuple(str(r[0]) for r in rows)

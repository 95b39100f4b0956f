"""seed 004's graph boost lookup (FEATURES G4): query names -> entities -> one hop ->
memories, four indexed statements (lists bound as arrays on PostgreSQL, spread into
``IN`` lists on SQLite; no loop over rows) with a deadline checked between them.
``SqlGraph.boost_lookup`` runs it on a read connection."""

from __future__ import annotations

import time
from collections.abc import Sequence

from engram.store.protocols.graph import BoostLookup
from engram.store.sql.dialect import Conn, Dialect

#: The clock the deadline is read with (a seam for tests).
now = time.monotonic


def boost_lookup(
    conn: Conn,
    d: Dialect,
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
        f"SELECT id, mentions FROM entities WHERE namespace = ? AND "
        f"({d.any_of('canonical_name', names)} OR id IN (SELECT entity_id FROM "
        f"entity_aliases WHERE namespace = ? AND {d.any_of('alias', names)})) "
        "ORDER BY mentions DESC, id LIMIT ?",
        (namespace, *d.bind(names), namespace, *d.bind(names), entity_limit),
    ).fetchall()
    matched = tuple(int(r[0]) for r in rows)
    # Hubs neither boost their own mentions nor lead anywhere: a speaker named in every
    # turn is linked to everything they talked about.
    seeds = tuple(int(r[0]) for r in rows if hub < 0 or int(r[1]) <= hub)
    if not matched:
        return BoostLookup(())
    if now() > deadline:
        return BoostLookup((), matched, timed_out=True)
    direct = _memories(conn, d, namespace, seeds, hub, memory_limit)
    late = now() > deadline
    if late or len(direct) >= memory_limit or not seeds:
        return BoostLookup(direct, matched, timed_out=late)
    # One hop through the relations that hold now, either direction; the strongest
    # (most often stated) first.
    found = conn.execute(
        "SELECT other FROM (SELECT target_entity_id AS other, mentions FROM relations "
        f"WHERE namespace = ? AND valid_to IS NULL AND {d.any_of('source_entity_id', seeds)} "
        "UNION ALL SELECT source_entity_id, mentions FROM relations WHERE namespace = ? "
        f"AND valid_to IS NULL AND {d.any_of('target_entity_id', seeds)}) AS hop "
        f"WHERE {d.none_of('other', matched)} GROUP BY other "
        "ORDER BY max(mentions) DESC, other LIMIT ?",
        (namespace, *d.bind(seeds), namespace, *d.bind(seeds), *d.bind(matched), neighbor_limit),
    ).fetchall()
    neighbors = tuple(int(r[0]) for r in found)
    if now() > deadline:
        return BoostLookup(direct, matched, neighbors, timed_out=True)
    more = _memories(conn, d, namespace, neighbors, hub, memory_limit - len(direct), direct)
    return BoostLookup((*direct, *more), matched, neighbors, timed_out=now() > deadline)


def _memories(
    conn: Conn,
    d: Dialect,
    namespace: str,
    entity_ids: Sequence[int],
    hub: int,
    limit: int,
    skip: Sequence[str] = (),
) -> tuple[str, ...]:
    """Live memories mentioning the entities that are not hubs; those of the rarest
    entity first (a rare name says more about a memory than a common one)."""
    if not entity_ids or limit <= 0:
        return ()
    rows = conn.execute(
        "SELECT m.memory_id FROM memory_entity_mentions m "
        "JOIN entities e ON e.id = m.entity_id "
        "JOIN memories x ON x.id = m.memory_id AND x.deleted_at IS NULL "
        f"WHERE m.namespace = ? AND {d.any_of('m.entity_id', entity_ids)} "
        f"AND (? < 0 OR e.mentions <= ?) AND {d.none_of('m.memory_id', skip)} "
        "GROUP BY m.memory_id ORDER BY min(e.mentions), m.memory_id LIMIT ?",
        (namespace, *d.bind(entity_ids), hub, hub, *d.bind(skip), limit),
    ).fetchall()
    return tuple(str(r[0]) for r in rows)

"""seed 004's graph boost lookup on SQLite (FEATURES G4): query names -> entities ->
one hop -> memories, four indexed statements with a deadline checked between them.
``SQLiteGraph.boost_lookup`` runs it on a read connection."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence

from engram.store.protocols.graph import BoostLookup

#: The clock the deadline is read with (a seam for tests).
now = time.monotonic


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def boost_lookup(
    conn: sqlite3.Connection,
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
        f"SELECT id, mentions FROM entities WHERE namespace = ? AND (canonical_name IN "
        f"({_marks(names)}) OR id IN (SELECT entity_id FROM entity_aliases WHERE "
        f"namespace = ? AND alias IN ({_marks(names)}))) ORDER BY mentions DESC, id LIMIT ?",
        (namespace, *names, namespace, *names, entity_limit),
    ).fetchall()
    matched = tuple(int(r[0]) for r in rows)
    # Hubs neither boost their own mentions nor lead anywhere: a speaker named in every
    # turn is linked to everything they talked about.
    seeds = tuple(int(r[0]) for r in rows if hub < 0 or int(r[1]) <= hub)
    if not matched:
        return BoostLookup(())
    if now() > deadline:
        return BoostLookup((), matched, timed_out=True)
    direct = _memories(conn, namespace, seeds, hub, memory_limit)
    late = now() > deadline
    if late or len(direct) >= memory_limit or not seeds:
        return BoostLookup(direct, matched, timed_out=late)
    # One hop through the relations that hold now, either direction; the strongest
    # (most often stated) first.
    found = conn.execute(
        f"SELECT other FROM (SELECT target_entity_id AS other, mentions FROM relations "
        f"WHERE namespace = ? AND valid_to IS NULL AND source_entity_id IN ({_marks(seeds)}) "
        f"UNION ALL SELECT source_entity_id, mentions FROM relations WHERE namespace = ? "
        f"AND valid_to IS NULL AND target_entity_id IN ({_marks(seeds)})) "
        f"WHERE other NOT IN ({_marks(matched)}) GROUP BY other "
        f"ORDER BY max(mentions) DESC, other LIMIT ?",
        (namespace, *seeds, namespace, *seeds, *matched, neighbor_limit),
    ).fetchall()
    neighbors = tuple(int(r[0]) for r in found)
    if now() > deadline:
        return BoostLookup(direct, matched, neighbors, timed_out=True)
    more = _memories(conn, namespace, neighbors, hub, memory_limit - len(direct), direct)
    return BoostLookup((*direct, *more), matched, neighbors, timed_out=now() > deadline)


def _memories(
    conn: sqlite3.Connection,
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
        f"SELECT m.memory_id FROM memory_entity_mentions m "
        f"JOIN entities e ON e.id = m.entity_id "
        f"JOIN memories x ON x.id = m.memory_id AND x.deleted_at IS NULL "
        f"WHERE m.namespace = ? AND m.entity_id IN ({_marks(entity_ids)}) "
        f"AND (? < 0 OR e.mentions <= ?) AND m.memory_id NOT IN ({_marks(skip)}) "
        f"GROUP BY m.memory_id ORDER BY min(e.mentions), m.memory_id LIMIT ?",
        (namespace, *entity_ids, hub, hub, *skip, limit),
    ).fetchall()
    return tuple(str(r[0]) for r in rows)

"""What the graph knows about changed facts (issue 28, FEATURES G2): how each relation
type is held in a namespace, and which memories stated a fact since closed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from functools import partial

from engram.store.protocols.graph import Cardinality
from engram.store.sql.dialect import Conn, Dialect


def cardinality(
    conn: Conn, d: Dialect, namespace: str, relation_types: Sequence[str]
) -> dict[str, Cardinality]:
    """``GraphStore.relation_cardinality``: per type, its sources, those holding two
    or more current targets, and its closed relations."""
    rows = d.select_in(
        conn,
        "SELECT relation_type, COUNT(*), "
        "SUM(CASE WHEN held > 1 THEN 1 ELSE 0 END), SUM(closed) FROM ("
        "SELECT r.relation_type, r.source_entity_id, "
        "SUM(CASE WHEN r.valid_to IS NULL THEN 1 ELSE 0 END) AS held, "
        "SUM(CASE WHEN r.valid_to IS NULL THEN 0 ELSE 1 END) AS closed "
        "FROM relations r WHERE r.namespace = ? AND ",
        "r.relation_type",
        list(dict.fromkeys(relation_types)),
        (namespace,),
        " GROUP BY r.relation_type, r.source_entity_id) x GROUP BY relation_type",
    )
    return {r[0]: Cardinality(int(r[1]), int(r[2] or 0), int(r[3] or 0)) for r in rows}


def stale_memories(conn: Conn, d: Dialect, namespace: str, memory_ids: Sequence[str]) -> set[str]:
    """``GraphStore.stale_memories``: those of ``memory_ids`` that stated a relation
    that has a ``valid_to``, or that the pipeline wrote from a memory that did.

    Read from the ids' mentions (``relation_mentions_memory``), each relation then
    looked up by its key. Written as a join, SQLite (no ``ANALYZE`` statistics) walked
    every relation of the namespace and probed each closed one for every id: about
    7 ms for 160 ids on a 100k store against 1.5 ms this way, the same rows
    (docs/benchmarks.md, issue 29, round 9). A fact the pipeline wrote says what its
    memory said ("User drinks tea every morning" from "I drink tea every morning"):
    its ``source_memory_id`` is read by the id's key and asked the same way (a
    correlated test walked the namespace's relations again: 300 ms at 20k)."""
    ids = list(dict.fromkeys(memory_ids))
    stale = _stated_closed(conn, d, namespace, ids)
    rest = [i for i in ids if i not in stale]
    return stale | derived_stale(conn, d, rest, partial(_stated_closed, conn, d, namespace))


#: The relations a memory states (its mentions), each with the one it closed: same
#: source and type, closed when the new one began (``graph_record``'s ``_apply`` sets
#: the old ``valid_to`` to the new ``valid_from``), on the ``relations_source`` index;
#: then the memories that stated the old one.
_CLOSED_BY = (
    "SELECT DISTINCT mo.memory_id, es.name, eo.name, en.name FROM relation_mentions mn "
    "JOIN relations n ON n.id = mn.relation_id "
    "JOIN relations o ON o.namespace = n.namespace AND o.source_entity_id = n.source_entity_id "
    "AND o.relation_type = n.relation_type AND o.valid_to = n.valid_from AND o.id <> n.id "
    "JOIN relation_mentions mo ON mo.relation_id = o.id "
    "JOIN entities es ON es.id = n.source_entity_id "
    "JOIN entities eo ON eo.id = o.target_entity_id "
    "JOIN entities en ON en.id = n.target_entity_id "
    "WHERE mn.memory_id = ? AND n.namespace = ? AND mo.memory_id <> mn.memory_id"
)


def closed_by(conn: Conn, namespace: str, memory_id: str) -> list[tuple[str, str, str, str]]:
    """``GraphCountStore.closed_by``: (old statement's memory, source, old target, new
    target)."""
    rows = conn.execute(_CLOSED_BY, (memory_id, namespace)).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in rows]


def derived_stale(
    conn: Conn,
    d: Dialect,
    memory_ids: Sequence[str],
    closed: Callable[[list[str]], AbstractSet[str]],
) -> set[str]:
    """Those of ``memory_ids`` the pipeline wrote from a memory that ``closed`` (given
    source ids, the ones that stated a closed fact) names: each id's
    ``source_memory_id`` read by its key."""
    sources = d.select_in(
        conn,
        "SELECT f.id, f.source_memory_id FROM memories f WHERE f.source_memory_id IS NOT NULL AND ",
        "f.id",
        list(memory_ids),
    )
    if not sources:
        return set()
    bad = closed(list({r[1] for r in sources}))
    return {r[0] for r in sources if r[1] in bad}


def retimed(
    conn: Conn, d: Dialect, namespace: str, memory_ids: Sequence[str], kinds: frozenset[str]
) -> set[str]:
    """``GraphCountStore.retimed_memories``: those of ``memory_ids`` whose closed facts
    (their own, else those of the memory the pipeline wrote them from) are all of
    ``kinds`` (times, or an event's places)."""
    ids = list(dict.fromkeys(memory_ids))
    sources = dict(
        d.select_in(
            conn,
            "SELECT f.id, f.source_memory_id FROM memories f "
            "WHERE f.source_memory_id IS NOT NULL AND ",
            "f.id",
            ids,
        )
    )
    closed: dict[str, set[str]] = {}
    for memory_id, kind in d.select_in(
        conn,
        "SELECT DISTINCT m.memory_id, r.relation_type FROM relation_mentions m "
        "JOIN relations r ON r.id = m.relation_id "
        "WHERE r.namespace = ? AND r.valid_to IS NOT NULL AND ",
        "m.memory_id",
        list(dict.fromkeys([*ids, *sources.values()])),
        (namespace,),
    ):
        closed.setdefault(memory_id, set()).add(kind)
    said = {i: closed.get(i) or closed.get(sources.get(i, ""), set()) for i in ids}
    return {i for i, k in said.items() if k and k <= kinds}


def _stated_closed(conn: Conn, d: Dialect, namespace: str, ids: Sequence[str]) -> set[str]:
    rows = d.select_in(
        conn,
        "SELECT DISTINCT m.memory_id FROM relation_mentions m WHERE EXISTS (SELECT 1 "
        "FROM relations r WHERE r.id = m.relation_id AND r.namespace = ? "
        "AND r.valid_to IS NOT NULL) AND ",
        "m.memory_id",
        ids,
        (namespace,),
    )
    return {r[0] for r in rows}

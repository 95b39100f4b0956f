"""The graph's counts, and the listing filters they share with ``SqlGraph.entities`` and
``relations`` (one definition, so a total always matches its pages)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.store.protocols import GraphCountStore
from engram.store.protocols.graph import Cardinality, Relation
from engram.store.protocols.graph_counts import TIME_TYPES
from engram.store.sql import graph_changes
from engram.store.sql.dialect import Dialect
from engram.store.sql.graph_record import RELATION, VALID_AT
from engram.store.sql.session import SqlPart


def entity_filter(namespace: str, query: str | None) -> tuple[str, list[Any]]:
    """The WHERE clause (over ``entities e``) of a listing: the namespace, and canonical
    names containing ``query`` (LIKE wildcards in it taken literally)."""
    where, params = "e.namespace = ?", [namespace]
    if query:
        escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where += " AND e.canonical_name LIKE ? ESCAPE '\\'"
        params.append(f"%{escaped}%")
    return where, params


def relation_filter(
    d: Dialect,
    namespace: str,
    entity_id: int | None,
    current_only: bool,
    at: datetime | None,
    stated_by: str | None = None,
) -> tuple[str, list[Any]]:
    """The WHERE clause (over ``relations r``) of a listing: of one entity (either end);
    stated by one memory; valid at ``at``, else current only, else all."""
    # Written as ``namespace = ? AND (source = ? OR target = ?)``, SQLite's planner
    # walked the whole namespace on ``relations_ns_from`` to skip the sort, a cost that
    # grew with the graph on every closing plan of the write path (docs/benchmarks.md,
    # issue 29); so one entity's relations (either end) are read by id from their two
    # indexes (``relations_source``, ``relations_target``), and one memory's from
    # ``relations_memory``, the namespace inside. The rows and their order are the same.
    ids: list[str] = []
    params: list[Any] = []
    if entity_id is not None:
        ids.append(
            "r.id IN (SELECT id FROM relations WHERE namespace = ? AND source_entity_id = ? "
            "UNION ALL SELECT id FROM relations WHERE namespace = ? AND target_entity_id = ?)"
        )
        params += [namespace, entity_id, namespace, entity_id]
    if stated_by is not None:
        ids.append(
            "r.id IN (SELECT id FROM relations WHERE namespace = ? AND source_memory_id = ?)"
        )
        params += [namespace, stated_by]
    where = " AND ".join(ids) if ids else "r.namespace = ?"
    params = params if ids else [namespace]
    if at is not None:
        where += f" AND {VALID_AT}"
        params += [d.ts(at), d.ts(at)]
    elif current_only:
        where += " AND r.valid_to IS NULL"
    return where, params


class SqlGraphCounts(SqlPart, GraphCountStore):
    """``GraphCountStore`` on either engine: one ``COUNT(*)`` each."""

    def count_entities(self, namespace: str, *, query: str | None) -> int:
        where, params = entity_filter(namespace, query)
        sql = f"SELECT COUNT(*) FROM entities e WHERE {where}"
        return self._read_count(sql, params, "counting entities")

    def count_relations(
        self,
        namespace: str,
        *,
        entity_id: int | None,
        current_only: bool,
        at: datetime | None,
    ) -> int:
        where, params = relation_filter(self._d, namespace, entity_id, current_only, at)
        sql = f"SELECT COUNT(*) FROM relations r WHERE {where}"
        return self._read_count(sql, params, "counting relations")

    def hub_mentions(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        # An indexed lookup by ``memory_entity_mentions``' primary key: one query with the
        # ids as an array on PostgreSQL, ``d.chunk`` ids a query on SQLite.
        d = self._d
        out: dict[str, dict[str, int]] = {}
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return out
        with self._sql.read("reading entity mention counts") as conn:
            rows = d.select_in(
                conn,
                "SELECT m.memory_id, e.canonical_name, e.mentions "
                "FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id "
                "WHERE m.namespace = ? AND ",
                "m.memory_id",
                ids,
                (namespace,),
            )
        for memory_id, name, mentions in rows:
            out.setdefault(str(memory_id), {})[str(name)] = int(mentions)
        return out

    def relation_cardinality(
        self, namespace: str, relation_types: Sequence[str]
    ) -> dict[str, Cardinality]:
        with self._sql.read("counting how relations are held") as conn:
            return graph_changes.cardinality(conn, self._d, namespace, relation_types)

    def stale_memories(self, namespace: str, memory_ids: Sequence[str]) -> set[str]:
        with self._sql.read("finding memories of closed facts") as conn:
            return graph_changes.stale_memories(conn, self._d, namespace, memory_ids)

    def retimed_memories(
        self, namespace: str, memory_ids: Sequence[str], kinds: frozenset[str] = TIME_TYPES
    ) -> set[str]:
        with self._sql.read("finding memories whose closed facts are times") as conn:
            return graph_changes.retimed(conn, self._d, namespace, memory_ids, kinds)

    def entity_names(self, namespace: str, limit: int) -> frozenset[str] | None:
        rows = self._rows(
            "SELECT canonical_name FROM entities WHERE namespace = ? UNION ALL "
            "SELECT alias FROM entity_aliases WHERE namespace = ? LIMIT ?",
            (namespace, namespace, limit + 1),
            "reading entity names",
        )
        return None if len(rows) > limit else frozenset(r[0] for r in rows)

    def closed_by(self, namespace: str, memory_id: str) -> list[tuple[str, str, str, str]]:
        with self._sql.read("finding the facts a memory changed") as conn:
            return graph_changes.closed_by(conn, namespace, memory_id)

    def current_relations(
        self, namespace: str, source_id: int, relation_type: str
    ) -> list[Relation]:
        # On the ``relations_source`` index.
        return self._records(
            Relation,
            f"{RELATION} WHERE r.namespace = ? AND r.source_entity_id = ? "
            "AND r.relation_type = ? AND r.valid_to IS NULL ORDER BY r.valid_from, r.id",
            (namespace, source_id, relation_type),
            "reading a source's current relations",
        )

"""The knowledge graph (seed 004's graph tables, seed 003's validity windows).

Writes run in one transaction: on SQLite ``BEGIN IMMEDIATE`` (or the open one), so the
read-then-write steps of ``record`` never interleave with another writer; on
PostgreSQL under a transaction-level advisory lock per namespace
(``graph_record.lock``), which serialises concurrent ``record`` calls the same way and
cannot deadlock on each other's entity rows. Timelines and neighbour walks are single
SQL statements (the walk a recursive CTE), never loops over rows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from engram.errors import InvalidInputError
from engram.store.protocols import GraphStore
from engram.store.protocols.graph import (
    BoostLookup,
    Entity,
    Mention,
    Neighbor,
    RecordResult,
    Relation,
    Statement,
    canonical_relation,
    name_keys,
)
from engram.store.sql import graph_boost, graph_merge, graph_record
from engram.store.sql.dialect import Dialect
from engram.store.sql.graph_counts import entity_filter, relation_filter
from engram.store.sql.graph_record import RELATION, VALID_AT, check_entity, lock, relation
from engram.store.sql.rows import columns, record
from engram.store.sql.session import Sql, SqlPart

# An entity's aliases, one column: SQLite joins them with char(31) (the unit separator
# cannot appear in a canonical name: whitespace is collapsed); PostgreSQL returns an
# array in alias order.
_ALIASES = {
    "sqlite": "(SELECT group_concat(a.alias, char(31)) FROM entity_aliases a "
    "WHERE a.entity_id = e.id)",
    "postgres": "ARRAY(SELECT a.alias FROM entity_aliases a WHERE a.entity_id = e.id "
    "ORDER BY a.alias)",
}


#: The relations in the order they were told.
_OLDEST = "ORDER BY r.valid_from, r.id"


def _aliases(d: Dialect, value: Any) -> tuple[str, ...]:
    if d.name == "sqlite":
        return tuple(sorted(value.split("\x1f"))) if value else ()
    return tuple(value or ())


class SqlGraph(SqlPart, GraphStore):
    """``GraphStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        super().__init__(sql)
        d = self._d
        self._select = (
            "SELECT e.id, e.namespace, e.name, e.canonical_name, e.entity_type, e.mentions, "
            f"e.created_at, e.updated_at, {_ALIASES[d.name]} FROM entities e"
        )

    def _entity(self, row: Sequence[Any]) -> Entity:
        return record(self._d, Entity, row, aliases=partial(_aliases, self._d))

    # -- writes -----------------------------------------------------------------------
    def record(
        self,
        namespace: str,
        statements: Sequence[Statement],
        *,
        single_valued: Collection[str],
    ) -> list[RecordResult]:
        if not statements:
            return []
        plans = [graph_record.names_of(self._d, s) for s in statements]
        with self._sql.tx("recording graph facts") as conn:
            return graph_record.record(conn, self._d, namespace, statements, single_valued, plans)

    def add_alias(self, namespace: str, entity_id: int, alias: str) -> bool:
        self._d.text(alias, "alias")
        with self._sql.tx("adding an alias") as conn:
            owner = conn.execute(
                "SELECT id FROM entities WHERE namespace = ? AND canonical_name = ? "
                "UNION ALL SELECT entity_id FROM entity_aliases "
                "WHERE namespace = ? AND alias = ? LIMIT 1",
                (namespace, alias, namespace, alias),
            ).fetchone()
            if owner is not None:
                if int(owner[0]) == entity_id:
                    return False
                raise InvalidInputError(f"{alias!r} already names another entity")
            check_entity(conn, namespace, entity_id)
            conn.execute(
                "INSERT INTO entity_aliases(entity_id, namespace, alias) VALUES (?, ?, ?)",
                (entity_id, namespace, alias),
            )
        return True

    def merge(self, namespace: str, keep_id: int, other_id: int, *, now: datetime) -> Entity:
        d = self._d
        with self._sql.tx("merging entities") as conn:
            lock(conn, d, namespace)
            graph_merge.merge(conn, d, namespace, keep_id, other_id, d.ts(now))
            row = conn.execute(f"{self._select} WHERE e.id = ?", (keep_id,)).fetchone()
        assert row is not None
        return self._entity(row)

    def split(self, namespace: str, entity_id: int, alias: str, *, now: datetime) -> Entity:
        d = self._d
        d.text(alias, "alias")
        with self._sql.tx("splitting an entity") as conn:
            lock(conn, d, namespace)
            new = graph_merge.split(conn, d, namespace, entity_id, alias, d.ts(now))
            row = conn.execute(f"{self._select} WHERE e.id = ?", (new,)).fetchone()
        assert row is not None
        return self._entity(row)

    def invalidate(
        self,
        namespace: str,
        source_id: int,
        relation_type: str,
        target_id: int,
        *,
        at: datetime,
        now: datetime,
    ) -> Relation:
        d = self._d
        fact = (source_id, canonical_relation(relation_type), target_id)
        with self._sql.tx("closing a relation") as conn:
            lock(conn, d, namespace)
            rid = graph_merge.invalidate(conn, d, namespace, fact, d.ts(at), d.ts(now))
            row = conn.execute(f"{RELATION} WHERE r.id = ?", (rid,)).fetchone()
        assert row is not None
        return relation(d, row)

    # -- reads ------------------------------------------------------------------------
    def entities(
        self, namespace: str, *, limit: int, offset: int, query: str | None
    ) -> list[Entity]:
        where, params = entity_filter(namespace, query)
        rows = self._rows(
            f"{self._select} WHERE {where} ORDER BY e.mentions DESC, e.canonical_name "
            "LIMIT ? OFFSET ?",
            (*params, limit, offset),
            what="listing entities",
        )
        return [self._entity(r) for r in rows]

    def entity(self, namespace: str, name: str) -> Entity | None:
        # By canonical name or alias, then by its normalised spelling as either.
        row = None
        with self._sql.read("reading an entity") as conn:
            for candidate in name_keys(name):
                row = conn.execute(
                    f"{self._select} WHERE e.namespace = ? AND (e.canonical_name = ? OR e.id = "
                    "(SELECT entity_id FROM entity_aliases WHERE namespace = ? AND alias = ?))",
                    (namespace, candidate, namespace, candidate),
                ).fetchone()
                if row is not None:
                    break
        return None if row is None else self._entity(row)

    def relations(
        self,
        namespace: str,
        *,
        entity_id: int | None,
        current_only: bool,
        at: datetime | None,
        limit: int,
        offset: int,
        without: Sequence[str] = (),
        newest_first: bool = False,
        stated_by: str | None = None,
    ) -> list[Relation]:
        d = self._d
        where, params = relation_filter(d, namespace, entity_id, current_only, at, stated_by)
        if without:
            where += f" AND r.relation_type NOT IN ({', '.join('?' * len(without))})"
            params += list(without)
        order = "r.valid_from DESC, r.id DESC" if newest_first else "r.valid_from, r.id"
        where += f" ORDER BY {order} LIMIT ? OFFSET ?"
        return self._relations(where, (*params, limit, offset), "listing relations")

    def timeline(self, namespace: str, entity_id: int) -> list[Relation]:
        where = f"r.namespace = ? AND (r.source_entity_id = ? OR r.target_entity_id = ?) {_OLDEST}"
        return self._relations(where, (namespace, entity_id, entity_id), "reading a timeline")

    def _relations(self, where: str, params: Sequence[Any], what: str) -> list[Relation]:
        """The relations ``where`` (with its order and bounds) selects."""
        return self._records(Relation, f"{RELATION} WHERE {where}", params, what)

    def neighbors(
        self, namespace: str, entity_id: int, *, hops: int, at: datetime | None, limit: int
    ) -> list[Neighbor]:
        d = self._d
        valid = "r.valid_to IS NULL" if at is None else VALID_AT
        valid_params: tuple[Any, ...] = () if at is None else (d.ts(at), d.ts(at))
        # Each reached entity's row: PostgreSQL reads it by id (LATERAL); SQLite, which
        # has no LATERAL, joins the entity rows on their id.
        if d.name == "postgres":
            entities = f"JOIN LATERAL ({self._select} WHERE e.id = n.id) sub ON true"
        else:
            entities = f"JOIN ({self._select}) sub ON sub.id = n.id"
        # UNION (not UNION ALL) drops (entity, depth) pairs already reached, so cycles
        # end at the depth bound and each entity is expanded once per depth.
        sql = f"""
            WITH RECURSIVE walk(id, depth) AS (
                SELECT CAST(? AS BIGINT), 0
                UNION
                SELECT CASE WHEN r.source_entity_id = w.id THEN r.target_entity_id
                            ELSE r.source_entity_id END, w.depth + 1
                FROM walk w JOIN relations r
                  ON r.namespace = ? AND (r.source_entity_id = w.id OR r.target_entity_id = w.id)
                WHERE w.depth < ? AND {valid}
            ),
            nearest AS (
                SELECT id, min(depth) AS hops FROM walk WHERE id <> ? GROUP BY id
            )
            SELECT sub.*, n.hops FROM nearest n {entities}
            ORDER BY n.hops, sub.mentions DESC, sub.canonical_name LIMIT ?
        """
        rows = self._rows(
            sql,
            (entity_id, namespace, hops, *valid_params, entity_id, limit),
            what="walking the graph",
        )
        return [Neighbor(self._entity(r[:9]), int(r[9])) for r in rows]

    def mentions(self, namespace: str, entity_id: int) -> list[Mention]:
        return self._records(
            Mention,
            f"SELECT {columns(Mention, 'x.')} "
            "FROM memory_entity_mentions x JOIN memories m ON m.id = x.memory_id "
            "WHERE x.entity_id = ? AND x.namespace = ? AND m.namespace = ? "
            "AND m.deleted_at IS NULL ORDER BY m.seq",
            (entity_id, namespace, namespace),
            "reading mentions",
        )

    def boost_lookup(self, namespace: str, names: Sequence[str], **limits: Any) -> BoostLookup:
        # ``limits``: the protocol's keyword-only limits and deadline, as graph_boost takes them.
        with self._sql.read("looking up the graph boost") as conn:
            return graph_boost.boost_lookup(conn, self._d, namespace, names, **limits)

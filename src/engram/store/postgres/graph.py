"""The knowledge graph in the PostgreSQL store (seed 004's graph tables, seed 003's
validity windows), with the SQLite store's semantics.

Concurrent ``record`` calls are serialised per namespace by a transaction-level
advisory lock, so two workers never interleave the read-then-write steps that close and
open validity windows, and cannot deadlock on each other's entity rows (row locks taken
in name order could still cross through aliases). Timelines and neighbour
walks are single SQL statements (the walk a recursive CTE), never loops over rows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import InvalidInputError, NotFoundError
from engram.store.postgres import codec, graph_boost, graph_counts, graph_merge, graph_record
from engram.store.postgres.db import Database
from engram.store.postgres.graph_record import LOCK as _LOCK
from engram.store.postgres.graph_record import RELATION as _RELATION
from engram.store.postgres.graph_record import relation as _relation
from engram.store.protocols.graph import (
    BoostLookup,
    Entity,
    Mention,
    Neighbor,
    RecordResult,
    Relation,
    Statement,
    canonical_name,
    canonical_relation,
    normal_name,
)

Conn = psycopg.Connection[Any]

_ENTITY = (
    "SELECT e.id, e.namespace, e.name, e.canonical_name, e.entity_type, e.mentions, "
    "e.created_at, e.updated_at, ARRAY(SELECT a.alias FROM entity_aliases a "
    "WHERE a.entity_id = e.id ORDER BY a.alias) FROM entities e"
)
# A relation holds at t from valid_from (inclusive) to valid_to (exclusive).
_VALID_AT = graph_counts.VALID_AT


def _entity(row: Sequence[Any]) -> Entity:
    return Entity(
        id=int(row[0]),
        namespace=row[1],
        name=row[2],
        canonical_name=row[3],
        entity_type=row[4],
        mentions=int(row[5]),
        created_at=codec.utc(row[6]),
        updated_at=codec.utc(row[7]),
        aliases=tuple(row[8] or ()),
    )


class PgGraph:
    """The PostgreSQL implementation of ``GraphStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- writes -----------------------------------------------------------------------
    def record(
        self,
        namespace: str,
        statements: Sequence[Statement],
        *,
        single_valued: Collection[str],
    ) -> list[RecordResult]:
        """Persist what each memory states, idempotently (see ``GraphStore.record``)."""
        if not statements:
            return []
        plans = [graph_record.names_of(s) for s in statements]
        with self._db.tx("recording graph facts") as conn:
            return graph_record.record(conn, namespace, statements, single_valued, plans)

    def add_alias(self, namespace: str, entity_id: int, alias: str) -> bool:
        """Make ``alias`` resolve to the entity; False if it already does."""
        codec.check_text(alias, "alias")
        with self._db.tx("adding an alias") as conn:
            owner = conn.execute(
                "SELECT id FROM entities WHERE namespace = %s AND canonical_name = %s "
                "UNION ALL SELECT entity_id FROM entity_aliases "
                "WHERE namespace = %s AND alias = %s LIMIT 1",
                (namespace, alias, namespace, alias),
            ).fetchone()
            if owner is not None:
                if int(owner[0]) == entity_id:
                    return False
                raise InvalidInputError(f"{alias!r} already names another entity")
            self._check_entity(conn, namespace, entity_id)
            conn.execute(
                "INSERT INTO entity_aliases(entity_id, namespace, alias) VALUES (%s, %s, %s)",
                (entity_id, namespace, alias),
            )
        return True

    def _locked(self, conn: Conn, namespace: str) -> None:
        """Take the namespace's graph lock, as ``record`` does."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_LOCK + namespace,))

    def merge(self, namespace: str, keep_id: int, other_id: int, *, now: datetime) -> Entity:
        """Fold ``other_id`` into ``keep_id`` (see ``GraphStore.merge``)."""
        with self._db.tx("merging entities") as conn:
            self._locked(conn, namespace)
            graph_merge.merge(conn, namespace, keep_id, other_id, now)
            row = conn.execute(f"{_ENTITY} WHERE e.id = %s", (keep_id,)).fetchone()
        assert row is not None
        return _entity(row)

    def split(self, namespace: str, entity_id: int, alias: str, *, now: datetime) -> Entity:
        """Make ``alias`` an entity of its own again (see ``GraphStore.split``)."""
        codec.check_text(alias, "alias")
        with self._db.tx("splitting an entity") as conn:
            self._locked(conn, namespace)
            new = graph_merge.split(conn, namespace, entity_id, alias, now)
            row = conn.execute(f"{_ENTITY} WHERE e.id = %s", (new,)).fetchone()
        assert row is not None
        return _entity(row)

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
        """Close the current relation at ``at`` (see ``GraphStore.invalidate``)."""
        fact = (source_id, canonical_relation(relation_type), target_id)
        with self._db.tx("closing a relation") as conn:
            self._locked(conn, namespace)
            rid = graph_merge.invalidate(conn, namespace, fact, at, now)
            row = conn.execute(f"{_RELATION} WHERE r.id = %s", (rid,)).fetchone()
        assert row is not None
        return _relation(row)

    @staticmethod
    def _check_entity(conn: Conn, namespace: str, entity_id: int) -> None:
        if not conn.execute(
            "SELECT 1 FROM entities WHERE id = %s AND namespace = %s", (entity_id, namespace)
        ).fetchone():
            raise NotFoundError(f"no entity {entity_id} in namespace {namespace!r}")

    # -- reads ------------------------------------------------------------------------
    def entities(
        self, namespace: str, *, limit: int, offset: int, query: str | None
    ) -> list[Entity]:
        """Entities, most mentioned first, optionally by canonical-name substring."""
        where, params = graph_counts.entity_filter(namespace, query)
        with self._db.read("listing entities") as conn:
            rows = conn.execute(
                f"{_ENTITY} WHERE {where} ORDER BY e.mentions DESC, e.canonical_name "
                "LIMIT %s OFFSET %s",
                (*params, limit, offset),
            ).fetchall()
        return [_entity(r) for r in rows]

    def entity(self, namespace: str, name: str) -> Entity | None:
        """The entity named ``name``: canonical name or alias, then its normalised
        spelling as either (as ``record`` matches)."""
        key = canonical_name(name)
        row = None
        with self._db.read("reading an entity") as conn:
            for candidate in dict.fromkeys((key, normal_name(key))):
                row = conn.execute(
                    f"{_ENTITY} WHERE e.namespace = %s AND (e.canonical_name = %s OR e.id = "
                    "(SELECT entity_id FROM entity_aliases WHERE namespace = %s AND alias = %s))",
                    (namespace, candidate, namespace, candidate),
                ).fetchone()
                if row is not None:
                    break
        return None if row is None else _entity(row)

    def relations(
        self,
        namespace: str,
        *,
        entity_id: int | None,
        current_only: bool,
        at: datetime | None,
        limit: int,
        offset: int,
    ) -> list[Relation]:
        """Relations ordered by ``valid_from``: valid at ``at``, current, or all."""
        where, params = graph_counts.relation_filter(namespace, entity_id, current_only, at)
        with self._db.read("listing relations") as conn:
            rows = conn.execute(
                f"{_RELATION} WHERE {where} ORDER BY r.valid_from, r.id LIMIT %s OFFSET %s",
                (*params, limit, offset),
            ).fetchall()
        return [_relation(r) for r in rows]

    def timeline(self, namespace: str, entity_id: int) -> list[Relation]:
        """Every relation of the entity, closed ones included, by ``valid_from``."""
        with self._db.read("reading a timeline") as conn:
            rows = conn.execute(
                f"{_RELATION} WHERE r.namespace = %s AND (r.source_entity_id = %s "
                "OR r.target_entity_id = %s) ORDER BY r.valid_from, r.id",
                (namespace, entity_id, entity_id),
            ).fetchall()
        return [_relation(r) for r in rows]

    def neighbors(
        self, namespace: str, entity_id: int, *, hops: int, at: datetime | None, limit: int
    ) -> list[Neighbor]:
        """Entities within ``hops`` relations, nearest first (one recursive CTE)."""
        valid = "r.valid_to IS NULL" if at is None else _VALID_AT
        valid_params: tuple[Any, ...] = () if at is None else (at, at)
        # UNION (not UNION ALL) drops (entity, depth) pairs already reached, so cycles
        # end at the depth bound and each entity is expanded once per depth.
        sql = f"""
            WITH RECURSIVE walk(id, depth) AS (
                SELECT %s::bigint, 0
                UNION
                SELECT CASE WHEN r.source_entity_id = w.id THEN r.target_entity_id
                            ELSE r.source_entity_id END, w.depth + 1
                FROM walk w JOIN relations r
                  ON r.namespace = %s AND (r.source_entity_id = w.id OR r.target_entity_id = w.id)
                WHERE w.depth < %s AND {valid}
            ),
            nearest AS (
                SELECT id, min(depth) AS hops FROM walk WHERE id <> %s GROUP BY id
            )
            SELECT sub.*, n.hops FROM nearest n
            JOIN LATERAL ({_ENTITY} WHERE e.id = n.id) sub ON true
            ORDER BY n.hops, sub.mentions DESC, sub.canonical_name LIMIT %s
        """
        with self._db.read("walking the graph") as conn:
            rows = conn.execute(
                sql, (entity_id, namespace, hops, *valid_params, entity_id, limit)
            ).fetchall()
        return [Neighbor(_entity(r[:9]), int(r[9])) for r in rows]

    def mentions(self, namespace: str, entity_id: int) -> list[Mention]:
        """The entity's mentions by live memories, oldest memory first."""
        with self._db.read("reading mentions") as conn:
            rows = conn.execute(
                "SELECT x.memory_id, x.entity_id, x.namespace, x.mention_text, x.confidence "
                "FROM memory_entity_mentions x JOIN memories m ON m.id = x.memory_id "
                "WHERE x.entity_id = %s AND x.namespace = %s AND m.namespace = %s "
                "AND m.deleted_at IS NULL ORDER BY m.seq",
                (entity_id, namespace, namespace),
            ).fetchall()
        return [Mention(r[0], int(r[1]), r[2], r[3], float(r[4])) for r in rows]

    def boost_lookup(
        self,
        namespace: str,
        names: Sequence[str],
        *,
        entity_limit: int,
        neighbor_limit: int,
        memory_limit: int,
        hub_mentions: int,
        deadline: float,
    ) -> BoostLookup:
        """seed 004's graph boost lookup (see ``GraphStore.boost_lookup``)."""
        with self._db.read("looking up the graph boost") as conn:
            return graph_boost.boost_lookup(
                conn,
                namespace,
                names,
                entity_limit=entity_limit,
                neighbor_limit=neighbor_limit,
                memory_limit=memory_limit,
                hub_mentions=hub_mentions,
                deadline=deadline,
            )

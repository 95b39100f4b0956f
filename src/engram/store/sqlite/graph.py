"""The knowledge graph in the SQLite store (seed 004's graph tables, seed 003's validity
windows). Writes run in one ``BEGIN IMMEDIATE`` transaction (or join the open one), so
the read-then-write steps of ``record`` never interleave with another writer; neighbour
walks are one recursive CTE.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
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
from engram.store.sqlite import graph_boost, graph_counts, graph_merge, graph_record
from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database
from engram.store.sqlite.graph_record import RELATION as _RELATION
from engram.store.sqlite.graph_record import relation as _relation
from engram.store.sqlite.graph_record import time_of as _time

# char(31) (unit separator) cannot appear in a canonical name: whitespace is collapsed.
_ENTITY = (
    "SELECT e.id, e.namespace, e.name, e.canonical_name, e.entity_type, e.mentions, "
    "e.created_at, e.updated_at, (SELECT group_concat(a.alias, char(31)) "
    "FROM entity_aliases a WHERE a.entity_id = e.id) FROM entities e"
)
# A relation holds at t from valid_from (inclusive) to valid_to (exclusive).
_VALID_AT = graph_counts.VALID_AT


def _entity(row: Sequence[Any]) -> Entity:
    aliases = tuple(sorted(row[8].split("\x1f"))) if row[8] else ()
    return Entity(
        id=int(row[0]),
        namespace=row[1],
        name=row[2],
        canonical_name=row[3],
        entity_type=row[4],
        mentions=int(row[5]),
        created_at=_time(row[6]),
        updated_at=_time(row[7]),
        aliases=aliases,
    )


class SQLiteGraph:
    """The SQLite implementation of ``GraphStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._db.tx() as conn:
                yield conn
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"{what} rejected by the database: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc

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
        with self._write("recording graph facts") as conn:
            return graph_record.record(conn, namespace, statements, single_valued)

    def add_alias(self, namespace: str, entity_id: int, alias: str) -> bool:
        """Make ``alias`` resolve to the entity; False if it already does."""
        with self._write("adding an alias") as conn:
            owner = (
                conn.execute(
                    "SELECT id FROM entities WHERE namespace = ? AND canonical_name = ?",
                    (namespace, alias),
                ).fetchone()
                or conn.execute(
                    "SELECT entity_id FROM entity_aliases WHERE namespace = ? AND alias = ?",
                    (namespace, alias),
                ).fetchone()
            )
            if owner is not None:
                if int(owner[0]) == entity_id:
                    return False
                raise InvalidInputError(f"{alias!r} already names another entity")
            self._check_entity(conn, namespace, entity_id)
            conn.execute(
                "INSERT INTO entity_aliases(entity_id, namespace, alias) VALUES (?, ?, ?)",
                (entity_id, namespace, alias),
            )
        return True

    def merge(self, namespace: str, keep_id: int, other_id: int, *, now: datetime) -> Entity:
        """Fold ``other_id`` into ``keep_id`` (see ``GraphStore.merge``)."""
        with self._write("merging entities") as conn:
            graph_merge.merge(conn, namespace, keep_id, other_id, ts(now))
            row = conn.execute(f"{_ENTITY} WHERE e.id = ?", (keep_id,)).fetchone()
        return _entity(row)

    def split(self, namespace: str, entity_id: int, alias: str, *, now: datetime) -> Entity:
        """Make ``alias`` an entity of its own again (see ``GraphStore.split``)."""
        with self._write("splitting an entity") as conn:
            new = graph_merge.split(conn, namespace, entity_id, alias, ts(now))
            row = conn.execute(f"{_ENTITY} WHERE e.id = ?", (new,)).fetchone()
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
        with self._write("closing a relation") as conn:
            rid = graph_merge.invalidate(conn, namespace, fact, ts(at), ts(now))
            return graph_record.relations_by_id(conn, [rid])[rid]

    @staticmethod
    def _check_entity(conn: sqlite3.Connection, namespace: str, entity_id: int) -> None:
        if not conn.execute(
            "SELECT 1 FROM entities WHERE id = ? AND namespace = ?", (entity_id, namespace)
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
                "LIMIT ? OFFSET ?",
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
                    f"{_ENTITY} WHERE e.namespace = ? AND (e.canonical_name = ? OR e.id = "
                    "(SELECT entity_id FROM entity_aliases WHERE namespace = ? AND alias = ?))",
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
                f"{_RELATION} WHERE {where} ORDER BY r.valid_from, r.id LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
        return [_relation(r) for r in rows]

    def timeline(self, namespace: str, entity_id: int) -> list[Relation]:
        """Every relation of the entity, closed ones included, by ``valid_from``."""
        with self._db.read("reading a timeline") as conn:
            rows = conn.execute(
                f"{_RELATION} WHERE r.namespace = ? AND (r.source_entity_id = ? "
                "OR r.target_entity_id = ?) ORDER BY r.valid_from, r.id",
                (namespace, entity_id, entity_id),
            ).fetchall()
        return [_relation(r) for r in rows]

    def neighbors(
        self, namespace: str, entity_id: int, *, hops: int, at: datetime | None, limit: int
    ) -> list[Neighbor]:
        """Entities within ``hops`` relations, nearest first (one recursive CTE)."""
        valid = "r.valid_to IS NULL" if at is None else _VALID_AT
        valid_params = () if at is None else (ts(at), ts(at))
        # UNION (not UNION ALL) drops (entity, depth) pairs already reached, so cycles
        # end at the depth bound and each entity is expanded once per depth.
        sql = f"""
            WITH RECURSIVE walk(id, depth) AS (
                SELECT ?, 0
                UNION
                SELECT CASE WHEN r.source_entity_id = w.id THEN r.target_entity_id
                            ELSE r.source_entity_id END, w.depth + 1
                FROM walk w JOIN relations r
                  ON r.namespace = ? AND (r.source_entity_id = w.id OR r.target_entity_id = w.id)
                WHERE w.depth < ? AND {valid}
            ),
            nearest(id, hops) AS (
                SELECT id, min(depth) FROM walk WHERE id <> ? GROUP BY id
            )
            SELECT sub.*, n.hops FROM nearest n JOIN ({_ENTITY}) sub ON sub.id = n.id
            ORDER BY n.hops, sub.mentions DESC, sub.canonical_name LIMIT ?
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
                "WHERE x.entity_id = ? AND x.namespace = ? AND m.namespace = ? "
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

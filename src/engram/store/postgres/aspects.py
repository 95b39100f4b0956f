"""Entity aspects and attributes in the PostgreSQL store, and the aspect feedback loop
(seed 004, "Aspect Feedback"), with the SQLite store's semantics. Feedback and decay
are set-based statements (``= ANY`` over the confirmed memories), never row loops."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import NotFoundError
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.aspects import AspectFeedback
from engram.store.protocols.graph import Aspect, Attribute, canonical_name

Conn = psycopg.Connection[Any]

_ASPECT_COLUMNS = "id, entity_id, namespace, name, canonical_name, weight, updated_at"
_ATTRIBUTE_COLUMNS = (
    "id, entity_id, namespace, aspect_id, memory_id, content, kind, importance, created_at"
)


def _aspect(row: Sequence[Any]) -> Aspect:
    return Aspect(
        id=int(row[0]),
        entity_id=int(row[1]),
        namespace=row[2],
        name=row[3],
        canonical_name=row[4],
        weight=float(row[5]),
        updated_at=codec.utc(row[6]),
    )


def _attribute(row: Sequence[Any]) -> Attribute:
    return Attribute(
        id=int(row[0]),
        entity_id=int(row[1]),
        namespace=row[2],
        aspect_id=None if row[3] is None else int(row[3]),
        memory_id=row[4],
        content=row[5],
        kind=row[6],
        importance=float(row[7]),
        created_at=codec.utc(row[8]),
    )


def _check_entity(conn: Conn, namespace: str, entity_id: int) -> None:
    if not conn.execute(
        "SELECT 1 FROM entities WHERE id = %s AND namespace = %s", (entity_id, namespace)
    ).fetchone():
        raise NotFoundError(f"no entity {entity_id} in namespace {namespace!r}")


class PgAspects:
    """The PostgreSQL implementation of ``AspectStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def upsert_aspect(
        self, namespace: str, entity_id: int, name: str, *, weight: float, now: datetime
    ) -> Aspect:
        """The entity's aspect called ``name``, created with ``weight`` if new."""
        codec.check_text(name, "aspect name")
        key = canonical_name(name)
        with self._db.tx("storing an aspect") as conn:
            _check_entity(conn, namespace, entity_id)
            conn.execute(
                "INSERT INTO entity_aspects(entity_id, namespace, canonical_name, name, weight, "
                "updated_at) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (entity_id, namespace, key, name, weight, now),
            )
            row = conn.execute(
                f"SELECT {_ASPECT_COLUMNS} FROM entity_aspects "
                "WHERE entity_id = %s AND canonical_name = %s",
                (entity_id, key),
            ).fetchone()
        assert row is not None
        return _aspect(row)

    def add_attribute(
        self,
        namespace: str,
        entity_id: int,
        memory_id: str,
        content: str,
        *,
        aspect_id: int | None,
        kind: str,
        importance: float,
        now: datetime,
    ) -> Attribute:
        """Record a structural fact, or update the same one from the same memory."""
        codec.check_text(content, "attribute")
        with self._db.tx("storing an attribute") as conn:
            _check_entity(conn, namespace, entity_id)
            if (
                aspect_id is not None
                and not conn.execute(
                    "SELECT 1 FROM entity_aspects WHERE id = %s AND entity_id = %s",
                    (aspect_id, entity_id),
                ).fetchone()
            ):
                raise NotFoundError(f"entity {entity_id} has no aspect {aspect_id}")
            if not conn.execute(
                "SELECT 1 FROM memories WHERE id = %s AND namespace = %s AND deleted_at IS NULL",
                (memory_id, namespace),
            ).fetchone():
                raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
            # The unique index is on md5(content): a btree cannot hold long texts.
            row = conn.execute(
                "INSERT INTO entity_attributes(entity_id, namespace, aspect_id, memory_id, "
                "content, kind, importance, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (entity_id, memory_id, md5(content)) DO UPDATE SET "
                "aspect_id = coalesce(excluded.aspect_id, entity_attributes.aspect_id), "
                "kind = excluded.kind, importance = excluded.importance "
                f"RETURNING {_ATTRIBUTE_COLUMNS}",
                (entity_id, namespace, aspect_id, memory_id, content, kind, importance, now),
            ).fetchone()
        assert row is not None
        return _attribute(row)

    def aspects(self, namespace: str, entity_id: int) -> list[Aspect]:
        """The entity's aspects, heaviest first."""
        with self._db.read("reading aspects") as conn:
            rows = conn.execute(
                f"SELECT {_ASPECT_COLUMNS} FROM entity_aspects WHERE entity_id = %s "
                "AND namespace = %s ORDER BY weight DESC, canonical_name",
                (entity_id, namespace),
            ).fetchall()
        return [_aspect(r) for r in rows]

    def attributes(self, namespace: str, entity_id: int) -> list[Attribute]:
        """The entity's attributes, oldest first."""
        with self._db.read("reading attributes") as conn:
            rows = conn.execute(
                f"SELECT {_ATTRIBUTE_COLUMNS} FROM entity_attributes WHERE entity_id = %s "
                "AND namespace = %s ORDER BY created_at, id",
                (entity_id, namespace),
            ).fetchall()
        return [_attribute(r) for r in rows]

    # -- feedback ---------------------------------------------------------------------
    def confirm(
        self,
        namespace: str,
        memory_counts: Mapping[str, int],
        *,
        delta: float,
        min_weight: float,
        max_weight: float,
        now: datetime,
    ) -> AspectFeedback:
        """seed 004: weight += delta x confirmations per aspect, clamped."""
        counts = {m: int(n) for m, n in memory_counts.items() if int(n) > 0}
        if not counts:
            return AspectFeedback()
        ids, ns = list(counts), [counts[m] for m in counts]
        # One (aspect, memory) pair per row: a memory confirms each of its aspects once,
        # however many of its attributes sit under it; the update is one statement.
        with self._db.tx("confirming aspects") as conn:
            row = conn.execute(
                "WITH hits AS (SELECT * FROM unnest(%s::text[], %s::int[]) AS h(memory_id, n)), "
                "pairs AS (SELECT t.aspect_id, h.n, count(*) AS attributes "
                "FROM entity_attributes t JOIN hits h ON h.memory_id = t.memory_id "
                "WHERE t.namespace = %s AND t.aspect_id IS NOT NULL "
                "GROUP BY t.aspect_id, t.memory_id, h.n), "
                "sums AS (SELECT aspect_id, sum(n) AS n FROM pairs GROUP BY aspect_id), "
                "moved AS (UPDATE entity_aspects a SET "
                "weight = LEAST(%s, GREATEST(%s, a.weight + %s * s.n)), updated_at = %s "
                "FROM sums s WHERE a.id = s.aspect_id AND a.namespace = %s RETURNING a.id) "
                "SELECT (SELECT count(*) FROM moved), (SELECT coalesce(sum(n), 0) FROM sums), "
                "(SELECT coalesce(sum(attributes), 0) FROM pairs)",
                (ids, ns, namespace, max_weight, min_weight, delta, now, namespace),
            ).fetchone()
        assert row is not None
        return AspectFeedback(int(row[0]), int(row[1]), int(row[2]))

    def decay(
        self,
        namespace: str,
        *,
        stale_before: datetime,
        rate: float,
        min_weight: float,
        now: datetime,
    ) -> int:
        """seed 004: stale aspects lose ``rate``, floored at ``min_weight``."""
        with self._db.tx("decaying aspects") as conn:
            cur = conn.execute(
                "UPDATE entity_aspects SET weight = GREATEST(%s, weight - %s), updated_at = %s "
                "WHERE namespace = %s AND updated_at < %s AND weight > %s",
                (min_weight, rate, now, namespace, stale_before, min_weight),
            )
        return int(cur.rowcount)

    def reassign(
        self,
        namespace: str,
        from_entity: int,
        to_entity: int,
        *,
        memory_ids: Collection[str] | None,
        now: datetime,
    ) -> int:
        """Move attributes (and, for a merge, aspects) to another entity."""
        with self._db.tx("moving attributes") as conn:
            _check_entity(conn, namespace, from_entity)
            _check_entity(conn, namespace, to_entity)
            sql = (
                "SELECT t.id, t.memory_id, t.content, a.name, a.weight FROM entity_attributes t "
                "LEFT JOIN entity_aspects a ON a.id = t.aspect_id "
                "WHERE t.entity_id = %s AND t.namespace = %s"
            )
            if memory_ids is None:
                rows = conn.execute(sql, (from_entity, namespace)).fetchall()
            else:
                rows = conn.execute(
                    f"{sql} AND t.memory_id = ANY(%s)",
                    (from_entity, namespace, sorted(set(memory_ids))),
                ).fetchall()
            moved = 0
            for attribute_id, memory_id, content, aspect_name, weight in rows:
                if conn.execute(
                    "SELECT 1 FROM entity_attributes WHERE entity_id = %s AND memory_id = %s "
                    "AND md5(content) = md5(%s)",
                    (to_entity, memory_id, content),
                ).fetchone():
                    conn.execute("DELETE FROM entity_attributes WHERE id = %s", (attribute_id,))
                    continue
                aspect_id = None
                if aspect_name is not None:
                    aspect_id = _aspect_for(conn, namespace, to_entity, aspect_name, weight, now)
                conn.execute(
                    "UPDATE entity_attributes SET entity_id = %s, aspect_id = %s WHERE id = %s",
                    (to_entity, aspect_id, attribute_id),
                )
                moved += 1
            if memory_ids is None:  # a merge: the other's empty aspects come along too
                for name, weight in conn.execute(
                    "SELECT name, weight FROM entity_aspects WHERE entity_id = %s", (from_entity,)
                ).fetchall():
                    _aspect_for(conn, namespace, to_entity, name, weight, now)
                conn.execute("DELETE FROM entity_aspects WHERE entity_id = %s", (from_entity,))
        return moved


def _aspect_for(
    conn: Conn, namespace: str, entity_id: int, name: str, weight: float, now: datetime
) -> int:
    """The entity's aspect ``name``, created with ``weight``; an existing one keeps the
    heavier of its weight and ``weight``."""
    row = conn.execute(
        "INSERT INTO entity_aspects(entity_id, namespace, canonical_name, name, weight, "
        "updated_at) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (entity_id, canonical_name) "
        "DO UPDATE SET weight = GREATEST(entity_aspects.weight, excluded.weight) RETURNING id",
        (entity_id, namespace, canonical_name(name), name, weight, now),
    ).fetchone()
    assert row is not None
    return int(row[0])

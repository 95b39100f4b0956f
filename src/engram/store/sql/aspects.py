"""Entity aspects and attributes, and the aspect feedback loop (seed 004, "Aspect
Feedback"). Writes run in one transaction (``BEGIN IMMEDIATE`` on SQLite); feedback
and decay are a handful of set-based statements, never row loops."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from engram.store.protocols import AspectStore
from engram.store.protocols.aspects import AspectFeedback
from engram.store.protocols.graph import Aspect, Attribute, canonical_name
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.graph_record import check_entity
from engram.store.sql.rows import columns, found, record
from engram.store.sql.session import SqlPart

_ASPECT_COLUMNS = columns(Aspect)
_ATTRIBUTE_COLUMNS = columns(Attribute)
# An attribute is stored once per (entity, memory, content). PostgreSQL's unique index
# is on md5(content): a btree cannot hold long texts (and the lookup uses it too).
_ONCE = {
    "sqlite": "(entity_id, memory_id, content)",
    "postgres": "(entity_id, memory_id, md5(content))",
}
_SAME_CONTENT = {"sqlite": "content = ?", "postgres": "md5(content) = md5(?)"}


class SqlAspects(SqlPart, AspectStore):
    """``AspectStore`` on either engine."""

    def upsert_aspect(
        self, namespace: str, entity_id: int, name: str, *, weight: float, now: datetime
    ) -> Aspect:
        d = self._d
        d.text(name, "aspect name")
        key = canonical_name(name)
        with self._sql.tx("storing an aspect") as conn:
            check_entity(conn, namespace, entity_id)
            conn.execute(
                "INSERT INTO entity_aspects(entity_id, namespace, canonical_name, name, weight, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (entity_id, namespace, key, name, weight, d.ts(now)),
            )
            row = conn.execute(
                f"SELECT {_ASPECT_COLUMNS} FROM entity_aspects "
                "WHERE entity_id = ? AND canonical_name = ?",
                (entity_id, key),
            ).fetchone()
        assert row is not None
        return record(self._d, Aspect, row)

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
        d = self._d
        d.text(content, "attribute")
        with self._sql.tx("storing an attribute") as conn:
            check_entity(conn, namespace, entity_id)
            if aspect_id is not None:
                found(
                    conn,
                    "SELECT 1 FROM entity_aspects WHERE id = ? AND entity_id = ?",
                    (aspect_id, entity_id),
                    f"entity {entity_id} has no aspect {aspect_id}",
                )
            found(
                conn,
                "SELECT 1 FROM memories WHERE id = ? AND namespace = ? AND deleted_at IS NULL",
                (memory_id, namespace),
                f"no memory {memory_id!r} in namespace {namespace!r}",
            )
            row = conn.execute(
                "INSERT INTO entity_attributes(entity_id, namespace, aspect_id, memory_id, "
                "content, kind, importance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT {_ONCE[d.name]} DO UPDATE SET "
                "aspect_id = coalesce(excluded.aspect_id, entity_attributes.aspect_id), "
                "kind = excluded.kind, importance = excluded.importance "
                f"RETURNING {_ATTRIBUTE_COLUMNS}",
                (entity_id, namespace, aspect_id, memory_id, content, kind, importance, d.ts(now)),
            ).fetchone()
        assert row is not None
        return record(self._d, Attribute, row)

    def aspects(self, namespace: str, entity_id: int) -> list[Aspect]:
        at = (namespace, "entity_id", entity_id)
        return self._keyed_all(
            Aspect, "entity_aspects", at, "weight DESC, canonical_name", "reading aspects"
        )

    def attributes(self, namespace: str, entity_id: int) -> list[Attribute]:
        at = (namespace, "entity_id", entity_id)
        return self._keyed_all(
            Attribute, "entity_attributes", at, "created_at, id", "reading attributes"
        )

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
        counts = {m: int(n) for m, n in memory_counts.items() if int(n) > 0}
        if not counts:
            return AspectFeedback()
        bounds = (max_weight, min_weight, delta, self._d.ts(now))
        with self._sql.tx("confirming aspects") as conn:
            if self._d.name == "postgres":
                return _confirm_at_once(conn, namespace, counts, bounds)
            return _confirm_by_chunks(conn, self._d, namespace, counts, bounds)

    def decay(
        self,
        namespace: str,
        *,
        stale_before: datetime,
        rate: float,
        min_weight: float,
        now: datetime,
    ) -> int:
        d = self._d
        with self._sql.tx("decaying aspects") as conn:
            cur = conn.execute(
                f"UPDATE entity_aspects SET weight = {d.greatest}(?, weight - ?), "
                "updated_at = ? WHERE namespace = ? AND updated_at < ? AND weight > ?",
                (min_weight, rate, d.ts(now), namespace, d.ts(stale_before), min_weight),
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
        d = self._d
        with self._sql.tx("moving attributes") as conn:
            check_entity(conn, namespace, from_entity)
            check_entity(conn, namespace, to_entity)
            sql = (
                "SELECT t.id, t.memory_id, t.content, a.name, a.weight FROM entity_attributes t "
                "LEFT JOIN entity_aspects a ON a.id = t.aspect_id "
                "WHERE t.entity_id = ? AND t.namespace = ?"
            )
            if memory_ids is None:
                rows = conn.execute(sql, (from_entity, namespace)).fetchall()
            else:
                rows = d.select_in(
                    conn,
                    f"{sql} AND ",
                    "t.memory_id",
                    sorted(set(memory_ids)),
                    (from_entity, namespace),
                )
            moved = 0
            for attribute_id, memory_id, content, aspect_name, weight in rows:
                if conn.execute(
                    "SELECT 1 FROM entity_attributes WHERE entity_id = ? AND memory_id = ? "
                    f"AND {_SAME_CONTENT[d.name]}",
                    (to_entity, memory_id, content),
                ).fetchone():
                    conn.execute("DELETE FROM entity_attributes WHERE id = ?", (attribute_id,))
                    continue
                aspect_id = None
                if aspect_name is not None:
                    aspect_id = _aspect_for(conn, d, namespace, to_entity, aspect_name, weight, now)
                conn.execute(
                    "UPDATE entity_attributes SET entity_id = ?, aspect_id = ? WHERE id = ?",
                    (to_entity, aspect_id, attribute_id),
                )
                moved += 1
            if memory_ids is None:  # a merge: the other's empty aspects come along too
                for name, weight in conn.execute(
                    "SELECT name, weight FROM entity_aspects WHERE entity_id = ?", (from_entity,)
                ).fetchall():
                    _aspect_for(conn, d, namespace, to_entity, name, weight, now)
                conn.execute("DELETE FROM entity_aspects WHERE entity_id = ?", (from_entity,))
        return moved


def _confirm_at_once(
    conn: Conn, namespace: str, counts: dict[str, int], bounds: tuple[Any, ...]
) -> AspectFeedback:
    """``confirm`` on PostgreSQL: one statement (the counts unnested from two arrays,
    the update a data-modifying CTE)."""
    max_weight, min_weight, delta, now = bounds
    ids, ns = list(counts), [counts[m] for m in counts]
    # One (aspect, memory) pair per row: a memory confirms each of its aspects once,
    # however many of its attributes sit under it; the update is one statement.
    row = conn.execute(
        "WITH hits AS (SELECT * FROM unnest(?::text[], ?::int[]) AS h(memory_id, n)), "
        "pairs AS (SELECT t.aspect_id, h.n, count(*) AS attributes "
        "FROM entity_attributes t JOIN hits h ON h.memory_id = t.memory_id "
        "WHERE t.namespace = ? AND t.aspect_id IS NOT NULL "
        "GROUP BY t.aspect_id, t.memory_id, h.n), "
        "sums AS (SELECT aspect_id, sum(n) AS n FROM pairs GROUP BY aspect_id), "
        "moved AS (UPDATE entity_aspects a SET "
        "weight = LEAST(?, GREATEST(?, a.weight + ? * s.n)), updated_at = ? "
        "FROM sums s WHERE a.id = s.aspect_id AND a.namespace = ? RETURNING a.id) "
        "SELECT (SELECT count(*) FROM moved), (SELECT coalesce(sum(n), 0) FROM sums), "
        "(SELECT coalesce(sum(attributes), 0) FROM pairs)",
        (ids, ns, namespace, max_weight, min_weight, delta, now, namespace),
    ).fetchone()
    assert row is not None
    return AspectFeedback(int(row[0]), int(row[1]), int(row[2]))


def _confirm_by_chunks(
    conn: Conn, d: Dialect, namespace: str, counts: dict[str, int], bounds: tuple[Any, ...]
) -> AspectFeedback:
    """``confirm`` on SQLite, which has no arrays to unnest nor an UPDATE inside a
    CTE: the (aspect, memory) pairs read ``d.chunk`` memories at a time, then one
    ``executemany``."""
    max_weight, min_weight, delta, now = bounds
    per_aspect: dict[int, int] = {}
    propagated = 0
    # One row per (aspect, memory): a memory confirms each of its aspects once,
    # however many of its attributes sit under it.
    for aspect_id, memory_id, n in d.select_in(
        conn,
        "SELECT aspect_id, memory_id, count(*) FROM entity_attributes "
        "WHERE namespace = ? AND aspect_id IS NOT NULL AND ",
        "memory_id",
        sorted(counts),
        (namespace,),
        " GROUP BY aspect_id, memory_id",
    ):
        per_aspect[int(aspect_id)] = per_aspect.get(int(aspect_id), 0) + counts[memory_id]
        propagated += int(n)
    conn.executemany(
        f"UPDATE entity_aspects SET weight = {d.least}(?, {d.greatest}(?, weight + ?)), "
        "updated_at = ? WHERE id = ? AND namespace = ?",
        [
            (max_weight, min_weight, delta * n, now, aspect_id, namespace)
            for aspect_id, n in sorted(per_aspect.items())
        ],
    )
    return AspectFeedback(len(per_aspect), sum(per_aspect.values()), propagated)


def _aspect_for(
    conn: Conn,
    d: Dialect,
    namespace: str,
    entity_id: int,
    name: str,
    weight: float,
    now: datetime,
) -> int:
    """The entity's aspect ``name``, created with ``weight``; an existing one keeps the
    heavier of its weight and ``weight``."""
    row = conn.execute(
        "INSERT INTO entity_aspects(entity_id, namespace, canonical_name, name, weight, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (entity_id, canonical_name) "
        f"DO UPDATE SET weight = {d.greatest}(entity_aspects.weight, excluded.weight) "
        "RETURNING id",
        (entity_id, namespace, canonical_name(name), name, weight, d.ts(now)),
    ).fetchone()
    assert row is not None
    return int(row[0])

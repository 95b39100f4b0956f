"""Entity aspects and attributes in the SQLite store, and the aspect feedback loop
(seed 004, "Aspect Feedback"). Writes run in ``BEGIN IMMEDIATE`` (or join the open
transaction); feedback and decay are a handful of set-based statements."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
from engram.store.protocols.aspects import AspectFeedback
from engram.store.protocols.graph import Aspect, Attribute, canonical_name
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

_ASPECT = "SELECT id, entity_id, namespace, name, canonical_name, weight, updated_at "
_ATTRIBUTE = (
    "SELECT id, entity_id, namespace, aspect_id, memory_id, content, kind, importance, "
    "created_at FROM entity_attributes "
)
#: Bound parameters per ``IN (...)`` list: well under SQLite's limit.
_CHUNK = 500


def _time(value: str) -> datetime:
    parsed = parse_ts(value)
    assert parsed is not None  # NOT NULL columns
    return parsed


def _aspect(row: Sequence[Any]) -> Aspect:
    return Aspect(
        id=int(row[0]),
        entity_id=int(row[1]),
        namespace=row[2],
        name=row[3],
        canonical_name=row[4],
        weight=float(row[5]),
        updated_at=_time(row[6]),
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
        created_at=_time(row[8]),
    )


def _chunks(items: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


class SQLiteAspects:
    """The SQLite implementation of ``AspectStore``."""

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

    @staticmethod
    def _check_entity(conn: sqlite3.Connection, namespace: str, entity_id: int) -> None:
        if not conn.execute(
            "SELECT 1 FROM entities WHERE id = ? AND namespace = ?", (entity_id, namespace)
        ).fetchone():
            raise NotFoundError(f"no entity {entity_id} in namespace {namespace!r}")

    def upsert_aspect(
        self, namespace: str, entity_id: int, name: str, *, weight: float, now: datetime
    ) -> Aspect:
        """The entity's aspect called ``name``, created with ``weight`` if new."""
        key = canonical_name(name)
        with self._write("storing an aspect") as conn:
            self._check_entity(conn, namespace, entity_id)
            conn.execute(
                "INSERT OR IGNORE INTO entity_aspects(entity_id, namespace, canonical_name, "
                "name, weight, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                (entity_id, namespace, key, name, weight, ts(now)),
            )
            row = conn.execute(
                _ASPECT + "FROM entity_aspects WHERE entity_id = ? AND canonical_name = ?",
                (entity_id, key),
            ).fetchone()
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
        with self._write("storing an attribute") as conn:
            self._check_entity(conn, namespace, entity_id)
            if (
                aspect_id is not None
                and not conn.execute(
                    "SELECT 1 FROM entity_aspects WHERE id = ? AND entity_id = ?",
                    (aspect_id, entity_id),
                ).fetchone()
            ):
                raise NotFoundError(f"entity {entity_id} has no aspect {aspect_id}")
            if not conn.execute(
                "SELECT 1 FROM memories WHERE id = ? AND namespace = ? AND deleted_at IS NULL",
                (memory_id, namespace),
            ).fetchone():
                raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
            conn.execute(
                "INSERT INTO entity_attributes(entity_id, namespace, aspect_id, memory_id, "
                "content, kind, importance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(entity_id, memory_id, content) DO UPDATE SET "
                "aspect_id = coalesce(excluded.aspect_id, entity_attributes.aspect_id), "
                "kind = excluded.kind, importance = excluded.importance",
                (entity_id, namespace, aspect_id, memory_id, content, kind, importance, ts(now)),
            )
            row = conn.execute(
                _ATTRIBUTE + "WHERE entity_id = ? AND memory_id = ? AND content = ?",
                (entity_id, memory_id, content),
            ).fetchone()
        return _attribute(row)

    def aspects(self, namespace: str, entity_id: int) -> list[Aspect]:
        """The entity's aspects, heaviest first."""
        with self._db.read("reading aspects") as conn:
            rows = conn.execute(
                _ASPECT + "FROM entity_aspects WHERE entity_id = ? AND namespace = ? "
                "ORDER BY weight DESC, canonical_name",
                (entity_id, namespace),
            ).fetchall()
        return [_aspect(r) for r in rows]

    def attributes(self, namespace: str, entity_id: int) -> list[Attribute]:
        """The entity's attributes, oldest first."""
        with self._db.read("reading attributes") as conn:
            rows = conn.execute(
                _ATTRIBUTE + "WHERE entity_id = ? AND namespace = ? ORDER BY created_at, id",
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
        per_aspect: dict[int, int] = {}
        propagated = 0
        with self._write("confirming aspects") as conn:
            for chunk in _chunks(sorted(counts)):
                marks = ", ".join("?" for _ in chunk)
                # One row per (aspect, memory): a memory confirms each of its aspects
                # once, however many of its attributes sit under it.
                rows = conn.execute(
                    "SELECT aspect_id, memory_id, count(*) FROM entity_attributes "
                    f"WHERE namespace = ? AND aspect_id IS NOT NULL AND memory_id IN ({marks}) "
                    "GROUP BY aspect_id, memory_id",
                    (namespace, *chunk),
                ).fetchall()
                for aspect_id, memory_id, n in rows:
                    per_aspect[int(aspect_id)] = (
                        per_aspect.get(int(aspect_id), 0) + counts[memory_id]
                    )
                    propagated += int(n)
            conn.executemany(
                "UPDATE entity_aspects SET weight = min(?, max(?, weight + ?)), updated_at = ? "
                "WHERE id = ? AND namespace = ?",
                [
                    (max_weight, min_weight, delta * n, ts(now), aspect_id, namespace)
                    for aspect_id, n in sorted(per_aspect.items())
                ],
            )
        return AspectFeedback(len(per_aspect), sum(per_aspect.values()), propagated)

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
        with self._write("decaying aspects") as conn:
            cur = conn.execute(
                "UPDATE entity_aspects SET weight = max(?, weight - ?), updated_at = ? "
                "WHERE namespace = ? AND updated_at < ? AND weight > ?",
                (min_weight, rate, ts(now), namespace, ts(stale_before), min_weight),
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
        with self._write("moving attributes") as conn:
            self._check_entity(conn, namespace, from_entity)
            self._check_entity(conn, namespace, to_entity)
            sql = (
                "SELECT t.id, t.memory_id, t.content, a.name, a.weight FROM entity_attributes t "
                "LEFT JOIN entity_aspects a ON a.id = t.aspect_id "
                "WHERE t.entity_id = ? AND t.namespace = ?"
            )
            if memory_ids is None:
                rows = conn.execute(sql, (from_entity, namespace)).fetchall()
            else:
                rows = []
                for chunk in _chunks(sorted(set(memory_ids))):
                    marks = ", ".join("?" for _ in chunk)
                    rows += conn.execute(
                        f"{sql} AND t.memory_id IN ({marks})", (from_entity, namespace, *chunk)
                    ).fetchall()
            moved = 0
            for attribute_id, memory_id, content, aspect_name, weight in rows:
                if conn.execute(
                    "SELECT 1 FROM entity_attributes WHERE entity_id = ? AND memory_id = ? "
                    "AND content = ?",
                    (to_entity, memory_id, content),
                ).fetchone():
                    conn.execute("DELETE FROM entity_attributes WHERE id = ?", (attribute_id,))
                    continue
                aspect_id = None
                if aspect_name is not None:
                    aspect_id = self._aspect_for(
                        conn, namespace, to_entity, aspect_name, weight, now
                    )
                conn.execute(
                    "UPDATE entity_attributes SET entity_id = ?, aspect_id = ? WHERE id = ?",
                    (to_entity, aspect_id, attribute_id),
                )
                moved += 1
            if memory_ids is None:  # a merge: the other's empty aspects come along too
                for name, weight in conn.execute(
                    "SELECT name, weight FROM entity_aspects WHERE entity_id = ?", (from_entity,)
                ).fetchall():
                    self._aspect_for(conn, namespace, to_entity, name, weight, now)
                conn.execute("DELETE FROM entity_aspects WHERE entity_id = ?", (from_entity,))
        return moved

    @staticmethod
    def _aspect_for(
        conn: sqlite3.Connection,
        namespace: str,
        entity_id: int,
        name: str,
        weight: float,
        now: datetime,
    ) -> int:
        """The entity's aspect ``name``, created with ``weight``; an existing one keeps
        the heavier of its weight and ``weight``."""
        key = canonical_name(name)
        conn.execute(
            "INSERT INTO entity_aspects(entity_id, namespace, canonical_name, name, weight, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(entity_id, canonical_name) "
            "DO UPDATE SET weight = max(entity_aspects.weight, excluded.weight)",
            (entity_id, namespace, key, name, weight, ts(now)),
        )
        row = conn.execute(
            "SELECT id FROM entity_aspects WHERE entity_id = ? AND canonical_name = ?",
            (entity_id, key),
        ).fetchone()
        return int(row[0])

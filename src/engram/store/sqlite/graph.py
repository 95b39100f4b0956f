"""The knowledge graph in the SQLite store (seed 004's graph tables, seed 003's validity
windows). Writes run in one ``BEGIN IMMEDIATE`` transaction (or join the open one), so
the read-then-write steps of ``record`` never interleave with another writer; neighbour
walks are one recursive CTE.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
from engram.store.protocols.graph import (
    UNKNOWN_TYPE,
    BoostLookup,
    Entity,
    Mention,
    Neighbor,
    RecordResult,
    Relation,
    Triple,
    canonical_name,
    canonical_relation,
    normal_name,
)
from engram.store.sqlite import graph_boost, graph_counts, graph_merge
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

# char(31) (unit separator) cannot appear in a canonical name: whitespace is collapsed.
_ENTITY = (
    "SELECT e.id, e.namespace, e.name, e.canonical_name, e.entity_type, e.mentions, "
    "e.created_at, e.updated_at, (SELECT group_concat(a.alias, char(31)) "
    "FROM entity_aliases a WHERE a.entity_id = e.id) FROM entities e"
)
_RELATION = (
    "SELECT r.id, r.namespace, s.name, r.relation_type, t.name, r.confidence, r.mentions, "
    "r.strength, r.valid_from, r.valid_to, r.source_memory_id, r.created_at, "
    "r.source_entity_id, r.target_entity_id FROM relations r "
    "JOIN entities s ON s.id = r.source_entity_id "
    "JOIN entities t ON t.id = r.target_entity_id"
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


def _relation(row: Sequence[Any]) -> Relation:
    return Relation(
        id=int(row[0]),
        namespace=row[1],
        source=row[2],
        relation_type=row[3],
        target=row[4],
        confidence=float(row[5]),
        mentions=int(row[6]),
        strength=float(row[7]),
        valid_from=_time(row[8]),
        valid_to=parse_ts(row[9]),
        source_memory_id=row[10],
        created_at=_time(row[11]),
        source_entity_id=int(row[12]),
        target_entity_id=int(row[13]),
    )


def _time(value: str) -> datetime:
    parsed = parse_ts(value)
    assert parsed is not None  # NOT NULL columns
    return parsed


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
        memory_id: str,
        triples: Sequence[Triple],
        *,
        entity_types: Mapping[str, str],
        single_valued: Collection[str],
        valid_from: datetime,
        now: datetime,
    ) -> RecordResult:
        """Persist what one memory states, idempotently (see ``GraphStore.record``)."""
        names: dict[str, tuple[str, float]] = {}  # canonical -> (first spelling, confidence)
        for source, _, target, confidence in triples:
            for name in (source, target):
                key = canonical_name(name)
                seen = names.get(key)
                names[key] = (seen[0] if seen else name, max(confidence, seen[1] if seen else 0))
        for name in entity_types:
            names.setdefault(canonical_name(name), (name, 1.0))
        types = {canonical_name(k): v for k, v in entity_types.items()}
        single = {canonical_relation(k) for k in single_valued}
        counts = {"added": 0, "reinforced": 0, "superseded": 0, "unchanged": 0}
        ids: dict[str, int] = {}
        new_mentions = 0
        t, stamp = ts(valid_from), ts(now)
        with self._write("recording graph facts") as conn:
            live = conn.execute(
                "SELECT EXISTS (SELECT 1 FROM relation_mentions WHERE memory_id = ?) "
                "FROM memories WHERE id = ? AND namespace = ? AND deleted_at IS NULL",
                (memory_id, memory_id, namespace),
            ).fetchone()
            if live is None:
                raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
            # A memory that states nothing yet (a new one, on the write path) has only
            # what this call states: those are tracked here instead of queried per triple.
            stated: dict[tuple[int, str, int], int] | None = None if live[0] else {}
            for key in sorted(names):
                spelling, confidence = names[key]
                ids[key] = self._entity_id(conn, namespace, spelling, key, types.get(key), stamp)
                cur = conn.execute(
                    "INSERT OR IGNORE INTO memory_entity_mentions(memory_id, entity_id, "
                    "namespace, mention_text, confidence) VALUES (?, ?, ?, ?, ?)",
                    (memory_id, ids[key], namespace, spelling, confidence),
                )
                if cur.rowcount == 1:  # seed 004: mentions + 1 once per memory
                    new_mentions += 1
                    conn.execute(
                        "UPDATE entities SET mentions = mentions + 1, updated_at = ? WHERE id = ?",
                        (stamp, ids[key]),
                    )
            held: list[int] = []
            for source, relation_type, target, confidence in triples:
                kind = canonical_relation(relation_type)
                rid, outcome = self._state(
                    conn,
                    (namespace, ids[canonical_name(source)], kind, ids[canonical_name(target)]),
                    memory_id,
                    confidence,
                    single=kind in single,
                    t=t,
                    stamp=stamp,
                    stated=stated,
                )
                held.append(rid)
                counts[outcome] += 1
            by_id = self._relations_by_id(conn, held)
        return RecordResult(
            relations=tuple(by_id[i] for i in held), new_mentions=new_mentions, **counts
        )

    def _entity_id(
        self,
        conn: sqlite3.Connection,
        namespace: str,
        name: str,
        key: str,
        entity_type: str | None,
        stamp: str,
    ) -> int:
        """The entity with canonical name or alias ``key``, created if there is none;
        an ``unknown`` type is filled in when the caller names one."""
        # Canonical name, then alias, then the normalised spelling ("Dr. Smith" ->
        # "dr smith", "Caroline's" -> "caroline") as a canonical name or alias.
        loose = normal_name(key)
        row = None
        for candidate in dict.fromkeys((key, loose)):
            row = (
                conn.execute(
                    "SELECT id, entity_type FROM entities WHERE namespace = ? "
                    "AND canonical_name = ?",
                    (namespace, candidate),
                ).fetchone()
                or conn.execute(
                    "SELECT e.id, e.entity_type FROM entity_aliases a JOIN entities e "
                    "ON e.id = a.entity_id WHERE a.namespace = ? AND a.alias = ?",
                    (namespace, candidate),
                ).fetchone()
            )
            if row is not None or not candidate:
                break
        if row is None:
            cur = conn.execute(
                "INSERT INTO entities(namespace, name, canonical_name, entity_type, mentions, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?)",
                (namespace, name, key, entity_type or UNKNOWN_TYPE, stamp, stamp),
            )
            assert cur.lastrowid is not None
            if loose and loose != key:  # later spellings that normalise alike find it
                conn.execute(
                    "INSERT OR IGNORE INTO entity_aliases(entity_id, namespace, alias) "
                    "VALUES (?, ?, ?)",
                    (cur.lastrowid, namespace, loose),
                )
            return cur.lastrowid
        if entity_type and entity_type != UNKNOWN_TYPE and row[1] == UNKNOWN_TYPE:
            conn.execute(
                "UPDATE entities SET entity_type = ?, updated_at = ? WHERE id = ?",
                (entity_type, stamp, row[0]),
            )
        return int(row[0])

    def _state(
        self,
        conn: sqlite3.Connection,
        fact: tuple[str, int, str, int],
        memory_id: str,
        confidence: float,
        *,
        single: bool,
        t: str,
        stamp: str,
        stated: dict[tuple[int, str, int], int] | None,
    ) -> tuple[int, str]:
        """Apply one stated fact at time ``t``; returns the relation that holds it and
        what happened (added, reinforced, superseded, unchanged). ``stated`` holds what
        the memory states when it is known without a query (see ``record``)."""
        namespace, source, kind, target = fact
        if stated is None:
            said = conn.execute(
                "SELECT r.id FROM relation_mentions m JOIN relations r ON r.id = m.relation_id "
                "WHERE m.memory_id = ? AND r.namespace = ? AND r.source_entity_id = ? "
                "AND r.relation_type = ? AND r.target_entity_id = ?",
                (memory_id, namespace, source, kind, target),
            ).fetchone()
        else:
            known = stated.get((source, kind, target))
            said = None if known is None else (known,)
        if said is not None:  # this memory said it already: idempotent
            return int(said[0]), "unchanged"
        rid, outcome = self._apply(
            conn, fact, memory_id, confidence, single=single, t=t, stamp=stamp
        )
        if stated is not None:
            stated[(source, kind, target)] = rid  # its mention row is written now
        return rid, outcome

    def _apply(
        self,
        conn: sqlite3.Connection,
        fact: tuple[str, int, str, int],
        memory_id: str,
        confidence: float,
        *,
        single: bool,
        t: str,
        stamp: str,
    ) -> tuple[int, str]:
        """``_state`` for a fact the memory has not stated before."""
        namespace, source, kind, target = fact
        # A single-valued fact competes with every target of (source, type); a
        # multi-valued one only with rows of the same target.
        same = "r.namespace = ? AND r.source_entity_id = ? AND r.relation_type = ?"
        params: tuple[Any, ...] = (namespace, source, kind)
        if not single:
            same += " AND r.target_entity_id = ?"
            params += (target,)
        holding = conn.execute(
            f"SELECT r.id, r.target_entity_id, r.valid_to FROM relations r WHERE {same} "
            f"AND {_VALID_AT} ORDER BY r.valid_from DESC, r.id DESC LIMIT 1",
            (*params, t, t),
        ).fetchone()
        if holding is not None and holding[1] == target:
            self._reinforce(conn, int(holding[0]), memory_id, confidence)
            return int(holding[0]), "reinforced"
        if holding is not None:
            # seed 003: the old fact is closed, not overwritten; the new one holds
            # until whatever already followed the old one.
            conn.execute("UPDATE relations SET valid_to = ? WHERE id = ?", (t, holding[0]))
            return self._insert(conn, fact, memory_id, confidence, t, holding[2], stamp), (
                "superseded"
            )
        following = conn.execute(
            f"SELECT r.id, r.target_entity_id, r.valid_from FROM relations r WHERE {same} "
            "AND r.valid_from > ? ORDER BY r.valid_from, r.id LIMIT 1",
            (*params, t),
        ).fetchone()
        if following is not None and following[1] == target:
            # An older memory states a fact already known from later on: it held
            # earlier than we knew, so its window starts earlier.
            conn.execute("UPDATE relations SET valid_from = ? WHERE id = ?", (t, following[0]))
            self._reinforce(conn, int(following[0]), memory_id, confidence)
            return int(following[0]), "reinforced"
        until = None if following is None else following[2]
        return self._insert(conn, fact, memory_id, confidence, t, until, stamp), "added"

    @staticmethod
    def _reinforce(
        conn: sqlite3.Connection, relation_id: int, memory_id: str, confidence: float
    ) -> None:
        # seed 004: confidence = (old_avg * n + new) / (n + 1); SET reads the old row.
        conn.execute(
            "UPDATE relations SET confidence = (confidence * mentions + ?) / (mentions + 1), "
            "mentions = mentions + 1 WHERE id = ?",
            (confidence, relation_id),
        )
        conn.execute(
            "INSERT INTO relation_mentions(relation_id, memory_id, confidence) VALUES (?, ?, ?)",
            (relation_id, memory_id, confidence),
        )

    @staticmethod
    def _insert(
        conn: sqlite3.Connection,
        fact: tuple[str, int, str, int],
        memory_id: str,
        confidence: float,
        valid_from: str,
        valid_to: str | None,
        stamp: str,
    ) -> int:
        cur = conn.execute(
            "INSERT INTO relations(namespace, source_entity_id, relation_type, "
            "target_entity_id, confidence, mentions, strength, valid_from, valid_to, "
            "source_memory_id, created_at) VALUES (?, ?, ?, ?, ?, 1, 1.0, ?, ?, ?, ?)",
            (*fact, confidence, valid_from, valid_to, memory_id, stamp),
        )
        assert cur.lastrowid is not None
        conn.execute(
            "INSERT INTO relation_mentions(relation_id, memory_id, confidence) VALUES (?, ?, ?)",
            (cur.lastrowid, memory_id, confidence),
        )
        return cur.lastrowid

    @staticmethod
    def _relations_by_id(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, Relation]:
        unique = list(dict.fromkeys(ids))
        out: dict[int, Relation] = {}
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = conn.execute(f"{_RELATION} WHERE r.id IN ({marks})", chunk).fetchall()
            out.update((int(r[0]), _relation(r)) for r in rows)
        return out

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
            return self._relations_by_id(conn, [rid])[rid]

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

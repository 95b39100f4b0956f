"""The knowledge graph in the PostgreSQL store (seed 004's graph tables, seed 003's
validity windows), with the SQLite store's semantics.

Concurrent ``record`` calls are serialised per namespace by a transaction-level
advisory lock, so two workers never interleave the read-then-write steps that close and
open validity windows, and cannot deadlock on each other's entity rows (row locks taken
in name order could still cross through aliases). Timelines and neighbour
walks are single SQL statements (the walk a recursive CTE), never loops over rows.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import InvalidInputError, NotFoundError
from engram.store.postgres import codec, graph_boost, graph_counts, graph_merge
from engram.store.postgres.db import Database
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

Conn = psycopg.Connection[Any]

_ENTITY = (
    "SELECT e.id, e.namespace, e.name, e.canonical_name, e.entity_type, e.mentions, "
    "e.created_at, e.updated_at, ARRAY(SELECT a.alias FROM entity_aliases a "
    "WHERE a.entity_id = e.id ORDER BY a.alias) FROM entities e"
)
_RELATION = (
    "SELECT r.id, r.namespace, s.name, r.relation_type, t.name, r.confidence, r.mentions, "
    "r.strength, r.valid_from, r.valid_to, r.source_memory_id, r.created_at, "
    "r.source_entity_id, r.target_entity_id FROM relations r "
    "JOIN entities s ON s.id = r.source_entity_id "
    "JOIN entities t ON t.id = r.target_entity_id"
)
#: Prefix of the advisory-lock key that serialises ``record`` per namespace.
_LOCK = "engram.graph:"
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
        valid_from=codec.utc(row[8]),
        valid_to=None if row[9] is None else codec.utc(row[9]),
        source_memory_id=row[10],
        created_at=codec.utc(row[11]),
        source_entity_id=int(row[12]),
        target_entity_id=int(row[13]),
    )


class PgGraph:
    """The PostgreSQL implementation of ``GraphStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

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
        for key, (spelling, _) in names.items():
            codec.check_text(spelling, "entity name")
            codec.check_text(key, "entity name")
        types = {canonical_name(k): v for k, v in entity_types.items()}
        single = {canonical_relation(k) for k in single_valued}
        counts = {"added": 0, "reinforced": 0, "superseded": 0, "unchanged": 0}
        ids: dict[str, int] = {}
        new_mentions = 0
        with self._db.tx("recording graph facts") as conn:
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_LOCK + namespace,)
            )
            # Under the lock: what another writer recorded for this memory is visible.
            live = conn.execute(
                "SELECT EXISTS (SELECT 1 FROM relation_mentions WHERE memory_id = %s) "
                "FROM memories WHERE id = %s AND namespace = %s AND deleted_at IS NULL",
                (memory_id, memory_id, namespace),
            ).fetchone()
            if not live:
                raise NotFoundError(f"no memory {memory_id!r} in namespace {namespace!r}")
            # A memory that states nothing yet (a new one, on the write path) has only
            # what this call states: those are tracked here instead of queried per triple.
            stated: dict[tuple[int, str, int], int] | None = None if live[0] else {}
            for key in sorted(names):
                spelling, confidence = names[key]
                ids[key] = self._entity_id(conn, namespace, spelling, key, types.get(key), now)
                cur = conn.execute(
                    "INSERT INTO memory_entity_mentions(memory_id, entity_id, namespace, "
                    "mention_text, confidence) VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    (memory_id, ids[key], namespace, spelling, confidence),
                )
                if cur.rowcount == 1:  # seed 004: mentions + 1 once per memory
                    new_mentions += 1
                    conn.execute(
                        "UPDATE entities SET mentions = mentions + 1, updated_at = %s "
                        "WHERE id = %s",
                        (now, ids[key]),
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
                    t=valid_from,
                    now=now,
                    stated=stated,
                )
                held.append(rid)
                counts[outcome] += 1
            rows = conn.execute(f"{_RELATION} WHERE r.id = ANY(%s)", (held,)).fetchall()
        by_id = {int(r[0]): _relation(r) for r in rows}
        return RecordResult(
            relations=tuple(by_id[i] for i in held), new_mentions=new_mentions, **counts
        )

    @staticmethod
    def _entity_id(
        conn: Conn,
        namespace: str,
        name: str,
        key: str,
        entity_type: str | None,
        now: datetime,
    ) -> int:
        """The entity with canonical name or alias ``key``, created if there is none;
        an ``unknown`` type is filled in."""
        # Canonical name, then alias, then the normalised spelling ("Dr. Smith" ->
        # "dr smith", "Caroline's" -> "caroline") as a canonical name or alias.
        loose = normal_name(key)
        row = None
        for candidate in dict.fromkeys((key, loose)):
            row = conn.execute(
                "SELECT id, entity_type FROM entities WHERE namespace = %s "
                "AND canonical_name = %s UNION ALL SELECT e.id, e.entity_type "
                "FROM entity_aliases a JOIN entities e ON e.id = a.entity_id "
                "WHERE a.namespace = %s AND a.alias = %s LIMIT 1",
                (namespace, candidate, namespace, candidate),
            ).fetchone()
            if row is not None or not candidate:
                break
        if row is None:
            # A writer outside the namespace lock (the inline linker, later) may insert
            # the name meanwhile: DO UPDATE returns its row, DO NOTHING would return none.
            row = conn.execute(
                "INSERT INTO entities(namespace, name, canonical_name, entity_type, mentions, "
                "created_at, updated_at) VALUES (%s, %s, %s, %s, 0, %s, %s) "
                "ON CONFLICT (namespace, canonical_name) DO UPDATE "
                "SET updated_at = entities.updated_at RETURNING id, entity_type",
                (namespace, name, key, entity_type or UNKNOWN_TYPE, now, now),
            ).fetchone()
            assert row is not None
            if loose and loose != key:  # later spellings that normalise alike find it
                conn.execute(
                    "INSERT INTO entity_aliases(entity_id, namespace, alias) "
                    "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    (row[0], namespace, loose),
                )
        if entity_type and entity_type != UNKNOWN_TYPE and row[1] == UNKNOWN_TYPE:
            conn.execute(
                "UPDATE entities SET entity_type = %s, updated_at = %s WHERE id = %s",
                (entity_type, now, row[0]),
            )
        return int(row[0])

    def _state(
        self,
        conn: Conn,
        fact: tuple[str, int, str, int],
        memory_id: str,
        confidence: float,
        *,
        single: bool,
        t: datetime,
        now: datetime,
        stated: dict[tuple[int, str, int], int] | None,
    ) -> tuple[int, str]:
        """Apply one stated fact at time ``t``; returns the relation that holds it and
        what happened (added, reinforced, superseded, unchanged). ``stated`` holds what
        the memory states when it is known without a query (see ``record``)."""
        namespace, source, kind, target = fact
        if stated is None:
            said = conn.execute(
                "SELECT r.id FROM relation_mentions m JOIN relations r ON r.id = m.relation_id "
                "WHERE m.memory_id = %s AND r.namespace = %s AND r.source_entity_id = %s "
                "AND r.relation_type = %s AND r.target_entity_id = %s",
                (memory_id, namespace, source, kind, target),
            ).fetchone()
        else:
            known = stated.get((source, kind, target))
            said = None if known is None else (known,)
        if said is not None:  # this memory said it already: idempotent
            return int(said[0]), "unchanged"
        rid, outcome = self._apply(conn, fact, memory_id, confidence, single=single, t=t, now=now)
        if stated is not None:
            stated[(source, kind, target)] = rid  # its mention row is written now
        return rid, outcome

    def _apply(
        self,
        conn: Conn,
        fact: tuple[str, int, str, int],
        memory_id: str,
        confidence: float,
        *,
        single: bool,
        t: datetime,
        now: datetime,
    ) -> tuple[int, str]:
        """``_state`` for a fact the memory has not stated before."""
        namespace, source, kind, target = fact
        # A single-valued fact competes with every target of (source, type); a
        # multi-valued one only with rows of the same target.
        same = "r.namespace = %s AND r.source_entity_id = %s AND r.relation_type = %s"
        params: tuple[Any, ...] = (namespace, source, kind)
        if not single:
            same += " AND r.target_entity_id = %s"
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
            conn.execute("UPDATE relations SET valid_to = %s WHERE id = %s", (t, holding[0]))
            return self._insert(conn, fact, memory_id, confidence, t, holding[2], now), (
                "superseded"
            )
        following = conn.execute(
            f"SELECT r.id, r.target_entity_id, r.valid_from FROM relations r WHERE {same} "
            "AND r.valid_from > %s ORDER BY r.valid_from, r.id LIMIT 1",
            (*params, t),
        ).fetchone()
        if following is not None and following[1] == target:
            # An older memory states a fact already known from later on: it held
            # earlier than we knew, so its window starts earlier.
            conn.execute("UPDATE relations SET valid_from = %s WHERE id = %s", (t, following[0]))
            self._reinforce(conn, int(following[0]), memory_id, confidence)
            return int(following[0]), "reinforced"
        until = None if following is None else following[2]
        return self._insert(conn, fact, memory_id, confidence, t, until, now), "added"

    @staticmethod
    def _reinforce(conn: Conn, relation_id: int, memory_id: str, confidence: float) -> None:
        # seed 004: confidence = (old_avg * n + new) / (n + 1); SET reads the old row.
        conn.execute(
            "UPDATE relations SET confidence = (confidence * mentions + %s) / (mentions + 1), "
            "mentions = mentions + 1 WHERE id = %s",
            (confidence, relation_id),
        )
        conn.execute(
            "INSERT INTO relation_mentions(relation_id, memory_id, confidence) VALUES (%s, %s, %s)",
            (relation_id, memory_id, confidence),
        )

    @staticmethod
    def _insert(
        conn: Conn,
        fact: tuple[str, int, str, int],
        memory_id: str,
        confidence: float,
        valid_from: datetime,
        valid_to: datetime | None,
        now: datetime,
    ) -> int:
        row = conn.execute(
            "INSERT INTO relations(namespace, source_entity_id, relation_type, "
            "target_entity_id, confidence, mentions, strength, valid_from, valid_to, "
            "source_memory_id, created_at) VALUES (%s, %s, %s, %s, %s, 1, 1.0, %s, %s, %s, %s) "
            "RETURNING id",
            (*fact, confidence, valid_from, valid_to, memory_id, now),
        ).fetchone()
        assert row is not None
        conn.execute(
            "INSERT INTO relation_mentions(relation_id, memory_id, confidence) VALUES (%s, %s, %s)",
            (row[0], memory_id, confidence),
        )
        return int(row[0])

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

"""``GraphStore.record``: what a batch of memories states, written as if each memory
were recorded in turn.

Recording one memory alone costs about a dozen statements: its liveness, each name
looked up as a canonical name and an alias, a mention row and a count per name, a read
and two writes per triple, the relations read back. A batch shares and defers what it
can, and writes the same rows:

- the memories' liveness, the entities their names resolve to and the mention rows
  already there are read once for the batch (PostgreSQL binds each list as one array;
  SQLite reads it ``d.chunk`` values at a time);
- the validity windows every triple competes with (a single-valued fact's source and
  type, else its source, type and target) are read once for the batch too (``windows``),
  and kept current as the batch changes them: a triple's question "what holds at t, what
  follows it" is answered here, not with a statement per triple (issue 29, pgadd26);
- an entity or a relation is created when it is first met (``RETURNING`` its id), and a
  validity window is closed or opened at once;
- mention rows, entity counts, reinforcements and relation mentions are written at the
  end with ``executemany`` (one pipeline each on PostgreSQL), in the order recording
  one by one writes them, so every row, id and running average comes out the same.
  Nothing read during the batch depends on them: what the batch itself added is
  tracked here.

On SQLite the batch runs in one ``BEGIN IMMEDIATE`` transaction, which already keeps
other writers out; on PostgreSQL it runs under the namespace's graph lock (``lock``),
taken once.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from engram.errors import NotFoundError
from engram.store.protocols.graph import (
    UNKNOWN_TYPE,
    RecordResult,
    Relation,
    Statement,
    canonical_name,
    canonical_relation,
    name_keys,
    normal_name,
)
from engram.store.sql import rows
from engram.store.sql.dialect import Conn, Dialect

RELATION = (
    "SELECT r.id, r.namespace, s.name, r.relation_type, t.name, r.confidence, r.mentions, "
    "r.strength, r.valid_from, r.valid_to, r.source_memory_id, r.created_at, "
    "r.source_entity_id, r.target_entity_id FROM relations r "
    "JOIN entities s ON s.id = r.source_entity_id "
    "JOIN entities t ON t.id = r.target_entity_id"
)
#: A relation valid at a moment (two parameters: the moment twice).
VALID_AT = "r.valid_from <= ? AND (r.valid_to IS NULL OR r.valid_to > ?)"
#: Prefix of the PostgreSQL advisory-lock key that serialises graph writes per namespace.
LOCK = "engram.graph:"

#: A name's spelling and confidence, and the types a statement gives (``names_of``).
Plan = tuple[dict[str, tuple[str, float]], dict[str, str]]


def lock(conn: Conn, d: Dialect, namespace: str) -> None:
    """Take the namespace's graph lock for the rest of the transaction. On PostgreSQL a
    transaction-level advisory lock, so two workers never interleave the read-then-write
    steps that close and open validity windows, and cannot deadlock on each other's
    entity rows (row locks taken in name order could still cross through aliases). On
    SQLite ``BEGIN IMMEDIATE`` already serialises writers: nothing to take."""
    if d.name == "postgres":
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (LOCK + namespace,))


def check_entity(conn: Conn, namespace: str, entity_id: int) -> None:
    """``NotFoundError`` unless ``namespace`` has the entity ``entity_id``."""
    sql = "SELECT 1 FROM entities WHERE id = ? AND namespace = ?"
    rows.found(
        conn, sql, (entity_id, namespace), f"no entity {entity_id} in namespace {namespace!r}"
    )


def relation(d: Dialect, row: Sequence[Any]) -> Relation:
    """The relation of a row selected with ``RELATION`` (its columns in field order)."""
    return rows.record(d, Relation, row)


def relations_by_id(conn: Conn, d: Dialect, ids: Sequence[int]) -> dict[int, Relation]:
    """The relations of ``ids`` as they are now."""
    out: dict[int, Relation] = {}
    rows = d.select_in(conn, f"{RELATION} WHERE ", "r.id", list(dict.fromkeys(ids)))
    out.update((int(r[0]), relation(d, r)) for r in rows)
    return out


def names_of(d: Dialect, statement: Statement) -> Plan:
    """Canonical name -> (first spelling, highest confidence) of every name the
    statement mentions, and canonical name -> the type it gives; ``InvalidInputError``
    for a name the engine cannot store (PostgreSQL: a NUL)."""
    names: dict[str, tuple[str, float]] = {}
    for source, _, target, confidence in statement.triples:
        for name in (source, target):
            key = canonical_name(name)
            seen = names.get(key)
            names[key] = (seen[0] if seen else name, max(confidence, seen[1] if seen else 0))
    for name in statement.entity_types:
        names.setdefault(canonical_name(name), (name, 1.0))
    for key, (spelling, _) in names.items():
        d.text(spelling, "entity name")
        d.text(key, "entity name")
    types = {canonical_name(k): v for k, v in statement.entity_types.items()}
    return names, types


def record(
    conn: Conn,
    d: Dialect,
    namespace: str,
    statements: Sequence[Statement],
    single_valued: Collection[str],
    plans: Sequence[Plan],
) -> list[RecordResult]:
    """``GraphStore.record`` inside the caller's write transaction (``plans``:
    ``names_of`` each statement, checked before it began)."""
    lock(conn, d, namespace)
    batch = _Batch(conn, d, namespace, {canonical_relation(k) for k in single_valued})
    # Under the lock: what another writer recorded for these memories is visible.
    batch.load([s.memory_id for s in statements], [key for names, _ in plans for key in names])
    batch.windows(statements)
    done = [
        batch.state(s, names, types) for s, (names, types) in zip(statements, plans, strict=True)
    ]
    batch.flush()
    by_id = relations_by_id(conn, d, [rid for held, _, _ in done for rid in held])
    return [
        RecordResult(relations=tuple(by_id[i] for i in held), new_mentions=new, **counts)
        for held, new, counts in done
    ]


class _Batch:
    """What one ``record`` call has read and written so far, and what it defers."""

    def __init__(self, conn: Conn, d: Dialect, namespace: str, single: set[str]) -> None:
        self.conn = conn
        self.d = d
        self.namespace = namespace
        self.single = single
        # Whether a memory had stated anything before the batch, and what it states in it.
        self.before: dict[str, bool] = {}
        self.stated: dict[str, dict[tuple[int, str, int], int]] = {}
        # Canonical names and aliases of the namespace met so far -> entity id.
        self.canonical: dict[str, int] = {}
        self.alias: dict[str, int] = {}
        self.types: dict[int, str] = {}
        self.loose: dict[str, str] = {}
        self.mentioned: set[tuple[str, int]] = set()
        # Validity windows by (source, type): relation id -> [target, valid_from,
        # valid_to], as the database holds them now. ``read`` names the keys whose rows
        # are all here: (source, type, target), or (source, type, None) for every
        # target; ``fresh`` the entities this batch created (none of their rows predate
        # it: every relation writer takes the namespace's lock, held here).
        self.rows: dict[tuple[int, str], dict[int, list[Any]]] = {}
        self.read: set[tuple[int, str, int | None]] = set()
        self.fresh: set[int] = set()
        # Deferred writes, in the order recording one by one makes them.
        self.mention_rows: list[tuple[str, int, str, str, float]] = []
        self.entity_changes: dict[int, list[Any]] = {}  # id -> [mentions +, type, stamp]
        self.reinforced: list[tuple[float, int]] = []
        self.relation_mentions: list[tuple[int, str, float]] = []

    def load(self, memory_ids: Sequence[str], keys: Sequence[str]) -> None:
        """Read liveness, entities and existing mention rows for the whole batch."""
        conn, d, ns = self.conn, self.d, self.namespace
        ids = list(dict.fromkeys(memory_ids))
        # ``+namespace`` keeps SQLite on the unique id index: with the namespace index it
        # would scan the whole namespace (PostgreSQL has no unary ``+`` on text).
        namespace = "+m.namespace" if d.name == "sqlite" else "m.namespace"
        rows = d.select_in(
            conn,
            "SELECT m.id, EXISTS (SELECT 1 FROM relation_mentions x WHERE "
            f"x.memory_id = m.id) FROM memories m WHERE {namespace} = ? "
            "AND m.deleted_at IS NULL AND ",
            "m.id",
            ids,
            (ns,),
        )
        self.before.update((r[0], bool(r[1])) for r in rows)
        for memory_id in ids:
            if memory_id not in self.before:
                raise NotFoundError(f"no memory {memory_id!r} in namespace {ns!r}")
        rows = d.select_in(
            conn, "SELECT memory_id, entity_id FROM memory_entity_mentions WHERE ", "memory_id", ids
        )
        self.mentioned.update((r[0], int(r[1])) for r in rows)
        candidates: dict[str, None] = {}
        for key in keys:
            loose = self.loose.setdefault(key, normal_name(key))
            candidates[key] = candidates[loose] = None
        # (name, entity id, type) by canonical name, then by alias.
        lookups = (
            (
                self.canonical,
                "SELECT canonical_name, id, entity_type FROM entities WHERE namespace = ? AND ",
                "canonical_name",
            ),
            (
                self.alias,
                "SELECT a.alias, e.id, e.entity_type FROM entity_aliases a "
                "JOIN entities e ON e.id = a.entity_id WHERE a.namespace = ? AND ",
                "a.alias",
            ),
        )
        for chunk in d.slices(list(candidates)):
            for found, select, column in lookups:
                for name, eid, kind in conn.execute(
                    select + d.any_of(column, chunk), (ns, *d.bind(chunk))
                ).fetchall():
                    found[name] = int(eid)
                    self.types[int(eid)] = kind

    def windows(self, statements: Sequence[Statement]) -> None:
        """Read the windows every triple of the batch between entities that exist
        competes with, in as few statements as the keys allow."""
        keys: dict[tuple[int, str, int | None], None] = {}
        for statement in statements:
            closes = self._closes(statement)
            for source, relation_type, target, _ in statement.triples:
                kind = canonical_relation(relation_type)
                sid = self._found(canonical_name(source))
                tid = None if kind in closes else self._found(canonical_name(target))
                if sid is not None and (kind in closes or tid is not None):
                    keys[(sid, kind, tid)] = None
        every = {(s, k) for s, k, t in keys if t is None}
        self._read([key for key in keys if key[2] is None or key[:2] not in every])

    def _found(self, key: str) -> int | None:
        """The entity ``key`` (a canonical name) names, by canonical name or alias, then
        its normalised spelling as either; None while there is none."""
        for candidate in name_keys(key, self.loose.get(key)):
            eid = self.canonical.get(candidate, self.alias.get(candidate))
            if eid is not None or not candidate:
                return eid
        return None

    def _read(self, keys: Sequence[tuple[int, str, int | None]]) -> None:
        """Read the windows of ``keys`` (a target of None: every target); 0 stands for
        None in the statement (a column of NULLs has no type on PostgreSQL)."""
        size = max(1, self.d.chunk // 3)
        for at in range(0, len(keys), size):
            part = keys[at : at + size]
            values = ", ".join(["(?, ?, ?)"] * len(part))
            found = self.conn.execute(
                f"WITH k(s, t, g) AS (VALUES {values}) SELECT r.id, r.source_entity_id, "
                "r.relation_type, r.target_entity_id, r.valid_from, r.valid_to FROM k "
                "JOIN relations r ON r.namespace = ? AND r.source_entity_id = k.s "
                "AND r.relation_type = k.t AND (k.g = 0 OR r.target_entity_id = k.g)",
                (*(v for s, k, t in part for v in (s, k, t or 0)), self.namespace),
            ).fetchall()
            for rid, source, kind, target, valid_from, valid_to in found:
                held = self.rows.setdefault((int(source), kind), {})
                held[int(rid)] = [int(target), valid_from, valid_to]
            self.read.update(part)

    def _windows(self, source: int, kind: str, target: int | None) -> list[tuple[Any, ...]]:
        """(valid_from, id, target, valid_to) of every window competing with a triple
        (``target`` None: a single-valued one, every target), read if not yet read."""
        known = source in self.fresh or (source, kind, None) in self.read
        if not known and target is not None:
            known = target in self.fresh or (source, kind, target) in self.read
        if not known:
            self._read([(source, kind, target)])
        held = self.rows.get((source, kind), {})
        return [
            (v[1], rid, v[0], v[2]) for rid, v in held.items() if target is None or v[0] == target
        ]

    def _closes(self, statement: Statement) -> Collection[str]:
        """The relation types that close in ``statement`` (issue 28: it may decide)."""
        if statement.single_valued is None:
            return self.single
        return {canonical_relation(k) for k in statement.single_valued}

    def state(
        self, statement: Statement, names: dict[str, tuple[str, float]], types: dict[str, str]
    ) -> tuple[list[int], int, dict[str, int]]:
        """Apply one memory's statement: the relation behind each triple, the new
        mentions, and the outcome counts."""
        memory_id = statement.memory_id
        stamp, t = self.d.ts(statement.now), self.d.ts(statement.valid_from)
        ids: dict[str, int] = {}
        new_mentions = 0
        for key in sorted(names):
            spelling, confidence = names[key]
            eid = ids[key] = self._entity(spelling, key, types.get(key), stamp)
            if (memory_id, eid) not in self.mentioned:  # seed 004: + 1 once per memory
                self.mentioned.add((memory_id, eid))
                self.mention_rows.append((memory_id, eid, self.namespace, spelling, confidence))
                new_mentions += 1
                self._touch(eid, stamp, mentions=1)
        counts = {"added": 0, "reinforced": 0, "superseded": 0, "unchanged": 0}
        held: list[int] = []
        stated = self.stated.setdefault(memory_id, {})
        closes = self._closes(statement)
        for source, relation_type, target, confidence in statement.triples:
            kind = canonical_relation(relation_type)
            said = (ids[canonical_name(source)], kind, ids[canonical_name(target)])
            rid = stated.get(said)
            if rid is None and self.before[memory_id]:
                row = self.conn.execute(
                    "SELECT r.id FROM relation_mentions m JOIN relations r ON "
                    "r.id = m.relation_id WHERE m.memory_id = ? AND r.namespace = ? "
                    "AND r.source_entity_id = ? AND r.relation_type = ? "
                    "AND r.target_entity_id = ?",
                    (memory_id, self.namespace, *said),
                ).fetchone()
                rid = None if row is None else int(row[0])
            if rid is not None:  # this memory said it already: idempotent
                outcome = "unchanged"
            else:
                rid, outcome = self._apply(said, memory_id, confidence, t, stamp, closes)
                stated[said] = rid
            held.append(rid)
            counts[outcome] += 1
        return held, new_mentions, counts

    def _entity(self, name: str, key: str, entity_type: str | None, stamp: Any) -> int:
        """The entity with canonical name or alias ``key`` (then its normalised
        spelling), created if there is none; an ``unknown`` type is filled in."""
        loose = self.loose[key]
        eid = self._found(key)
        if eid is None:
            # On PostgreSQL a writer outside the namespace lock may insert the name
            # meanwhile: DO UPDATE returns its row, DO NOTHING would return none.
            row = self.conn.execute(
                "INSERT INTO entities(namespace, name, canonical_name, entity_type, mentions, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?) "
                "ON CONFLICT (namespace, canonical_name) DO UPDATE "
                "SET updated_at = entities.updated_at RETURNING id, entity_type",
                (self.namespace, name, key, entity_type or UNKNOWN_TYPE, stamp, stamp),
            ).fetchone()
            assert row is not None
            eid = self.canonical[key] = int(row[0])
            self.types[eid] = row[1]
            self.fresh.add(eid)
            if loose and loose != key:  # later spellings that normalise alike find it
                cur = self.conn.execute(
                    "INSERT INTO entity_aliases(entity_id, namespace, alias) "
                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (eid, self.namespace, loose),
                )
                if cur.rowcount == 1:
                    self.alias[loose] = eid
            return eid
        if entity_type and entity_type != UNKNOWN_TYPE and self.types[eid] == UNKNOWN_TYPE:
            self.types[eid] = entity_type
            self._touch(eid, stamp, entity_type=entity_type)
        return eid

    def _touch(
        self, eid: int, stamp: Any, *, mentions: int = 0, entity_type: str | None = None
    ) -> None:
        """Note a change to an entity row: its count, its type, its ``updated_at``."""
        change = self.entity_changes.setdefault(eid, [0, None, stamp])
        change[0] += mentions
        change[1] = entity_type or change[1]
        change[2] = stamp

    def _apply(
        self,
        said: tuple[int, str, int],
        memory_id: str,
        confidence: float,
        t: Any,
        stamp: Any,
        closes: Collection[str],
    ) -> tuple[int, str]:
        """A fact the memory has not stated before, at time ``t``: the relation that
        holds it and what happened (added, reinforced, superseded)."""
        conn = self.conn
        source, kind, target = said
        # A single-valued fact competes with every target of (source, type); a
        # multi-valued one only with rows of the same target. The one holding at t is
        # the newest window open at t; the one following, the first opened after t.
        windows = self._windows(source, kind, None if kind in closes else target)
        held = self.rows.get((source, kind), {})
        holding = max(
            (w for w in windows if w[0] <= t and (w[3] is None or w[3] > t)), default=None
        )
        if holding is not None and holding[2] == target:
            self._reinforce(holding[1], memory_id, confidence)
            return holding[1], "reinforced"
        if holding is not None:
            # seed 003: the old fact is closed, not overwritten; the new one holds
            # until whatever already followed the old one.
            conn.execute("UPDATE relations SET valid_to = ? WHERE id = ?", (t, holding[1]))
            held[holding[1]][2] = t
            return self._insert(said, memory_id, confidence, t, holding[3], stamp), "superseded"
        following = min((w for w in windows if w[0] > t), default=None)
        if following is not None and following[2] == target:
            # An older memory states a fact already known from later on: it held
            # earlier than we knew, so its window starts earlier.
            conn.execute("UPDATE relations SET valid_from = ? WHERE id = ?", (t, following[1]))
            held[following[1]][1] = t
            self._reinforce(following[1], memory_id, confidence)
            return following[1], "reinforced"
        until = None if following is None else following[0]
        return self._insert(said, memory_id, confidence, t, until, stamp), "added"

    def _reinforce(self, relation_id: int, memory_id: str, confidence: float) -> None:
        self.reinforced.append((confidence, relation_id))
        self.relation_mentions.append((relation_id, memory_id, confidence))

    def _insert(
        self,
        said: tuple[int, str, int],
        memory_id: str,
        confidence: float,
        valid_from: Any,
        valid_to: Any,
        stamp: Any,
    ) -> int:
        """A new relation row (its times as the engine stores them)."""
        source, kind, target = said
        row = self.conn.execute(
            "INSERT INTO relations(namespace, source_entity_id, relation_type, "
            "target_entity_id, confidence, mentions, strength, valid_from, valid_to, "
            "source_memory_id, created_at) VALUES (?, ?, ?, ?, ?, 1, 1.0, ?, ?, ?, ?) "
            "RETURNING id",
            (
                self.namespace,
                source,
                kind,
                target,
                confidence,
                valid_from,
                valid_to,
                memory_id,
                stamp,
            ),
        ).fetchone()
        assert row is not None
        rid = int(row[0])
        self.rows.setdefault((source, kind), {})[rid] = [target, valid_from, valid_to]
        self.relation_mentions.append((rid, memory_id, confidence))
        return rid

    def flush(self) -> None:
        """Write what was deferred, each table's rows in their recording order."""
        conn = self.conn
        if self.mention_rows:
            conn.executemany(
                "INSERT INTO memory_entity_mentions(memory_id, entity_id, namespace, "
                "mention_text, confidence) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                self.mention_rows,
            )
        if self.entity_changes:
            conn.executemany(
                "UPDATE entities SET mentions = mentions + ?, "
                "entity_type = coalesce(?, entity_type), updated_at = ? WHERE id = ?",
                [(n, kind, stamp, eid) for eid, (n, kind, stamp) in self.entity_changes.items()],
            )
        if self.reinforced:
            # seed 004: confidence = (old_avg * n + new) / (n + 1); SET reads the old row.
            conn.executemany(
                "UPDATE relations SET confidence = (confidence * mentions + ?) / "
                "(mentions + 1), mentions = mentions + 1 WHERE id = ?",
                self.reinforced,
            )
        if self.relation_mentions:
            conn.executemany(
                "INSERT INTO relation_mentions(relation_id, memory_id, confidence) "
                "VALUES (?, ?, ?)",
                self.relation_mentions,
            )

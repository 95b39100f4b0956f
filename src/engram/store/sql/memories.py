"""Memories: the ``memories`` rows and their audit history, on either engine.

Implements ``engram.store.protocols.MemoryStore``. Each call is one short transaction
(or joins the one the thread holds open); no model or network call happens inside
one. On SQLite the namespace's FTS5 index follows every write through triggers (see
``engram.store.sqlite.fts``); on PostgreSQL a trigger keeps the ``search`` tsvector.
Both keep the same semantics: namespaces, tombstones, content-hash dedup with
a "dedup" history event, before/after audit JSON.

This is the recall hot path (``get_many`` and ``facts`` for every candidate) and the
``add_many`` one (``insert`` in batches), so each engine keeps the statements it issued
before the two were merged (``session_members`` now reads per session on SQLite too,
as it did on PostgreSQL); where they differ, a fragment is keyed on ``d.name``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engram.errors import InvalidInputError, StoreError
from engram.records import HistoryEntry, MemoryRecord
from engram.store import schema
from engram.store.protocols import MemoryStore
from engram.store.protocols.memories import (
    FACTS_HEAD_CHARS,
    FactColumns,
    InsertResult,
    ListQuery,
    MemoryFacts,
)
from engram.store.sql.codec import (
    HISTORY_COLUMNS,
    SELECT,
    encode,
    from_row,
    insert_sql,
    to_row,
)
from engram.store.sql.dialect import Conn, Dialect, dumps
from engram.store.sql.history import history_row, live, write_history
from engram.store.sql.session import Sql, SqlPart
from engram.text import normalize_content

#: Where a ``SELECT`` row holds the content hash.
_HASH = schema.MEMORY_COLUMNS.index("content_hash")
_LIVE_HASH = " WHERE m.namespace = ? AND m.content_hash = ? AND m.deleted_at IS NULL"
_DEDUP = "identical content already stored"


def _live_by_id(
    d: Dialect, namespace: str, ids: Sequence[str], prefix: str
) -> Iterator[tuple[str, list[Any]]]:
    """WHERE clauses (and parameters) that read memories by id, a slice at a time,
    through the unique id index; the caller keeps the live ones of ``namespace``.

    On SQLite ``+namespace`` keeps the planner on the id index: with the namespace
    index it scans the whole namespace (at 100k: 126 ms of a 150 ms recall;
    ``tests/test_query_plans.py``). On PostgreSQL the ids alone are looked up: with a
    namespace condition the planner may scan the namespace through its index instead
    of fetching a dozen rows by primary key (10 ms instead of 0.5 at 5k memories).
    """
    for chunk in d.chunks(ids):
        clause, params = d.one_of(f"{prefix}id", chunk)
        if d.name == "sqlite":
            yield (
                f"+{prefix}namespace = ? AND {prefix}deleted_at IS NULL AND {clause}",
                [namespace, *params],
            )
        else:
            yield clause, params


def _stored(conn: Conn, d: Dialect, records: Sequence[MemoryRecord]) -> dict[tuple[str, str], Any]:
    """The live rows already holding the content of ``records``, by (namespace, content
    hash): one indexed read per namespace and slice of hashes, not one per record."""
    wanted: dict[str, set[str]] = {}
    for record in records:
        wanted.setdefault(record.namespace, set()).add(record.content_hash)
    found: dict[tuple[str, str], Any] = {}
    for namespace, hashes in wanted.items():
        for chunk in d.chunks(sorted(hashes)):
            clause, params = d.one_of("m.content_hash", chunk)
            for row in conn.execute(
                SELECT + f" WHERE m.namespace = ? AND {clause} AND m.deleted_at IS NULL",
                (namespace, *params),
            ):
                found[(namespace, row[_HASH])] = row
    return found


def _metadata_clause(d: Dialect, key: str, value: Any) -> tuple[str, list[Any]]:
    """A filter on one metadata key; both engines give the same answers.

    Strings match JSON strings only; numbers and booleans compare as numbers (true is
    1, false 0); None matches a JSON null or a missing key. SQLite matches ``key = ?``
    in ``json_each``: a JSON path (``$."key"``) cannot address every key (one with a
    quote is a path error). PostgreSQL's ``->`` takes the key as a parameter, so any key
    works there too.
    """
    d.text(key, "metadata key")
    if not isinstance(value, str | bool | int | float | None):
        raise InvalidInputError(
            f"metadata filter {key!r} must be a string, number, boolean or None, "
            f"got {type(value).__name__}"
        )
    number = int(value) if isinstance(value, bool) else value
    if d.name == "sqlite":
        if value is None:
            return (
                "NOT EXISTS (SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ? "
                "AND j.type != 'null')",
                [key],
            )
        kinds = "'text'" if isinstance(value, str) else "'integer', 'real', 'true', 'false'"
        return (
            "EXISTS (SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ? "
            f"AND j.type IN ({kinds}) AND j.value = ?)",
            [key, number],
        )
    path = "(m.metadata -> ?)"
    kind = f"json_typeof{path}"
    if value is None:
        return f"({path} IS NULL OR {kind} = 'null')", [key, key]
    if isinstance(value, str):
        d.text(value, "metadata value")
        return f"({kind} = 'string' AND (m.metadata ->> ?) = ?)", [key, key, value]
    as_number = (
        f"(CASE {kind} WHEN 'number' THEN (m.metadata ->> ?)::numeric "
        "WHEN 'boolean' THEN CASE WHEN (m.metadata ->> ?) = 'true' THEN 1 ELSE 0 END "
        "END)"
    )
    return f"{as_number} = ?::numeric", [key, key, key, number]


def _tags_clause(d: Dialect, tags: Sequence[str]) -> tuple[str, list[Any]]:
    """Memories holding every tag in ``tags`` (repeats count once), in one clause
    however many tags."""
    wanted = list(dict.fromkeys(tags))
    if d.name == "sqlite":
        # A clause per tag passes SQLite's expression depth (1000) at a few hundred
        # tags. The wanted tags travel as one JSON array, so no count of them reaches
        # the bound-parameter limit either.
        return (
            "(SELECT count(DISTINCT t.value) FROM json_each(m.tags) t WHERE t.type = 'text' "
            "AND t.value IN (SELECT w.value FROM json_each(?) w)) = ?",
            [json.dumps(wanted), len(wanted)],
        )
    # jsonb containment holds when every wanted tag is one of the memory's.
    return "m.tags::jsonb @> ?::jsonb", [dumps([d.text(t, "tag") for t in tags])]


def id_prefix_clause(d: Dialect, prefix: str, column: str = "m.id") -> tuple[str, list[Any]]:
    """Rows whose ``column`` (an id) starts with ``prefix``."""
    if d.name == "sqlite":
        # A range on the unique id index: U+10FFFF sorts after every other character.
        return f"{column} >= ? AND {column} < ?", [prefix, prefix + "\U0010ffff"]
    return f"starts_with({column}, ?)", [d.text(prefix, "id prefix")]


def _where(d: Dialect, namespace: str, query: ListQuery) -> tuple[str, list[Any]]:
    """The WHERE clause and parameters of ``query``'s filters (no order, no page)."""
    where = ["m.namespace = ?"]
    params: list[Any] = [namespace]
    clauses: list[tuple[str, list[Any]]] = []
    if not query.include_deleted:
        where.append("m.deleted_at IS NULL")
    for column in ("type", "category", "user_id", "agent_id", "run_id", "session_id"):
        value = getattr(query, column)
        if value is not None:
            clauses.append((f"m.{column} = ?", [str(value)]))
    if query.has_session is not None:  # on the index memories_ns_session either way
        clauses.append((f"m.session_id IS {'NOT ' if query.has_session else ''}NULL", []))
    if query.tags:
        clauses.append(_tags_clause(d, query.tags))
    for key, value in query.metadata.items():
        clauses.append(_metadata_clause(d, str(key), value))
    if query.min_quality is not None:
        clauses.append(("m.quality >= ?", [query.min_quality]))
    if query.max_quality is not None:
        clauses.append(("m.quality <= ?", [query.max_quality]))
    if query.created_after is not None:
        clauses.append(("m.created_at >= ?", [d.ts(query.created_after)]))
    if query.created_before is not None:
        clauses.append(("m.created_at < ?", [d.ts(query.created_before)]))
    if query.id_prefix is not None:
        clauses.append(id_prefix_clause(d, query.id_prefix))
    for clause, values in clauses:
        where.append(clause)
        params.extend(values)
    return " AND ".join(where), params


def fact_columns(prefix: str = "") -> str:
    """A memory's ``MemoryFacts`` columns: creation time, session, and the length and head
    of the normalised text (whitespace collapsed, as the hash and keyword index see it):
    content is stored as given (issue 26), and recall's length and head rules were
    measured on collapsed text. ``prefix``: the table's alias and a dot, in a join."""
    return (
        f"{prefix}created_at, {prefix}session_id, length({prefix}normalized), "
        f"substr({prefix}normalized, 1, {FACTS_HEAD_CHARS})"
    )


#: ``fact_columns`` of ``memories`` read alone. SQLite's fact blocks read the same
#: (``fact_block``).
FACT_COLUMNS = fact_columns()


def live_facts(d: Dialect, namespace: str, row: Sequence[Any]) -> MemoryFacts | None:
    """``row`` (the memory's namespace, ``deleted_at``, then ``fact_columns``) as its
    facts, or None unless it is a live memory of ``namespace`` (a read by id alone,
    ``_live_by_id``, or a join that found no memory)."""
    ns, deleted, created, session, chars, head = row
    if ns != namespace or deleted is not None:
        return None
    return MemoryFacts(d.time(created), session, int(chars), head)


class SqlMemories(SqlPart, MemoryStore):
    """``MemoryStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        super().__init__(sql)
        self._insert = insert_sql(sql.d)
        #: PostgreSQL's batch insert, in psycopg's own ``%s`` style (it runs on the
        #: driver connection; the statement holds no other ``?`` or ``%``).
        self._insert_returning = (
            self._insert + " ON CONFLICT (namespace, content_hash) WHERE deleted_at IS NULL "
            "DO NOTHING RETURNING id"
        ).replace("?", "%s")

    def insert(
        self, records: Sequence[MemoryRecord], *, actor: str | None = None
    ) -> list[InsertResult]:
        if not records:
            return []
        d = self._d
        now = self._sql.clock()
        with self._sql.tx("insert") as conn:
            if d.name == "postgres":
                existing = self._insert_batch(conn, records)
            else:
                existing = self._insert_each(conn, records)
            results: list[InsertResult] = []
            history: list[tuple[Any, ...]] = []
            for record, found in zip(records, existing, strict=True):
                if found is None:
                    results.append(InsertResult(record, created=True))
                    history.append(history_row(d, record, "create", None, record, actor, None, now))
                    continue
                results.append(InsertResult(found, created=False))
                history.append(history_row(d, found, "dedup", None, None, actor, _DEDUP, now))
            write_history(conn, d, history)
        return results

    def _insert_each(
        self, conn: Conn, records: Sequence[MemoryRecord]
    ) -> list[MemoryRecord | None]:
        """SQLite: the stored copy of each record (None: inserted now). Writers are
        serialised (``BEGIN IMMEDIATE``), so one read of the stored hashes first and a
        plain insert per new record is exact: no other writer can store the same content
        in between. The new rows go in one ``executemany`` per run (in the batch's order,
        so the same ``seq`` numbers), cut only where the batch repeats a content it wrote."""
        d = self._d
        stored = _stored(conn, d, records)
        written: set[tuple[str, str]] = set()
        rows: list[tuple[Any, ...]] = []
        out: list[MemoryRecord | None] = []
        for record in records:
            key = (record.namespace, record.content_hash)
            row = stored.get(key)
            if key in written:  # the batch repeats itself: read the copy it wrote
                conn.executemany(self._insert, rows)
                rows = []
                row = conn.execute(SELECT + _LIVE_HASH, key).fetchone()
            if row is not None:
                out.append(from_row(d, row))
                continue
            rows.append(to_row(d, record, normalize_content(record.content).normalized))
            written.add(key)
            out.append(None)
        conn.executemany(self._insert, rows)
        return out

    def _insert_batch(
        self, conn: Conn, records: Sequence[MemoryRecord]
    ) -> list[MemoryRecord | None]:
        """PostgreSQL: the stored copy of each record (None: inserted now). The batch is
        one pipelined ``executemany`` whose rows skip a content a live memory holds
        (``ON CONFLICT DO NOTHING``, safe against concurrent writers) and return their id
        when inserted; each skipped record then reads the memory that holds its content.

        psycopg's ``executemany(..., returning=True)`` (one result per row) has no DB-API
        form, so this fragment uses the driver connection under the ``?`` wrapper."""
        d = self._d
        rows = [to_row(d, r, normalize_content(r.content).normalized) for r in records]
        raw: Any = conn.raw  # type: ignore[attr-defined]  # PgConn's psycopg connection
        with raw.cursor() as cur:
            cur.executemany(self._insert_returning, rows, returning=True)
            created: list[bool] = []
            while True:
                created.append(cur.fetchone() is not None)
                if not cur.nextset():
                    break
        out: list[MemoryRecord | None] = []
        for record, new in zip(records, created, strict=True):
            if new:
                out.append(None)
                continue
            row = conn.execute(
                SELECT + _LIVE_HASH, (record.namespace, record.content_hash)
            ).fetchone()
            if row is None:  # pragma: no cover - the conflict row must be visible
                raise StoreError(f"insert of memory {record.id} neither stored nor deduped")
            out.append(from_row(d, row))
        return out

    def get(
        self, namespace: str, memory_id: str, *, include_deleted: bool = False
    ) -> MemoryRecord | None:
        sql = SELECT + " WHERE m.namespace = ? AND m.id = ?"
        if not include_deleted:
            sql += " AND m.deleted_at IS NULL"
        row = self._row(sql, (namespace, memory_id), what="read")
        return None if row is None else from_row(self._d, row)

    def get_many(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        ids = list(dict.fromkeys(memory_ids))
        return self.records_where(namespace, _live_by_id(self._d, namespace, ids, "m."))

    def records_where(
        self,
        namespace: str,
        wheres: Iterator[tuple[str, list[Any]]],
        wanted: Mapping[str, object] | None = None,
    ) -> dict[str, MemoryRecord]:
        """The live records of ``namespace`` the ``WHERE`` clauses select (one statement
        each), by id; with ``wanted``, only the ids it holds."""
        d = self._d
        out: dict[str, MemoryRecord] = {}
        with self._sql.read("read") as conn:
            for where, params in wheres:
                for row in conn.execute(SELECT + " WHERE " + where, params).fetchall():
                    record = from_row(d, row)
                    live = record.namespace == namespace and record.deleted_at is None
                    if live and (wanted is None or record.id in wanted):
                        out[record.id] = record
        return out

    def facts(self, namespace: str, memory_ids: Sequence[str]) -> FactColumns:
        return FactColumns.of(self.fact_rows(namespace, memory_ids))

    def fact_rows(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, MemoryFacts]:
        """``facts`` read from the rows, as a dict."""
        d = self._d
        out: dict[str, MemoryFacts] = {}
        with self._sql.read("read") as conn:
            for where, params in _live_by_id(d, namespace, list(dict.fromkeys(memory_ids)), ""):
                for row in conn.execute(
                    f"SELECT id, namespace, deleted_at, {FACT_COLUMNS} FROM memories WHERE "
                    + where,
                    params,
                ):
                    if (facts := live_facts(d, namespace, row[1:])) is not None:
                        out[row[0]] = facts
        return out

    def select(self, namespace: str, query: ListQuery) -> list[MemoryRecord]:
        where, params = _where(self._d, namespace, query)
        order = "DESC" if query.newest_first else "ASC"
        sql = (
            SELECT + f" WHERE {where} ORDER BY m.created_at {order}, m.seq {order} LIMIT ? OFFSET ?"
        )
        params.extend([query.limit, query.offset])
        with self._sql.read("read") as conn:
            return [from_row(self._d, r) for r in conn.execute(sql, params).fetchall()]

    def count(
        self, namespace: str, *, include_deleted: bool = False, query: ListQuery | None = None
    ) -> int:
        query = query or ListQuery(include_deleted=include_deleted)
        where, params = _where(self._d, namespace, query)
        return self._read_count(f"SELECT count(*) FROM memories m WHERE {where}", params)

    def session_members(
        self, namespace: str, session_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        # One indexed read per session (``memories_ns_session``) that stops one past the
        # cap: PostgreSQL's planner keeps it on the index even before statistics exist (a
        # grouped count over ``session_id = ANY(?)`` walked the table then, 27 ms a call
        # at 10k memories), and on SQLite it costs about what one grouped count and one
        # read of the small sessions did (less for sessions of 20, more for pairs).
        out: dict[str, list[str]] = {}
        with self._sql.read("read") as conn:
            for session in sorted(set(session_ids)):
                rows = conn.execute(
                    "SELECT id FROM memories WHERE namespace = ? AND session_id = ? "
                    "AND deleted_at IS NULL ORDER BY created_at, seq LIMIT ?",
                    (namespace, session, max_members + 1),
                ).fetchall()
                if 0 < len(rows) <= max_members:
                    out[session] = [r[0] for r in rows]
        return out

    def update(
        self,
        namespace: str,
        memory_id: str,
        changes: Mapping[str, Any],
        *,
        event: str = "update",
        actor: str | None = None,
        reason: str | None = None,
    ) -> tuple[MemoryRecord, MemoryRecord]:
        schema.check_updatable(changes)
        d = self._d
        with self._sql.tx("update") as conn:
            before = live(conn, d, namespace, memory_id)
            values, after = schema.planned_update(before, changes)
            if after.content_hash != before.content_hash:
                clash = conn.execute(
                    "SELECT id FROM memories WHERE namespace = ? AND content_hash = ? "
                    "AND deleted_at IS NULL AND id != ?",
                    (namespace, after.content_hash, memory_id),
                ).fetchone()
                if clash is not None:
                    raise schema.content_clash(clash[0])
            sets = ", ".join(
                f"{c} = {d.json}" if c in schema.JSON_FIELDS else f"{c} = ?" for c in values
            )
            params = [
                d.text(v, c) if c == "normalized" else encode(d, c, getattr(after, c))
                for c, v in values.items()
            ]
            conn.execute(
                f"UPDATE memories SET {sets} WHERE namespace = ? AND id = ?",
                (*params, namespace, memory_id),
            )
            now = self._sql.clock()
            write_history(
                conn, d, [history_row(d, after, event, before, after, actor, reason, now)]
            )
        return before, after

    def delete(self, namespace: str, memory_id: str, *, actor: str | None = None) -> MemoryRecord:
        d = self._d
        with self._sql.tx("delete") as conn:
            before = live(conn, d, namespace, memory_id)
            now = self._sql.clock()
            after = before.with_changes(deleted_at=now, updated_at=now)
            conn.execute(
                "UPDATE memories SET deleted_at = ?, updated_at = ? WHERE namespace = ? AND id = ?",
                (d.ts(now), d.ts(now), namespace, memory_id),
            )
            write_history(
                conn, d, [history_row(d, after, "delete", before, after, actor, None, now)]
            )
        return after

    def purge(self, namespace: str | None = None) -> int:
        d = self._d
        where = "deleted_at IS NOT NULL" + ("" if namespace is None else " AND namespace = ?")
        params: tuple[Any, ...] = () if namespace is None else (namespace,)
        with self._sql.tx("purge") as conn:
            ids = [r[0] for r in conn.execute(f"SELECT id FROM memories WHERE {where}", params)]
            for chunk in d.chunks(ids):
                for table, column in (
                    ("memory_history", "memory_id"),
                    ("memory_feedback_log", "memory_id"),
                    ("memories", "id"),
                ):
                    clause, values = d.one_of(column, chunk)
                    conn.execute(f"DELETE FROM {table} WHERE {clause}", values)
        return len(ids)

    def history(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        return self._records(
            HistoryEntry,
            f"SELECT {HISTORY_COLUMNS} FROM memory_history "
            "WHERE namespace = ? AND memory_id = ? ORDER BY id",
            (namespace, memory_id),
        )

    def namespaces(self) -> dict[str, int]:
        rows = self._rows(
            "SELECT namespace, count(*) FROM memories WHERE deleted_at IS NULL "
            "GROUP BY namespace ORDER BY namespace",
            what="read",
        )
        return {r[0]: int(r[1]) for r in rows}

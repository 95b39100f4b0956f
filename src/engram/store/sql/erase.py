"""Erase (issue 14), on either engine: hard deletes in one transaction, with an
``erase_audit`` row that no erase removes.

A whole-namespace erase reaches every table with a ``namespace`` column (found in the
schema, so a concern added later is erased too) except ``KEPT_TABLES``: ``memories``
first (on SQLite its triggers queue the keyword-index removals; vectors, chunk vectors,
hints, graph mentions and palace drawers go by ``ON DELETE CASCADE``), then the other
tables newest first, so a table is emptied before the tables it references.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.store.protocols import EraseStore
from engram.store.protocols.erase import KEPT_TABLES, EraseAudit
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.native import KeywordUpkeep
from engram.store.sql.rows import record
from engram.store.sql.session import Sql, SqlPart
from engram.store.sql.tables import quote

_COLUMNS = (
    "id, namespace, actor, filters, whole_namespace, memories_erased, rows_erased, created_at"
)
#: Tables with a ``namespace`` column, oldest first: SQLite's in creation order (its
#: FTS5 virtual tables left out), PostgreSQL's of the current schema by oid (partitions
#: left out).
_NAMESPACED = {
    "sqlite": (
        "SELECT t.name FROM sqlite_master t WHERE t.type = 'table' "
        "AND t.name NOT LIKE 'sqlite_%' AND t.sql NOT LIKE 'CREATE VIRTUAL%' "
        "AND EXISTS (SELECT 1 FROM pragma_table_info(t.name) c WHERE c.name = 'namespace') "
        "ORDER BY t.rowid"
    ),
    "postgres": (
        "SELECT c.relname FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "JOIN pg_attribute a ON a.attrelid = c.oid "
        "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') "
        "AND NOT c.relispartition AND a.attname = 'namespace' AND NOT a.attisdropped "
        "ORDER BY c.oid"
    ),
}
#: SQLite: a unary ``+`` keeps the planner off the namespace index, so the ids are
#: looked up by primary key.
_BY_ID = {"sqlite": "+", "postgres": ""}


def _namespaced_tables(conn: Conn, d: Dialect) -> list[str]:
    """Tables with a ``namespace`` column, oldest first, ``KEPT_TABLES`` left out."""
    rows = conn.execute(_NAMESPACED[d.name]).fetchall()
    return [r[0] for r in rows if r[0] not in KEPT_TABLES]


def _erase_namespace(conn: Conn, d: Dialect, namespace: str) -> tuple[int, int]:
    tables = _namespaced_tables(conn, d)
    memories = conn.execute("DELETE FROM memories WHERE namespace = ?", (namespace,)).rowcount
    rows = memories
    for table in reversed([t for t in tables if t != "memories"]):
        rows += conn.execute(
            f"DELETE FROM {quote(table)} WHERE namespace = ?", (namespace,)
        ).rowcount
    return memories, rows


def _with_derived(conn: Conn, d: Dialect, namespace: str, memory_ids: Sequence[str]) -> list[str]:
    """``memory_ids`` and the memories derived from them, at any depth: the pipeline's
    facts carry the memory they were read from (``source_memory_id``) and repeat its
    words ("User's phone is ..."), so they go with it (round thirty)."""
    picked = dict.fromkeys(memory_ids)
    frontier = list(picked)
    while frontier:
        found: list[str] = []
        for chunk in d.chunks(frontier):
            found.extend(
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM memories WHERE namespace = ? "
                    f"AND source_memory_id IN ({d.marks(len(chunk))})",
                    (namespace, *chunk),
                ).fetchall()
                if r[0] not in picked
            )
        frontier = list(dict.fromkeys(found))
        picked.update(dict.fromkeys(frontier))
    return list(picked)


def _erase_memories(
    conn: Conn, d: Dialect, namespace: str, memory_ids: Sequence[str]
) -> tuple[int, int]:
    memories = rows = 0
    for chunk in d.chunks(_with_derived(conn, d, namespace, memory_ids)):
        marks = d.marks(len(chunk))
        for table in ("memory_history", "memory_feedback_log", "memory_jobs"):
            rows += conn.execute(
                f"DELETE FROM {table} WHERE namespace = ? AND memory_id IN ({marks})",
                (namespace, *chunk),
            ).rowcount
        rows += conn.execute(
            f"DELETE FROM review_queue WHERE namespace = ? AND (memory_id IN ({marks}) "
            f"OR target_id IN ({marks}))",
            (namespace, *chunk, *chunk),
        ).rowcount
        rows += conn.execute(
            f"DELETE FROM document_memories WHERE memory_id IN ({marks}) AND memory_id IN "
            "(SELECT id FROM memories WHERE namespace = ?)",
            (*chunk, namespace),
        ).rowcount
        stated = _stated(conn, namespace, chunk, marks)
        erased = conn.execute(
            f"DELETE FROM memories WHERE {_BY_ID[d.name]}namespace = ? AND id IN ({marks})",
            (namespace, *chunk),
        ).rowcount
        memories += erased
        rows += erased + _unstated(conn, d, namespace, *stated)
    return memories, rows


def _stated(
    conn: Conn, namespace: str, chunk: Sequence[str], marks: str
) -> tuple[list[int], list[int]]:
    """The relations and entities ``chunk``'s memories stated or mentioned (read before
    they go: their mention rows cascade with them)."""
    relations = [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM relations WHERE namespace = ? AND source_memory_id IN ({marks}) "
            f"UNION SELECT relation_id FROM relation_mentions WHERE memory_id IN ({marks})",
            (namespace, *chunk, *chunk),
        ).fetchall()
    ]
    entities = [
        r[0]
        for r in conn.execute(
            f"SELECT entity_id FROM memory_entity_mentions WHERE memory_id IN ({marks})",
            tuple(chunk),
        ).fetchall()
    ]
    return relations, entities


def _unstated(
    conn: Conn, d: Dialect, namespace: str, relations: list[int], entities: list[int]
) -> int:
    """Delete the relations no remaining memory states, then the entities no remaining
    memory or relation names (round thirty: a filtered erase left "uses_phone" and the
    entity "+44 7700 900123" in the graph, their source set to NULL). What another memory
    still states or mentions stays."""
    rows = 0
    ends: list[int] = []
    for chunk in d.chunks(relations):
        marks = d.marks(len(chunk))
        ends.extend(
            v
            for r in conn.execute(
                f"SELECT source_entity_id, target_entity_id FROM relations "
                f"WHERE namespace = ? AND id IN ({marks})",
                (namespace, *chunk),
            ).fetchall()
            for v in r
        )
        rows += conn.execute(
            f"DELETE FROM relations WHERE namespace = ? AND id IN ({marks}) AND NOT EXISTS "
            "(SELECT 1 FROM relation_mentions m WHERE m.relation_id = relations.id)",
            (namespace, *chunk),
        ).rowcount
    for chunk in d.chunks(list(dict.fromkeys([*entities, *ends]))):
        marks = d.marks(len(chunk))
        rows += conn.execute(
            f"DELETE FROM entities WHERE namespace = ? AND id IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM memory_entity_mentions m "
            "WHERE m.entity_id = entities.id) "
            "AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = entities.id "
            "OR r.target_entity_id = entities.id)",
            (namespace, *chunk),
        ).rowcount
    return rows


class SqlErase(SqlPart, EraseStore):
    """``EraseStore`` on either engine."""

    def __init__(self, sql: Sql, keyword: KeywordUpkeep) -> None:
        super().__init__(sql)
        self._keyword = keyword

    def erase(
        self,
        namespace: str,
        memory_ids: Sequence[str] | None,
        *,
        actor: str | None,
        filters: Mapping[str, Any],
        now: datetime,
    ) -> EraseAudit:
        d = self._d
        with self._sql.tx("erase") as conn:
            if memory_ids is None:
                memories, rows = _erase_namespace(conn, d, namespace)
            else:
                memories, rows = _erase_memories(conn, d, namespace, memory_ids)
            # The hint index's copies go now, not at the next write (SQLite).
            self._keyword.flush(conn, namespace)
            row = conn.execute(
                "INSERT INTO erase_audit(namespace, actor, filters, whole_namespace, "
                "memories_erased, rows_erased, created_at) "
                f"VALUES (?, ?, {d.json}, ?, ?, ?, ?) RETURNING {_COLUMNS}",
                (
                    namespace,
                    d.text(actor, "actor"),
                    json.dumps(dict(filters), sort_keys=True),
                    memory_ids is None,
                    memories,
                    rows,
                    d.ts(now),
                ),
            ).fetchone()
        assert row is not None  # INSERT ... RETURNING
        self._after(namespace)
        return record(d, EraseAudit, row)

    def _after(self, namespace: str) -> None:
        """What an engine drops once an erase of ``namespace`` committed, beside its
        rows (SQLite: its in-memory indexes and their files); nothing here."""

    def audit(self, namespace: str | None, *, limit: int, offset: int) -> list[EraseAudit]:
        where, params = _of(namespace)
        return self._records(
            EraseAudit,
            f"SELECT {_COLUMNS} FROM erase_audit {where} ORDER BY id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
            what="reading the erase audit",
        )

    def audit_count(self, namespace: str | None) -> int:
        where, params = _of(namespace)
        return self._read_count(
            f"SELECT count(*) FROM erase_audit {where}", params, "counting the erase audit"
        )

    def namespaces(self) -> list[str]:
        with self._sql.read("listing namespaces") as conn:
            tables = _namespaced_tables(conn, self._d)
            union = " UNION ".join(f"SELECT namespace FROM {quote(t)}" for t in tables)
            rows = conn.execute(f"SELECT namespace FROM ({union}) AS n ORDER BY 1").fetchall()
        return [r[0] for r in rows]


def _of(namespace: str | None) -> tuple[str, tuple[str, ...]]:
    """The erase audit's WHERE clause and parameters for one namespace (None: all)."""
    return ("", ()) if namespace is None else ("WHERE namespace = ?", (namespace,))

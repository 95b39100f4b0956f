"""The lifecycle, on either engine: the archive and its index, retention overrides, and
the retention worker's steps (seed 002, seed 004; FEATURES S8, S9)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.records import MemoryRecord
from engram.store.protocols import LifecycleStore
from engram.store.protocols.lifecycle import (
    COMPACT_EVENT,
    SIZE_TABLES,
    SWEEP_STEPS,
    ArchiveEntry,
    compact_audit,
    record_from_json,
    record_json,
)
from engram.store.sql.dialect import Conn, Dialect, first_int, utc
from engram.store.sql.history import history_row, write_history
from engram.store.sql.memories import id_prefix_clause
from engram.store.sql.native import vector_rows
from engram.store.sql.rows import checked, columns, equal, record, upsert
from engram.store.sql.session import SqlPart

_ENTRY = columns(ArchiveEntry)
#: Who the audit trail names for memories the retention rules expire.
RETENTION_ACTOR = "engram-retention"
#: Who the audit trail names for memories consolidation archives.
ARCHIVE_ACTOR = "engram-lifecycle"
#: The sweeps that delete old rows of one table, oldest first (seed 004's last steps).
_PURGES = {
    "history": (
        "DELETE FROM memory_history WHERE id IN (SELECT id FROM memory_history "
        "WHERE created_at < ? ORDER BY id LIMIT ?)"
    ),
    "completed_jobs": (
        "DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE "
        "status = 'completed' AND completed_at < ? ORDER BY id LIMIT ?)"
    ),
    "dead_jobs": (
        "DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE "
        "status = 'dead' AND failed_at < ? ORDER BY id LIMIT ?)"
    ),
}


def _category_clause(d: Dialect, categories: Sequence[str | None]) -> tuple[str, list[Any]]:
    named = [c for c in categories if c is not None]
    parts = []
    if named:
        parts.append(f"category IN ({d.marks(len(named))})")
    if any(c is None for c in categories):
        parts.append("category IS NULL")
    return "(" + " OR ".join(parts or ["FALSE"]) + ")", named


def unlink_mentions(conn: Conn, d: Dialect, pairs: Sequence[tuple[str, int]]) -> None:
    """Delete (memory id, entity id) mention rows, decrement the entities' mention
    counts, and delete entities left with none (their relations cascade): seed 004's
    graph-link step."""
    if not pairs:
        return
    per_entity: dict[int, int] = {}
    for memory_id, entity_id in pairs:
        conn.execute(
            "DELETE FROM memory_entity_mentions WHERE memory_id = ? AND entity_id = ?",
            (memory_id, entity_id),
        )
        per_entity[entity_id] = per_entity.get(entity_id, 0) + 1
    for entity_id, n in per_entity.items():
        conn.execute(
            f"UPDATE entities SET mentions = {d.greatest}(mentions - ?, 0) WHERE id = ?",
            (n, entity_id),
        )
    for ids in d.chunks(list(per_entity)):
        conn.execute(
            f"DELETE FROM entities WHERE id IN ({d.marks(len(ids))}) AND mentions <= 0 AND "
            "NOT EXISTS (SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = entities.id)",
            ids,
        )


def _mentions_of(conn: Conn, where: str, params: Sequence[Any]) -> list[tuple[str, int]]:
    rows = conn.execute(
        f"SELECT memory_id, entity_id FROM memory_entity_mentions WHERE {where}", params
    ).fetchall()
    return [(r[0], int(r[1])) for r in rows]


class SqlLifecycle(SqlPart, LifecycleStore):
    """``LifecycleStore`` on either engine."""

    def archive(
        self,
        namespace: str,
        originals: Sequence[MemoryRecord],
        *,
        summary_id: str,
        mode: str,
        now: datetime,
    ) -> list[ArchiveEntry]:
        d = self._d
        out: list[ArchiveEntry] = []
        history: list[tuple[Any, ...]] = []
        with self._sql.tx("archive") as conn:
            for record in originals:
                entry = ArchiveEntry(
                    archive_id="arc_" + secrets.token_hex(8),
                    namespace=namespace,
                    original_id=record.id,
                    summary_id=summary_id,
                    mode=mode,
                    category=None if record.category is None else str(record.category),
                    original_created_at=utc(record.created_at),
                    archived_at=utc(now),
                )
                conn.execute(
                    f"INSERT INTO memory_archive({_ENTRY}, record) "
                    f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, {d.json})",
                    (
                        entry.archive_id,
                        namespace,
                        record.id,
                        summary_id,
                        mode,
                        entry.category,
                        d.ts(record.created_at),
                        d.ts(now),
                        record_json(record),
                    ),
                )
                unlink_mentions(conn, d, _mentions_of(conn, "memory_id = ?", (record.id,)))
                reason = "consolidated into " + summary_id
                history.append(
                    history_row(d, record, "archive", None, None, ARCHIVE_ACTOR, reason, now)
                )
                conn.execute(
                    "DELETE FROM memories WHERE namespace = ? AND id = ?", (namespace, record.id)
                )
                out.append(entry)
            write_history(conn, d, history)
        return out

    def take(self, namespace: str, original_id: str) -> MemoryRecord | None:
        with self._sql.tx("restore") as conn:
            row = conn.execute(
                "DELETE FROM memory_archive WHERE namespace = ? AND original_id = ? "
                "RETURNING record",
                (namespace, original_id),
            ).fetchone()
        return None if row is None else record_from_json(row[0])

    def entries(
        self,
        namespace: str,
        *,
        summary_id: str | None = None,
        original_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
        original_prefix: str | None = None,
    ) -> list[ArchiveEntry]:
        where, params = equal(namespace=namespace, summary_id=summary_id, original_id=original_id)
        if original_prefix is not None:  # ``restore`` given a short id
            clause, values = id_prefix_clause(self._d, original_prefix, "original_id")
            where, params = f"{where} AND {clause}", [*params, *values]
        return self._records(
            ArchiveEntry,
            f"SELECT {_ENTRY} FROM memory_archive WHERE {where} "
            "ORDER BY archived_at DESC, original_created_at DESC, original_id "
            "LIMIT ? OFFSET ?",
            (*params, limit, offset),
            what="reading the archive",
        )

    def counts(self, namespace: str | None = None) -> dict[str, int]:
        where, params = equal(namespace=namespace)
        rows = self._rows(
            f"SELECT namespace, count(*) FROM memory_archive WHERE {where} "
            "GROUP BY namespace ORDER BY namespace",
            params,
            "counting the archive",
        )
        return {r[0]: int(r[1]) for r in rows}

    def set_override(self, namespace: str, category: str, days: int | None) -> None:
        d = self._d
        with self._sql.tx("retention override") as conn:
            if days is None:
                conn.execute(
                    "DELETE FROM retention_overrides WHERE namespace = ? AND category = ?",
                    (namespace, category),
                )
            else:
                sql = upsert(
                    d, "retention_overrides", "namespace, category, days", "namespace, category"
                )
                conn.execute(sql, (namespace, category, days))

    def overrides(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        sql = "SELECT namespace, category, days FROM retention_overrides"
        for ns, category, days in self._rows(sql, what="reading retention overrides"):
            out.setdefault(ns, {})[category] = int(days)
        return out

    def expire(
        self,
        namespace: str,
        categories: Sequence[str | None],
        *,
        cutoff: datetime,
        now: datetime,
        limit: int,
        archived: bool = False,
    ) -> list[str]:
        d = self._d
        clause, named = _category_clause(d, categories)
        with self._sql.tx("expire") as conn:
            if archived:
                # One statement, so two sweeps at once never both claim a row; the ids
                # come back oldest first, as the inner SELECT picked them.
                rows = conn.execute(
                    "DELETE FROM memory_archive WHERE archive_id IN (SELECT archive_id FROM "
                    f"memory_archive WHERE namespace = ? AND {clause} AND "
                    "original_created_at < ? ORDER BY original_created_at LIMIT ?) "
                    "RETURNING original_id, original_created_at",
                    (namespace, *named, d.ts(cutoff), limit),
                ).fetchall()
                return [r[0] for r in sorted(rows, key=lambda r: d.time(r[1]))]
            ids = [
                r[0]
                for r in conn.execute(
                    "SELECT id FROM memories WHERE namespace = ? AND deleted_at IS NULL AND "
                    f"{clause} AND created_at < ? ORDER BY created_at LIMIT ?",
                    (namespace, *named, d.ts(cutoff), limit),
                ).fetchall()
            ]
            at = d.ts(now)
            for chunk in d.chunks(ids):
                marks = d.marks(len(chunk))
                conn.execute(
                    f"UPDATE memories SET deleted_at = ?, updated_at = ? WHERE id IN ({marks})",
                    (at, at, *chunk),
                )
                conn.execute(
                    "INSERT INTO memory_history(memory_id, namespace, event, before, after, "
                    "actor, reason, created_at) SELECT id, namespace, 'expire', NULL, NULL, "
                    f"?, 'retention', ? FROM memories WHERE id IN ({marks})",
                    (RETENTION_ACTOR, at, *chunk),
                )
        return ids

    def compact(
        self, namespace: str, *, keep: int, now: datetime, limit: int
    ) -> list[ArchiveEntry]:
        d = self._d
        with self._sql.tx("archive compaction") as conn:
            sql = "SELECT count(*) FROM memory_archive WHERE namespace = ?"
            held = first_int(conn, sql, (namespace,))
            if held <= keep:
                return []
            rows = conn.execute(
                f"SELECT {_ENTRY} FROM memory_archive WHERE namespace = ? "
                f"ORDER BY original_created_at, original_id LIMIT ?{d.for_update}",
                (namespace, min(held - keep, limit)),
            ).fetchall()
            out = [record(d, ArchiveEntry, r) for r in rows]
            history = []
            for entry in out:
                reason, payload = compact_audit(entry, now)
                conn.execute("DELETE FROM memory_archive WHERE archive_id = ?", (entry.archive_id,))
                history.append(
                    (
                        entry.original_id,
                        namespace,
                        COMPACT_EVENT,
                        None,
                        d.dumps(payload),
                        ARCHIVE_ACTOR,
                        reason,
                        d.ts(now),
                    )
                )
            write_history(conn, d, history)
        return out

    def sweep(self, step: str, *, cutoff: datetime, limit: int) -> int:
        checked(step, SWEEP_STEPS, "step")
        d = self._d
        at = d.ts(cutoff)
        with self._sql.tx("retention") as conn:
            if step == "graph_links":
                expired = "SELECT id FROM memories WHERE deleted_at IS NOT NULL AND deleted_at < ?"
                pairs = _mentions_of(conn, f"memory_id IN ({expired}) LIMIT ?", (at, limit))
                unlink_mentions(conn, d, pairs)
                return len(pairs)
            if step == "embeddings":
                return self._sweep_vectors(conn, at, limit)
            if step == "tombstones":
                return self._sweep_tombstones(conn, at, limit)
            return int(conn.execute(_PURGES[step], (at, limit)).rowcount)

    def _sweep_vectors(self, conn: Conn, at: Any, limit: int) -> int:
        """Vector rows, then chunk vector rows, of memories tombstoned before ``at``."""
        v = vector_rows(self._d)
        expired = (
            f"SELECT {v.memory_key} FROM memories WHERE deleted_at IS NOT NULL AND deleted_at < ?"
        )
        done = int(
            conn.execute(
                f"DELETE FROM memory_vectors WHERE {v.key} IN (SELECT {v.key} FROM "
                f"memory_vectors WHERE {v.key} IN ({expired}) LIMIT ?)",
                (at, limit),
            ).rowcount
        )
        if done < limit:
            chunk = f"{v.key}, model, ordinal"  # memory_chunks' primary key
            done += int(
                conn.execute(
                    f"DELETE FROM memory_chunks WHERE ({chunk}) IN (SELECT {chunk} FROM "
                    f"memory_chunks WHERE {v.key} IN ({expired}) LIMIT ?)",
                    (at, limit - done),
                ).rowcount
            )
        return done

    def _sweep_tombstones(self, conn: Conn, at: Any, limit: int) -> int:
        """Tombstoned memories (and their feedback rows) whose links and vectors the
        earlier steps already removed: the strict order is what keeps entity counts
        right."""
        d = self._d
        v = vector_rows(d)
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT m.id FROM memories m WHERE m.deleted_at IS NOT NULL AND "
                "m.deleted_at < ? AND NOT EXISTS (SELECT 1 FROM memory_entity_mentions e "
                "WHERE e.memory_id = m.id) AND NOT EXISTS (SELECT 1 FROM memory_vectors v "
                f"WHERE v.{v.key} = m.{v.memory_key}) AND NOT EXISTS (SELECT 1 FROM "
                f"memory_chunks c WHERE c.{v.key} = m.{v.memory_key}) LIMIT ?",
                (at, limit),
            ).fetchall()
        ]
        for chunk in d.chunks(ids):
            marks = d.marks(len(chunk))
            conn.execute(f"DELETE FROM memory_feedback_log WHERE memory_id IN ({marks})", chunk)
            conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", chunk)
        return len(ids)

    def sizes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        with self._sql.read("counting rows") as conn:
            for table in SIZE_TABLES:
                out[table] = first_int(conn, f"SELECT count(*) FROM {table}")
            out["live"] = first_int(conn, "SELECT count(*) FROM memories WHERE deleted_at IS NULL")
        out["tombstoned"] = out["memories"] - out["live"]
        return out

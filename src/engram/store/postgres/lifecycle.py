"""The lifecycle in the PostgreSQL store: the archive and its index, retention
overrides, and the retention worker's steps (seed 002, seed 004; FEATURES S8, S9)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from engram.errors import InvalidInputError
from engram.records import MemoryRecord
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.lifecycle import (
    COMPACT_EVENT,
    SIZE_TABLES,
    SWEEP_STEPS,
    ArchiveEntry,
    compact_audit,
    record_from_json,
    record_json,
)

_ENTRY = (
    "archive_id, namespace, original_id, summary_id, mode, category, "
    "original_created_at, archived_at"
)
#: Who the audit trail names for memories the retention rules expire.
RETENTION_ACTOR = "engram-retention"
#: Who the audit trail names for memories consolidation archives.
ARCHIVE_ACTOR = "engram-lifecycle"


def _entry(row: Sequence[Any]) -> ArchiveEntry:
    return ArchiveEntry(
        archive_id=row[0],
        namespace=row[1],
        original_id=row[2],
        summary_id=row[3],
        mode=row[4],
        category=row[5],
        original_created_at=codec.utc(row[6]),
        archived_at=codec.utc(row[7]),
    )


def _category_clause(categories: Sequence[str | None]) -> tuple[str, list[Any]]:
    named = [c for c in categories if c is not None]
    parts = []
    if named:
        parts.append("category = ANY(%s)")
    if any(c is None for c in categories):
        parts.append("category IS NULL")
    return "(" + " OR ".join(parts or ["false"]) + ")", [named] if named else []


def unlink_mentions(conn: psycopg.Connection[Any], pairs: Sequence[tuple[str, int]]) -> None:
    """Delete mention rows, decrement the entities' counts, delete entities left with
    none (their relations cascade): seed 004's graph-link step."""
    if not pairs:
        return
    per_entity: dict[int, int] = {}
    for memory_id, entity_id in pairs:
        conn.execute(
            "DELETE FROM memory_entity_mentions WHERE memory_id = %s AND entity_id = %s",
            (memory_id, entity_id),
        )
        per_entity[entity_id] = per_entity.get(entity_id, 0) + 1
    for entity_id, n in per_entity.items():
        conn.execute(
            "UPDATE entities SET mentions = greatest(mentions - %s, 0) WHERE id = %s",
            (n, entity_id),
        )
    conn.execute(
        "DELETE FROM entities WHERE id = ANY(%s) AND mentions <= 0 AND NOT EXISTS "
        "(SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = entities.id)",
        (list(per_entity),),
    )


class PgLifecycle:
    """The PostgreSQL implementation of ``LifecycleStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def archive(
        self,
        namespace: str,
        originals: Sequence[MemoryRecord],
        *,
        summary_id: str,
        mode: str,
        now: datetime,
    ) -> list[ArchiveEntry]:
        """Move ``originals`` into the archive in one transaction."""
        out: list[ArchiveEntry] = []
        try:
            with self._db.tx("archive") as conn:
                for record in originals:
                    entry = ArchiveEntry(
                        archive_id="arc_" + secrets.token_hex(8),
                        namespace=namespace,
                        original_id=record.id,
                        summary_id=summary_id,
                        mode=mode,
                        category=None if record.category is None else str(record.category),
                        original_created_at=codec.utc(record.created_at),
                        archived_at=codec.utc(now),
                    )
                    conn.execute(
                        f"INSERT INTO memory_archive({_ENTRY}, record) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb)",
                        (
                            entry.archive_id,
                            namespace,
                            record.id,
                            summary_id,
                            mode,
                            entry.category,
                            entry.original_created_at,
                            entry.archived_at,
                            record_json(record),
                        ),
                    )
                    pairs = conn.execute(
                        "SELECT memory_id, entity_id FROM memory_entity_mentions "
                        "WHERE memory_id = %s",
                        (record.id,),
                    ).fetchall()
                    unlink_mentions(conn, [(r[0], int(r[1])) for r in pairs])
                    conn.execute(
                        "INSERT INTO memory_history(memory_id, namespace, event, before, "
                        "after, actor, reason, created_at) VALUES (%s, %s, 'archive', NULL, "
                        "NULL, %s, %s, %s)",
                        (
                            record.id,
                            namespace,
                            ARCHIVE_ACTOR,
                            "consolidated into " + summary_id,
                            now,
                        ),
                    )
                    conn.execute(
                        "DELETE FROM memories WHERE namespace = %s AND id = %s",
                        (namespace, record.id),
                    )
                    out.append(entry)
        except psycopg.errors.IntegrityError as exc:
            raise InvalidInputError(f"cannot archive: {exc}") from exc
        return out

    def take(self, namespace: str, original_id: str) -> MemoryRecord | None:
        """Remove one original from the archive and return it."""
        with self._db.tx("restore") as conn:
            row = conn.execute(
                "DELETE FROM memory_archive WHERE namespace = %s AND original_id = %s "
                "RETURNING record",
                (namespace, original_id),
            ).fetchone()
        if row is None:
            return None
        value = row[0]
        return record_from_json(value if isinstance(value, str) else json.dumps(value))

    def entries(
        self,
        namespace: str,
        *,
        summary_id: str | None = None,
        original_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[ArchiveEntry]:
        """The archival index, newest first."""
        where, params = ["namespace = %s"], [namespace]
        if summary_id is not None:
            where.append("summary_id = %s")
            params.append(summary_id)
        if original_id is not None:
            where.append("original_id = %s")
            params.append(original_id)
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_ENTRY} FROM memory_archive WHERE {' AND '.join(where)} "
                "ORDER BY archived_at DESC, original_created_at DESC, original_id "
                "LIMIT %s OFFSET %s",
                (*params, limit, offset),
            ).fetchall()
        return [_entry(r) for r in rows]

    def counts(self, namespace: str | None = None) -> dict[str, int]:
        """Archived originals per namespace."""
        sql = "SELECT namespace, count(*) FROM memory_archive"
        params: tuple[Any, ...] = ()
        if namespace is not None:
            sql += " WHERE namespace = %s"
            params = (namespace,)
        with self._db.read() as conn:
            rows = conn.execute(sql + " GROUP BY namespace ORDER BY namespace", params)
            return {r[0]: int(r[1]) for r in rows.fetchall()}

    def set_override(self, namespace: str, category: str, days: int | None) -> None:
        """Set or clear one agent retention override."""
        with self._db.tx() as conn:
            if days is None:
                conn.execute(
                    "DELETE FROM retention_overrides WHERE namespace = %s AND category = %s",
                    (namespace, category),
                )
            else:
                conn.execute(
                    "INSERT INTO retention_overrides(namespace, category, days) "
                    "VALUES (%s, %s, %s) ON CONFLICT (namespace, category) "
                    "DO UPDATE SET days = excluded.days",
                    (namespace, category, days),
                )

    def overrides(self) -> dict[str, dict[str, int]]:
        """namespace -> category -> days."""
        out: dict[str, dict[str, int]] = {}
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT namespace, category, days FROM retention_overrides"
            ).fetchall()
        for ns, category, days in rows:
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
        """Tombstone (or, archived, hard-delete) expired memories; one transaction."""
        clause, named = _category_clause(categories)
        with self._db.tx("expire") as conn:
            if archived:
                rows = conn.execute(
                    "DELETE FROM memory_archive WHERE archive_id IN (SELECT archive_id FROM "
                    f"memory_archive WHERE namespace = %s AND {clause} AND "
                    "original_created_at < %s ORDER BY original_created_at LIMIT %s) "
                    "RETURNING original_id",
                    (namespace, *named, cutoff, limit),
                ).fetchall()
                return [r[0] for r in rows]
            rows = conn.execute(
                "SELECT id FROM memories WHERE namespace = %s AND deleted_at IS NULL AND "
                f"{clause} AND created_at < %s ORDER BY created_at LIMIT %s",
                (namespace, *named, cutoff, limit),
            ).fetchall()
            ids = [r[0] for r in rows]
            if ids:
                conn.execute(
                    "UPDATE memories SET deleted_at = %s, updated_at = %s WHERE id = ANY(%s)",
                    (now, now, ids),
                )
                conn.execute(
                    "INSERT INTO memory_history(memory_id, namespace, event, before, after, "
                    "actor, reason, created_at) SELECT id, namespace, 'expire', NULL, NULL, "
                    "%s, 'retention', %s FROM memories WHERE id = ANY(%s)",
                    (RETENTION_ACTOR, now, ids),
                )
        return ids

    def compact(
        self, namespace: str, *, keep: int, now: datetime, limit: int
    ) -> list[ArchiveEntry]:
        """Drop the oldest archived originals beyond the newest ``keep``, audited."""
        with self._db.tx("archive compaction") as conn:
            row = conn.execute(
                "SELECT count(*) FROM memory_archive WHERE namespace = %s", (namespace,)
            ).fetchone()
            held = 0 if row is None else int(row[0])
            if held <= keep:
                return []
            rows = conn.execute(
                f"SELECT {_ENTRY} FROM memory_archive WHERE namespace = %s "
                "ORDER BY original_created_at, original_id LIMIT %s FOR UPDATE",
                (namespace, min(held - keep, limit)),
            ).fetchall()
            out = [_entry(r) for r in rows]
            for entry in out:
                reason, payload = compact_audit(entry, now)
                conn.execute(
                    "DELETE FROM memory_archive WHERE archive_id = %s", (entry.archive_id,)
                )
                conn.execute(
                    "INSERT INTO memory_history(memory_id, namespace, event, before, after, "
                    "actor, reason, created_at) VALUES (%s, %s, %s, NULL, %s::json, %s, %s, %s)",
                    (
                        entry.original_id,
                        namespace,
                        COMPACT_EVENT,
                        codec.dumps(payload),
                        ARCHIVE_ACTOR,
                        reason,
                        now,
                    ),
                )
        return out

    def sweep(self, step: str, *, cutoff: datetime, limit: int) -> int:
        """One retention step in one short transaction."""
        if step not in SWEEP_STEPS:
            raise InvalidInputError(f"step must be one of {', '.join(SWEEP_STEPS)}, got {step!r}")
        expired = "SELECT id FROM memories WHERE deleted_at IS NOT NULL AND deleted_at < %s"
        with self._db.tx("retention") as conn:
            if step == "graph_links":
                pairs = conn.execute(
                    "SELECT memory_id, entity_id FROM memory_entity_mentions "
                    f"WHERE memory_id IN ({expired}) LIMIT %s",
                    (cutoff, limit),
                ).fetchall()
                unlink_mentions(conn, [(r[0], int(r[1])) for r in pairs])
                return len(pairs)
            if step == "embeddings":
                done = conn.execute(
                    "DELETE FROM memory_vectors WHERE memory_id IN (SELECT memory_id FROM "
                    f"memory_vectors WHERE memory_id IN ({expired}) LIMIT %s)",
                    (cutoff, limit),
                ).rowcount
                if done < limit:
                    done += conn.execute(
                        "DELETE FROM memory_chunks WHERE (memory_id, model, ordinal) IN "
                        "(SELECT memory_id, model, ordinal FROM memory_chunks WHERE "
                        f"memory_id IN ({expired}) LIMIT %s)",
                        (cutoff, limit - done),
                    ).rowcount
                return int(done)
            if step == "tombstones":
                # Only rows whose links and vectors the earlier steps already removed.
                rows = conn.execute(
                    "SELECT m.id FROM memories m WHERE m.deleted_at IS NOT NULL AND "
                    "m.deleted_at < %s AND NOT EXISTS (SELECT 1 FROM memory_entity_mentions "
                    "e WHERE e.memory_id = m.id) AND NOT EXISTS (SELECT 1 FROM "
                    "memory_vectors v WHERE v.memory_id = m.id) AND NOT EXISTS (SELECT 1 "
                    "FROM memory_chunks c WHERE c.memory_id = m.id) LIMIT %s",
                    (cutoff, limit),
                ).fetchall()
                ids = [r[0] for r in rows]
                if ids:
                    conn.execute(
                        "DELETE FROM memory_feedback_log WHERE memory_id = ANY(%s)", (ids,)
                    )
                    conn.execute("DELETE FROM memories WHERE id = ANY(%s)", (ids,))
                return len(ids)
            if step == "history":
                sql = (
                    "DELETE FROM memory_history WHERE id IN (SELECT id FROM memory_history "
                    "WHERE created_at < %s ORDER BY id LIMIT %s)"
                )
            elif step == "completed_jobs":
                sql = (
                    "DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE "
                    "status = 'completed' AND completed_at < %s ORDER BY id LIMIT %s)"
                )
            else:
                sql = (
                    "DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE "
                    "status = 'dead' AND failed_at < %s ORDER BY id LIMIT %s)"
                )
            return int(conn.execute(sql, (cutoff, limit)).rowcount)

    def sizes(self) -> dict[str, int]:
        """Row counts per table, and live / tombstoned memories."""
        out: dict[str, int] = {}
        with self._db.read() as conn:
            for table in SIZE_TABLES:
                out[table] = int(conn.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
            live = conn.execute("SELECT count(*) FROM memories WHERE deleted_at IS NULL")
            out["live"] = int(live.fetchall()[0][0])
        out["tombstoned"] = out["memories"] - out["live"]
        return out

"""The lifecycle in the SQLite store: the archive and its index, retention overrides,
and the retention worker's steps (seed 002, seed 004; FEATURES S8, S9)."""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, StoreError
from engram.records import MemoryRecord
from engram.store.protocols.lifecycle import (
    COMPACT_EVENT,
    SIZE_TABLES,
    SWEEP_STEPS,
    ArchiveEntry,
    compact_audit,
    record_from_json,
    record_json,
)
from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database

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
        original_created_at=datetime.fromisoformat(row[6]),
        archived_at=datetime.fromisoformat(row[7]),
    )


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def _category_clause(categories: Sequence[str | None]) -> tuple[str, list[Any]]:
    named = [c for c in categories if c is not None]
    parts = []
    if named:
        parts.append(f"category IN ({_marks(named)})")
    if any(c is None for c in categories):
        parts.append("category IS NULL")
    return "(" + " OR ".join(parts or ["0"]) + ")", list(named)


def unlink_mentions(conn: sqlite3.Connection, pairs: Sequence[tuple[str, int]]) -> None:
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
            "UPDATE entities SET mentions = max(mentions - ?, 0) WHERE id = ?", (n, entity_id)
        )
    ids = list(per_entity)
    conn.execute(
        f"DELETE FROM entities WHERE id IN ({_marks(ids)}) AND mentions <= 0 AND NOT EXISTS "
        "(SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = entities.id)",
        ids,
    )


class SQLiteLifecycle:
    """The SQLite implementation of ``LifecycleStore``."""

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
            with self._db.tx() as conn:
                for record in originals:
                    entry = ArchiveEntry(
                        archive_id="arc_" + secrets.token_hex(8),
                        namespace=namespace,
                        original_id=record.id,
                        summary_id=summary_id,
                        mode=mode,
                        category=None if record.category is None else str(record.category),
                        original_created_at=record.created_at,
                        archived_at=now,
                    )
                    conn.execute(
                        f"INSERT INTO memory_archive({_ENTRY}, record) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            entry.archive_id,
                            namespace,
                            record.id,
                            summary_id,
                            mode,
                            entry.category,
                            ts(record.created_at),
                            ts(now),
                            record_json(record),
                        ),
                    )
                    pairs = conn.execute(
                        "SELECT memory_id, entity_id FROM memory_entity_mentions "
                        "WHERE memory_id = ?",
                        (record.id,),
                    ).fetchall()
                    unlink_mentions(conn, [(r[0], int(r[1])) for r in pairs])
                    conn.execute(
                        "INSERT INTO memory_history(memory_id, namespace, event, before, "
                        "after, actor, reason, created_at) VALUES (?, ?, 'archive', NULL, "
                        "NULL, ?, ?, ?)",
                        (
                            record.id,
                            namespace,
                            ARCHIVE_ACTOR,
                            "consolidated into " + summary_id,
                            ts(now),
                        ),
                    )
                    conn.execute(
                        "DELETE FROM memories WHERE namespace = ? AND id = ?",
                        (namespace, record.id),
                    )
                    out.append(entry)
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"cannot archive: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"archive failed: {exc}") from exc
        return out

    def take(self, namespace: str, original_id: str) -> MemoryRecord | None:
        """Remove one original from the archive and return it."""
        with self._db.tx() as conn:
            row = conn.execute(
                "SELECT record FROM memory_archive WHERE namespace = ? AND original_id = ?",
                (namespace, original_id),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "DELETE FROM memory_archive WHERE namespace = ? AND original_id = ?",
                (namespace, original_id),
            )
        return record_from_json(row[0])

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
        where, params = ["namespace = ?"], [namespace]
        if summary_id is not None:
            where.append("summary_id = ?")
            params.append(summary_id)
        if original_id is not None:
            where.append("original_id = ?")
            params.append(original_id)
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_ENTRY} FROM memory_archive WHERE {' AND '.join(where)} "
                "ORDER BY archived_at DESC, original_created_at DESC, original_id "
                "LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
        return [_entry(r) for r in rows]

    def counts(self, namespace: str | None = None) -> dict[str, int]:
        """Archived originals per namespace."""
        sql = "SELECT namespace, count(*) FROM memory_archive"
        params: tuple[Any, ...] = ()
        if namespace is not None:
            sql += " WHERE namespace = ?"
            params = (namespace,)
        with self._db.read() as conn:
            rows = conn.execute(sql + " GROUP BY namespace ORDER BY namespace", params)
            return {r[0]: int(r[1]) for r in rows}

    def set_override(self, namespace: str, category: str, days: int | None) -> None:
        """Set or clear one agent retention override."""
        with self._db.tx() as conn:
            if days is None:
                conn.execute(
                    "DELETE FROM retention_overrides WHERE namespace = ? AND category = ?",
                    (namespace, category),
                )
            else:
                conn.execute(
                    "INSERT INTO retention_overrides(namespace, category, days) "
                    "VALUES (?, ?, ?) ON CONFLICT(namespace, category) "
                    "DO UPDATE SET days = excluded.days",
                    (namespace, category, days),
                )

    def overrides(self) -> dict[str, dict[str, int]]:
        """namespace -> category -> days."""
        out: dict[str, dict[str, int]] = {}
        with self._db.read() as conn:
            for ns, category, days in conn.execute(
                "SELECT namespace, category, days FROM retention_overrides"
            ):
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
        with self._db.tx() as conn:
            if archived:
                ids = [
                    r[0]
                    for r in conn.execute(
                        "SELECT original_id FROM memory_archive WHERE namespace = ? AND "
                        f"{clause} AND original_created_at < ? ORDER BY original_created_at "
                        "LIMIT ?",
                        (namespace, *named, ts(cutoff), limit),
                    )
                ]
                if ids:
                    conn.execute(
                        f"DELETE FROM memory_archive WHERE namespace = ? AND original_id IN "
                        f"({_marks(ids)})",
                        (namespace, *ids),
                    )
                return ids
            ids = [
                r[0]
                for r in conn.execute(
                    "SELECT id FROM memories WHERE namespace = ? AND deleted_at IS NULL AND "
                    f"{clause} AND created_at < ? ORDER BY created_at LIMIT ?",
                    (namespace, *named, ts(cutoff), limit),
                )
            ]
            if ids:
                marks = _marks(ids)
                conn.execute(
                    f"UPDATE memories SET deleted_at = ?, updated_at = ? WHERE id IN ({marks})",
                    (ts(now), ts(now), *ids),
                )
                conn.execute(
                    "INSERT INTO memory_history(memory_id, namespace, event, before, after, "
                    "actor, reason, created_at) SELECT id, namespace, 'expire', NULL, NULL, "
                    f"?, 'retention', ? FROM memories WHERE id IN ({marks})",
                    (RETENTION_ACTOR, ts(now), *ids),
                )
        return ids

    def compact(
        self, namespace: str, *, keep: int, now: datetime, limit: int
    ) -> list[ArchiveEntry]:
        """Drop the oldest archived originals beyond the newest ``keep``, audited."""
        try:
            with self._db.tx() as conn:
                held = int(
                    conn.execute(
                        "SELECT count(*) FROM memory_archive WHERE namespace = ?", (namespace,)
                    ).fetchone()[0]
                )
                if held <= keep:
                    return []
                rows = conn.execute(
                    f"SELECT {_ENTRY} FROM memory_archive WHERE namespace = ? "
                    "ORDER BY original_created_at, original_id LIMIT ?",
                    (namespace, min(held - keep, limit)),
                ).fetchall()
                out = [_entry(r) for r in rows]
                for entry in out:
                    reason, payload = compact_audit(entry, now)
                    conn.execute(
                        "DELETE FROM memory_archive WHERE archive_id = ?", (entry.archive_id,)
                    )
                    conn.execute(
                        "INSERT INTO memory_history(memory_id, namespace, event, before, "
                        "after, actor, reason, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)",
                        (
                            entry.original_id,
                            namespace,
                            COMPACT_EVENT,
                            json.dumps(payload, ensure_ascii=False),
                            ARCHIVE_ACTOR,
                            reason,
                            ts(now),
                        ),
                    )
        except sqlite3.Error as exc:
            raise StoreError(f"archive compaction failed: {exc}") from exc
        return out

    def sweep(self, step: str, *, cutoff: datetime, limit: int) -> int:
        """One retention step in one short transaction."""
        if step not in SWEEP_STEPS:
            raise InvalidInputError(f"step must be one of {', '.join(SWEEP_STEPS)}, got {step!r}")
        at = ts(cutoff)
        expired = "SELECT id FROM memories WHERE deleted_at IS NOT NULL AND deleted_at < ?"
        with self._db.tx() as conn:
            if step == "graph_links":
                pairs = conn.execute(
                    "SELECT memory_id, entity_id FROM memory_entity_mentions "
                    f"WHERE memory_id IN ({expired}) LIMIT ?",
                    (at, limit),
                ).fetchall()
                unlink_mentions(conn, [(r[0], int(r[1])) for r in pairs])
                return len(pairs)
            if step == "embeddings":
                seqs = "SELECT seq FROM memories WHERE deleted_at IS NOT NULL AND deleted_at < ?"
                done = conn.execute(
                    "DELETE FROM memory_vectors WHERE memory_seq IN (SELECT memory_seq FROM "
                    f"memory_vectors WHERE memory_seq IN ({seqs}) LIMIT ?)",
                    (at, limit),
                ).rowcount
                if done < limit:
                    done += conn.execute(
                        "DELETE FROM memory_chunks WHERE rowid IN (SELECT rowid FROM "
                        f"memory_chunks WHERE memory_seq IN ({seqs}) LIMIT ?)",
                        (at, limit - done),
                    ).rowcount
                return done
            if step == "tombstones":
                # Only rows whose links and vectors the earlier steps already removed:
                # the strict order is what keeps entity counts right.
                ids = [
                    r[0]
                    for r in conn.execute(
                        "SELECT m.id FROM memories m WHERE m.deleted_at IS NOT NULL AND "
                        "m.deleted_at < ? AND NOT EXISTS (SELECT 1 FROM "
                        "memory_entity_mentions e WHERE e.memory_id = m.id) AND NOT EXISTS "
                        "(SELECT 1 FROM memory_vectors v WHERE v.memory_seq = m.seq) AND "
                        "NOT EXISTS (SELECT 1 FROM memory_chunks c WHERE c.memory_seq = m.seq) "
                        "LIMIT ?",
                        (at, limit),
                    )
                ]
                if ids:
                    marks = _marks(ids)
                    conn.execute(
                        f"DELETE FROM memory_feedback_log WHERE memory_id IN ({marks})", ids
                    )
                    conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", ids)
                return len(ids)
            if step == "history":
                sql = (
                    "DELETE FROM memory_history WHERE id IN (SELECT id FROM memory_history "
                    "WHERE created_at < ? ORDER BY id LIMIT ?)"
                )
            elif step == "completed_jobs":
                sql = (
                    "DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE "
                    "status = 'completed' AND completed_at < ? ORDER BY id LIMIT ?)"
                )
            else:
                sql = (
                    "DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE "
                    "status = 'dead' AND failed_at < ? ORDER BY id LIMIT ?)"
                )
            return int(conn.execute(sql, (at, limit)).rowcount)

    def sizes(self) -> dict[str, int]:
        """Row counts per table, and live / tombstoned memories."""
        out: dict[str, int] = {}
        with self._db.read() as conn:
            for table in SIZE_TABLES:
                out[table] = int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            out["live"] = int(
                conn.execute("SELECT count(*) FROM memories WHERE deleted_at IS NULL").fetchone()[0]
            )
        out["tombstoned"] = out["memories"] - out["live"]
        return out

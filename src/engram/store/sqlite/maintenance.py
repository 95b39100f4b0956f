"""Maintenance in the SQLite store: health counts, keyword-index repair, the embedding
backlog, vector pages for dedup, and the maintenance worker's records (FEATURES S10)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.errors import StoreError
from engram.records import MemoryRecord
from engram.store.protocols.maintenance import HaltState, HealthCounts, MaintenanceRun, NewRun
from engram.store.sqlite import fts
from engram.store.sqlite.codec import SELECT, from_row, parse_ts, ts
from engram.store.sqlite.db import Database

#: seed 004: missing, stale (content hash changed) or a model switch; a row of another
#: model is a model switch whatever its hash.
_REASON = (
    "CASE WHEN v.memory_seq IS NULL THEN 'missing' WHEN v.model != ? THEN 'model' ELSE 'stale' END"
)
_BACKLOG = (
    " LEFT JOIN memory_vectors v ON v.memory_seq = m.seq WHERE m.deleted_at IS NULL AND "
    "(v.memory_seq IS NULL OR v.model != ? OR v.content_hash != m.content_hash)"
)
_RUN = (
    "id, kind, mode, namespace, started_at, finished_at, score_before, score_after, "
    "recommendations, actions, report"
)


def _run(row: Sequence[Any]) -> MaintenanceRun:
    return MaintenanceRun(
        id=int(row[0]),
        kind=row[1],
        mode=row[2],
        namespace=row[3],
        started_at=datetime.fromisoformat(row[4]),
        finished_at=datetime.fromisoformat(row[5]),
        score_before=float(row[6]),
        score_after=float(row[7]),
        recommendations=tuple(json.loads(row[8])),
        actions=tuple(json.loads(row[9])),
        report=json.loads(row[10]),
    )


def _index_counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """(rows the keyword indexes hold, sum of |indexed - live| per namespace)."""
    per_ns = dict(
        conn.execute(
            "SELECT namespace, count(*) FROM memories WHERE deleted_at IS NULL GROUP BY namespace"
        ).fetchall()
    )
    indexed = 0
    mismatch = 0
    for ident, namespace in conn.execute("SELECT id, namespace FROM fts_namespaces").fetchall():
        # The docsize shadow table has one row per indexed document.
        (rows,) = conn.execute(f"SELECT count(*) FROM fts_{int(ident)}_docsize").fetchone()
        indexed += int(rows)
        mismatch += abs(int(rows) - int(per_ns.pop(namespace, 0)))
    return indexed, mismatch + sum(int(n) for n in per_ns.values())  # + unindexed namespaces


class SQLiteMaintenance:
    """The SQLite implementation of ``MaintenanceStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._db.tx() as conn:
                yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc

    def health_counts(self, *, lease_cutoff: datetime, model: str | None) -> HealthCounts:
        with self._db.snapshot() as conn:
            live, dead_rows = conn.execute(
                "SELECT coalesce(sum(deleted_at IS NULL), 0), "
                "coalesce(sum(deleted_at IS NOT NULL), 0) FROM memories"
            ).fetchone()
            indexed, mismatch = _index_counts(conn)
            jobs, jobs_dead, stale = conn.execute(
                "SELECT count(*), coalesce(sum(status = 'dead'), 0), "
                "coalesce(sum(status = 'leased' AND leased_at < ?), 0) FROM memory_jobs",
                (ts(lease_cutoff),),
            ).fetchone()
            vectors = (0, 0, 0)
            if model is not None:
                vectors = conn.execute(
                    f"SELECT coalesce(sum(r = 'missing'), 0), coalesce(sum(r = 'stale'), 0), "
                    f"coalesce(sum(r = 'model'), 0) FROM (SELECT {_REASON} AS r "
                    f"FROM memories m{_BACKLOG})",
                    (model, model),
                ).fetchone()
        return HealthCounts(
            live=int(live),
            tombstoned=int(dead_rows),
            indexed=indexed,
            index_mismatch=mismatch,
            jobs_total=int(jobs),
            jobs_dead=int(jobs_dead),
            stale_leases=int(stale),
            vectors_missing=int(vectors[0]),
            vectors_stale=int(vectors[1]),
            vectors_other_model=int(vectors[2]),
        )

    def repair_keyword_index(self) -> int:
        with self._write("rebuilding the keyword index") as conn:
            _, before = _index_counts(conn)
            if before:
                fts.rebuild(conn)
        return before

    def embedding_backlog(self, model: str, *, limit: int) -> list[tuple[MemoryRecord, str]]:
        sql = SELECT.replace(" FROM memories m", f", {_REASON} FROM memories m", 1)
        sql += _BACKLOG + " ORDER BY m.updated_at DESC, m.seq DESC LIMIT ?"
        with self._db.read() as conn:
            rows = conn.execute(sql, (model, model, limit)).fetchall()
        return [(from_row(r[:-1]), str(r[-1])) for r in rows]

    def vector_page(
        self, namespace: str, model: str, *, before_seq: int | None, limit: int
    ) -> list[tuple[int, str, npt.NDArray[np.float32]]]:
        below = "" if before_seq is None else " AND m.seq < ?"
        params: list[Any] = [namespace, model]
        if before_seq is not None:
            params.append(before_seq)
        params.append(limit)
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT m.seq, m.id, v.vector FROM memory_vectors v JOIN memories m "
                "ON m.seq = v.memory_seq WHERE m.namespace = ? AND m.deleted_at IS NULL "
                "AND m.superseded_by IS NULL AND v.model = ? "
                f"AND v.content_hash = m.content_hash{below} ORDER BY m.seq DESC LIMIT ?",
                params,
            ).fetchall()
        return [(int(r[0]), r[1], np.frombuffer(r[2], dtype=np.float32).copy()) for r in rows]

    def record_run(self, run: NewRun) -> MaintenanceRun:
        with self._write("recording the maintenance run") as conn:
            cur = conn.execute(
                "INSERT INTO maintenance_runs(kind, mode, namespace, started_at, finished_at, "
                "score_before, score_after, recommendations, actions, report) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run.kind,
                    run.mode,
                    run.namespace,
                    ts(run.started_at),
                    ts(run.finished_at),
                    run.score_before,
                    run.score_after,
                    json.dumps(list(run.recommendations)),
                    json.dumps(list(run.actions), ensure_ascii=False),
                    json.dumps(run.report, ensure_ascii=False),
                ),
            )
            row = conn.execute(
                f"SELECT {_RUN} FROM maintenance_runs WHERE id = ?", (cur.lastrowid,)
            ).fetchone()
        return _run(row)

    def runs(self, *, limit: int, offset: int = 0, kind: str | None = None) -> list[MaintenanceRun]:
        where, params = ("", []) if kind is None else (" WHERE kind = ?", [kind])
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_RUN} FROM maintenance_runs{where} ORDER BY id DESC LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
        return [_run(r) for r in rows]

    def record_action(self, action: str, *, now: datetime, outcome: str) -> None:
        with self._write("recording the repair action") as conn:
            conn.execute(
                "INSERT INTO maintenance_actions(action, outcome, executed_at) VALUES (?, ?, ?)",
                (action, outcome, ts(now)),
            )

    def actions_since(self, action: str, since: datetime) -> list[datetime]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT executed_at FROM maintenance_actions WHERE action = ? "
                "AND executed_at >= ? ORDER BY executed_at",
                (action, ts(since)),
            ).fetchall()
        return [datetime.fromisoformat(r[0]) for r in rows]

    def halts(self) -> dict[str, HaltState]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT action, streak, halted_at FROM maintenance_halts"
            ).fetchall()
        return {r[0]: HaltState(r[0], int(r[1]), parse_ts(r[2])) for r in rows}

    def set_halt(self, state: HaltState) -> None:
        halted = None if state.halted_at is None else ts(state.halted_at)
        with self._write("recording the halt state") as conn:
            conn.execute(
                "INSERT INTO maintenance_halts(action, streak, halted_at) VALUES (?, ?, ?) "
                "ON CONFLICT(action) DO UPDATE SET streak = excluded.streak, "
                "halted_at = excluded.halted_at",
                (state.action, state.streak, halted),
            )

    def clear_halts(self, actions: Sequence[str] | None = None) -> int:
        with self._write("resetting the halt tracker") as conn:
            if actions is None:
                return int(conn.execute("DELETE FROM maintenance_halts").rowcount)
            marks = ", ".join("?" for _ in actions)
            cur = conn.execute(
                f"DELETE FROM maintenance_halts WHERE action IN ({marks})", tuple(actions)
            )
            return int(cur.rowcount)

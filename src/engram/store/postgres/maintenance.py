"""Maintenance in the PostgreSQL store: health counts, keyword-index repair, the
embedding backlog, vector pages for dedup, and the maintenance worker's records
(FEATURES S10). The keyword index is the ``memories.search`` tsvector a trigger keeps;
a live memory whose ``search`` is NULL is missing from it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.maintenance import HaltState, HealthCounts, MaintenanceRun, NewRun

#: As SQLite's: missing, a model switch, or stale content.
_REASON = (
    "CASE WHEN v.memory_id IS NULL THEN 'missing' WHEN v.model != %s THEN 'model' ELSE 'stale' END"
)
_BACKLOG = (
    " LEFT JOIN memory_vectors v ON v.memory_id = m.id WHERE m.deleted_at IS NULL AND "
    "(v.memory_id IS NULL OR v.model != %s OR v.content_hash != m.content_hash)"
)
_RUN = (
    "id, kind, mode, namespace, started_at, finished_at, score_before, score_after, "
    "recommendations, actions, report"
)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _run(row: Sequence[Any]) -> MaintenanceRun:
    return MaintenanceRun(
        id=int(row[0]),
        kind=row[1],
        mode=row[2],
        namespace=row[3],
        started_at=codec.utc(row[4]),
        finished_at=codec.utc(row[5]),
        score_before=float(row[6]),
        score_after=float(row[7]),
        recommendations=tuple(_json(row[8])),
        actions=tuple(_json(row[9])),
        report=_json(row[10]),
    )


class PgMaintenance:
    """The PostgreSQL implementation of ``MaintenanceStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def health_counts(self, *, lease_cutoff: datetime, model: str | None) -> HealthCounts:
        with self._db.snapshot("reading health counts") as conn:
            live, tombstoned, indexed, unindexed = conn.execute(
                "SELECT count(*) FILTER (WHERE deleted_at IS NULL), "
                "count(*) FILTER (WHERE deleted_at IS NOT NULL), "
                "count(*) FILTER (WHERE deleted_at IS NULL AND search IS NOT NULL), "
                "count(*) FILTER (WHERE deleted_at IS NULL AND search IS NULL) FROM memories"
            ).fetchone() or (0, 0, 0, 0)
            jobs, jobs_dead, stale = conn.execute(
                "SELECT count(*), count(*) FILTER (WHERE status = 'dead'), "
                "count(*) FILTER (WHERE status = 'leased' AND leased_at < %s) FROM memory_jobs",
                (codec.utc(lease_cutoff),),
            ).fetchone() or (0, 0, 0)
            vectors: Sequence[Any] = (0, 0, 0)
            if model is not None:
                vectors = conn.execute(
                    "SELECT count(*) FILTER (WHERE r = 'missing'), "
                    "count(*) FILTER (WHERE r = 'stale'), count(*) FILTER (WHERE r = 'model') "
                    f"FROM (SELECT {_REASON} AS r FROM memories m{_BACKLOG}) b",
                    (model, model),
                ).fetchone() or (0, 0, 0)
        return HealthCounts(
            live=int(live),
            tombstoned=int(tombstoned),
            indexed=int(indexed),
            index_mismatch=int(unindexed),
            jobs_total=int(jobs),
            jobs_dead=int(jobs_dead),
            stale_leases=int(stale),
            vectors_missing=int(vectors[0]),
            vectors_stale=int(vectors[1]),
            vectors_other_model=int(vectors[2]),
        )

    def repair_keyword_index(self) -> int:
        with self._db.tx("rebuilding the keyword index") as conn:
            # Touching ``content`` fires the trigger that computes ``search``.
            cur = conn.execute(
                "UPDATE memories SET content = content WHERE deleted_at IS NULL AND search IS NULL"
            )
            return int(cur.rowcount)

    def embedding_backlog(self, model: str, *, limit: int) -> list[tuple[MemoryRecord, str]]:
        sql = codec.SELECT.replace(" FROM memories m", f", {_REASON} FROM memories m", 1)
        sql += _BACKLOG + " ORDER BY m.updated_at DESC, m.seq DESC LIMIT %s"
        with self._db.read("reading the embedding backlog") as conn:
            rows = conn.execute(sql, (model, model, limit)).fetchall()
        return [(codec.from_row(r[:-1]), str(r[-1])) for r in rows]

    def vector_page(
        self, namespace: str, model: str, *, before_seq: int | None, limit: int
    ) -> list[tuple[int, str, npt.NDArray[np.float32]]]:
        below = "" if before_seq is None else " AND m.seq < %s"
        params: list[Any] = [namespace, model]
        if before_seq is not None:
            params.append(before_seq)
        params.append(limit)
        with self._db.read("reading vectors") as conn:
            rows = conn.execute(
                "SELECT m.seq, m.id, v.embedding FROM memory_vectors v JOIN memories m "
                "ON m.id = v.memory_id WHERE m.namespace = %s AND m.deleted_at IS NULL "
                "AND m.superseded_by IS NULL AND v.model = %s "
                f"AND v.content_hash = m.content_hash{below} ORDER BY m.seq DESC LIMIT %s",
                params,
            ).fetchall()
        return [(int(r[0]), r[1], codec.vector_array(r[2])) for r in rows]

    def record_run(self, run: NewRun) -> MaintenanceRun:
        with self._db.tx("recording the maintenance run") as conn:
            row = conn.execute(
                "INSERT INTO maintenance_runs(kind, mode, namespace, started_at, finished_at, "
                "score_before, score_after, recommendations, actions, report) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s::jsonb) "
                f"RETURNING {_RUN}",
                (
                    run.kind,
                    run.mode,
                    run.namespace,
                    codec.utc(run.started_at),
                    codec.utc(run.finished_at),
                    run.score_before,
                    run.score_after,
                    json.dumps(list(run.recommendations)),
                    json.dumps(list(run.actions), ensure_ascii=False),
                    json.dumps(run.report, ensure_ascii=False),
                ),
            ).fetchone()
        assert row is not None  # RETURNING of an INSERT
        return _run(row)

    def runs(self, *, limit: int, offset: int = 0, kind: str | None = None) -> list[MaintenanceRun]:
        where, params = ("", []) if kind is None else (" WHERE kind = %s", [kind])
        with self._db.read("reading maintenance runs") as conn:
            rows = conn.execute(
                f"SELECT {_RUN} FROM maintenance_runs{where} ORDER BY id DESC LIMIT %s OFFSET %s",
                (*params, limit, offset),
            ).fetchall()
        return [_run(r) for r in rows]

    def record_action(self, action: str, *, now: datetime, outcome: str) -> None:
        with self._db.tx("recording the repair action") as conn:
            conn.execute(
                "INSERT INTO maintenance_actions(action, outcome, executed_at) VALUES (%s, %s, %s)",
                (action, outcome, codec.utc(now)),
            )

    def actions_since(self, action: str, since: datetime) -> list[datetime]:
        with self._db.read("reading repair actions") as conn:
            rows = conn.execute(
                "SELECT executed_at FROM maintenance_actions WHERE action = %s "
                "AND executed_at >= %s ORDER BY executed_at",
                (action, codec.utc(since)),
            ).fetchall()
        return [codec.utc(r[0]) for r in rows]

    def halts(self) -> dict[str, HaltState]:
        with self._db.read("reading the halt tracker") as conn:
            rows = conn.execute(
                "SELECT action, streak, halted_at FROM maintenance_halts"
            ).fetchall()
        return {
            r[0]: HaltState(r[0], int(r[1]), None if r[2] is None else codec.utc(r[2]))
            for r in rows
        }

    def set_halt(self, state: HaltState) -> None:
        halted = None if state.halted_at is None else codec.utc(state.halted_at)
        with self._db.tx("recording the halt state") as conn:
            conn.execute(
                "INSERT INTO maintenance_halts(action, streak, halted_at) VALUES (%s, %s, %s) "
                "ON CONFLICT(action) DO UPDATE SET streak = excluded.streak, "
                "halted_at = excluded.halted_at",
                (state.action, state.streak, halted),
            )

    def clear_halts(self, actions: Sequence[str] | None = None) -> int:
        with self._db.tx("resetting the halt tracker") as conn:
            if actions is None:
                return int(conn.execute("DELETE FROM maintenance_halts").rowcount)
            cur = conn.execute(
                "DELETE FROM maintenance_halts WHERE action = ANY(%s)", (list(actions),)
            )
            return int(cur.rowcount)

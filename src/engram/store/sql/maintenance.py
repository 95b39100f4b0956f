"""Maintenance, on either engine: health counts, keyword-index repair, the embedding
backlog, vector pages for dedup, and the maintenance worker's records (FEATURES S10).

The keyword index is each engine's own (SQLite's FTS5 tables, PostgreSQL's
``memories.search`` tsvector, where a live memory whose ``search`` is NULL is missing
from it): its counts and repair come from the backend's ``KeywordUpkeep``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.records import MemoryRecord
from engram.store.protocols import MaintenanceStore
from engram.store.protocols.maintenance import HaltState, HealthCounts, MaintenanceRun, NewRun
from engram.store.sql.codec import SELECT, from_row
from engram.store.sql.native import KeywordUpkeep, vector_array, vector_rows
from engram.store.sql.rows import columns, record, upsert
from engram.store.sql.session import Sql, SqlPart

_RUN = columns(MaintenanceRun)


class SqlMaintenance(SqlPart, MaintenanceStore):
    """``MaintenanceStore`` on either engine."""

    def __init__(self, sql: Sql, keyword: KeywordUpkeep) -> None:
        super().__init__(sql)
        self._keyword = keyword
        v = vector_rows(self._d)
        self._vectors = v
        #: seed 004: missing, stale (content hash changed) or a model switch; a row of
        #: another model is a model switch whatever its hash.
        self._reason = (
            f"CASE WHEN v.{v.key} IS NULL THEN 'missing' WHEN v.model != ? THEN 'model' "
            "ELSE 'stale' END"
        )
        self._backlog = (
            f" LEFT JOIN memory_vectors v ON v.{v.key} = m.{v.memory_key} WHERE "
            f"m.deleted_at IS NULL AND (v.{v.key} IS NULL OR v.model != ? OR "
            "v.content_hash != m.content_hash)"
        )

    def health_counts(self, *, lease_cutoff: datetime, model: str | None) -> HealthCounts:
        with self._sql.snapshot("reading health counts") as conn:
            live, tombstoned = conn.execute(
                "SELECT count(*) FILTER (WHERE deleted_at IS NULL), "
                "count(*) FILTER (WHERE deleted_at IS NOT NULL) FROM memories"
            ).fetchone() or (0, 0)
            indexed, mismatch = self._keyword.counts(conn)
            jobs, jobs_dead, stale = conn.execute(
                "SELECT count(*), count(*) FILTER (WHERE status = 'dead'), "
                "count(*) FILTER (WHERE status = 'leased' AND leased_at < ?) FROM memory_jobs",
                (self._d.ts(lease_cutoff),),
            ).fetchone() or (0, 0, 0)
            vectors: Sequence[Any] = (0, 0, 0)
            if model is not None:
                vectors = conn.execute(
                    "SELECT count(*) FILTER (WHERE r = 'missing'), "
                    "count(*) FILTER (WHERE r = 'stale'), count(*) FILTER (WHERE r = 'model') "
                    f"FROM (SELECT {self._reason} AS r FROM memories m{self._backlog}) b",
                    (model, model),
                ).fetchone() or (0, 0, 0)
        return HealthCounts(
            live=int(live),
            tombstoned=int(tombstoned),
            indexed=int(indexed),
            index_mismatch=int(mismatch),
            jobs_total=int(jobs),
            jobs_dead=int(jobs_dead),
            stale_leases=int(stale),
            vectors_missing=int(vectors[0]),
            vectors_stale=int(vectors[1]),
            vectors_other_model=int(vectors[2]),
        )

    def repair_keyword_index(self) -> int:
        with self._sql.tx("rebuilding the keyword index") as conn:
            return self._keyword.repair(conn)

    def embedding_backlog(self, model: str, *, limit: int) -> list[tuple[MemoryRecord, str]]:
        sql = SELECT.replace(" FROM memories m", f", {self._reason} FROM memories m", 1)
        sql += self._backlog + " ORDER BY m.updated_at DESC, m.seq DESC LIMIT ?"
        rows = self._rows(sql, (model, model, limit), what="reading the embedding backlog")
        return [(from_row(self._d, r[:-1]), str(r[-1])) for r in rows]

    def vector_page(
        self, namespace: str, model: str, *, before_seq: int | None, limit: int
    ) -> list[tuple[int, str, npt.NDArray[np.float32]]]:
        v = self._vectors
        below = "" if before_seq is None else " AND m.seq < ?"
        params: list[Any] = [namespace, model]
        if before_seq is not None:
            params.append(before_seq)
        params.append(limit)
        rows = self._rows(
            f"SELECT m.seq, m.id, v.{v.vector} FROM memory_vectors v JOIN memories m "
            f"ON m.{v.memory_key} = v.{v.key} WHERE m.namespace = ? AND m.deleted_at IS NULL "
            "AND m.superseded_by IS NULL AND v.model = ? "
            f"AND v.content_hash = m.content_hash{below} ORDER BY m.seq DESC LIMIT ?",
            params,
            what="reading vectors",
        )
        return [(int(r[0]), r[1], vector_array(r[2])) for r in rows]

    def record_run(self, run: NewRun) -> MaintenanceRun:
        d = self._d
        with self._sql.tx("recording the maintenance run") as conn:
            row = conn.execute(
                "INSERT INTO maintenance_runs(kind, mode, namespace, started_at, finished_at, "
                "score_before, score_after, recommendations, actions, report) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?, {d.json}, {d.json}, {d.json}) RETURNING {_RUN}",
                (
                    run.kind,
                    run.mode,
                    run.namespace,
                    d.ts(run.started_at),
                    d.ts(run.finished_at),
                    run.score_before,
                    run.score_after,
                    d.dumps(list(run.recommendations)),
                    d.dumps(list(run.actions)),
                    d.dumps(run.report),
                ),
            ).fetchone()
        assert row is not None  # RETURNING of an INSERT
        return record(d, MaintenanceRun, row)

    def runs(self, *, limit: int, offset: int = 0, kind: str | None = None) -> list[MaintenanceRun]:
        where, params = ("", []) if kind is None else (" WHERE kind = ?", [kind])
        return self._records(
            MaintenanceRun,
            f"SELECT {_RUN} FROM maintenance_runs{where} ORDER BY id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
            what="reading maintenance runs",
        )

    def record_action(self, action: str, *, now: datetime, outcome: str) -> None:
        with self._sql.tx("recording the repair action") as conn:
            conn.execute(
                "INSERT INTO maintenance_actions(action, outcome, executed_at) VALUES (?, ?, ?)",
                (action, outcome, self._d.ts(now)),
            )

    def actions_since(self, action: str, since: datetime) -> list[datetime]:
        rows = self._rows(
            "SELECT executed_at FROM maintenance_actions WHERE action = ? "
            "AND executed_at >= ? ORDER BY executed_at",
            (action, self._d.ts(since)),
            what="reading repair actions",
        )
        return [self._d.time(r[0]) for r in rows]

    def halts(self) -> dict[str, HaltState]:
        sql = f"SELECT {columns(HaltState)} FROM maintenance_halts"
        return {h.action: h for h in self._records(HaltState, sql, (), "reading the halt tracker")}

    def set_halt(self, state: HaltState) -> None:
        with self._sql.tx("recording the halt state") as conn:
            conn.execute(
                upsert(self._d, "maintenance_halts", columns(HaltState), "action"),
                (state.action, state.streak, self._d.ts_or_none(state.halted_at)),
            )

    def clear_halts(self, actions: Sequence[str] | None = None) -> int:
        with self._sql.tx("resetting the halt tracker") as conn:
            if actions is None:
                return int(conn.execute("DELETE FROM maintenance_halts").rowcount)
            if not actions:  # PostgreSQL has no empty IN list
                return 0
            cur = conn.execute(
                f"DELETE FROM maintenance_halts WHERE action IN ({self._d.marks(len(actions))})",
                tuple(actions),
            )
            return int(cur.rowcount)

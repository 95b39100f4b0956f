"""Curation reads, on either engine: prune candidates, recent vectors, preferences."""

from __future__ import annotations

from typing import Any

import numpy as np

from engram.records import MemoryRecord
from engram.store.protocols import CurationStore
from engram.store.protocols.curation import PreferenceRow, RecentVectors
from engram.store.sql.codec import SELECT, from_row
from engram.store.sql.dialect import first_int
from engram.store.sql.native import vector_array, vector_rows
from engram.store.sql.session import SqlPart

#: seed 000's prune rule; the partial index ``memories_prune`` (SQLite's 020,
#: PostgreSQL's 016) covers ``quality < 0``.
_PRUNE = (
    " WHERE m.namespace = ? AND m.deleted_at IS NULL AND m.quality < 0 "
    "AND (m.quality <= ? OR (m.score IS NOT NULL AND m.score < ?))"
)
#: A live memory's current vector of one model, after ``m.namespace = ?``: SQLite
#: compares content hashes; PostgreSQL's rows carry the namespace (a second parameter,
#: so its index on ``(namespace, model)`` serves) and a ``live`` flag its triggers keep.
_CURRENT = {
    "sqlite": ("m.deleted_at IS NULL AND v.model = ? AND v.content_hash = m.content_hash", 1),
    "postgres": ("v.namespace = ? AND v.model = ? AND v.live", 2),
}


class SqlCuration(SqlPart, CurationStore):
    """``CurationStore`` on either engine."""

    def prune_candidates(
        self,
        namespace: str,
        *,
        quality_at_most: int,
        score_below: float,
        limit: int,
        offset: int,
    ) -> list[MemoryRecord]:
        sql = (
            SELECT
            + _PRUNE
            + " ORDER BY m.quality, m.score ASC NULLS LAST, m.created_at, m.seq LIMIT ? OFFSET ?"
        )
        rows = self._rows(
            sql,
            (namespace, quality_at_most, score_below, limit, offset),
            what="reading prune candidates",
        )
        return [from_row(self._d, r) for r in rows]

    def count_prune_candidates(
        self, namespace: str, *, quality_at_most: int, score_below: float
    ) -> int:
        return self._read_count(
            "SELECT count(*) FROM memories m" + _PRUNE,
            (namespace, quality_at_most, score_below),
            what="counting prune candidates",
        )

    def recent_vectors(
        self, namespace: str, model: str, *, limit: int, type: str | None = None
    ) -> RecentVectors:
        d = self._d
        v = vector_rows(d)
        current, namespaces = _CURRENT[d.name]
        join = (
            f" JOIN memory_vectors v ON v.{v.key} = m.{v.memory_key} WHERE m.namespace = ? "
            f"AND {current}"
        )
        params: list[Any] = [*[namespace] * namespaces, model]
        if type is not None:
            join += " AND m.type = ?"
            params.append(type)
        select = SELECT.replace(" FROM memories m", f", v.{v.vector} FROM memories m")
        with self._sql.snapshot("reading recent vectors") as conn:  # page and total together
            rows = conn.execute(
                select + join + " ORDER BY m.created_at DESC, m.seq DESC LIMIT ?",
                [*params, limit],
            ).fetchall()
            total = first_int(conn, "SELECT count(*) FROM memories m" + join, params)
        if not rows:
            return RecentVectors([], np.zeros((0, 0), np.float32), total)
        matrix = np.stack([vector_array(r[-1]) for r in rows])
        return RecentVectors([from_row(d, r[:-1]) for r in rows], matrix, total)

    def preference_rows(
        self, namespace: str, *, after_id: int = 0, limit: int = 1000
    ) -> list[PreferenceRow]:
        return self._records(
            PreferenceRow,
            "SELECT f.id, f.memory_id, m.content, m.title, f.rating, f.comment, "
            "f.created_at, m.quality FROM memory_feedback_log f JOIN memories m "
            "ON m.id = f.memory_id AND m.namespace = f.namespace "
            "WHERE f.namespace = ? AND f.id > ? ORDER BY f.id LIMIT ?",
            (namespace, after_id, limit),
            what="reading preference rows",
        )

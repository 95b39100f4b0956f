"""Curation reads in the SQLite store: prune candidates, recent vectors, preferences."""

from __future__ import annotations

from typing import Any

import numpy as np

from engram.records import MemoryRecord
from engram.store.protocols.curation import PreferenceRow, RecentVectors
from engram.store.sqlite.codec import SELECT, from_row, parse_ts
from engram.store.sqlite.db import Database

#: seed 000's prune rule; the partial index ``memories_prune`` (020) covers ``quality < 0``.
_PRUNE = (
    " WHERE m.namespace = ? AND m.deleted_at IS NULL AND m.quality < 0 "
    "AND (m.quality <= ? OR (m.score IS NOT NULL AND m.score < ?))"
)


class SQLiteCuration:
    """The SQLite implementation of ``CurationStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def prune_candidates(
        self,
        namespace: str,
        *,
        quality_at_most: int,
        score_below: float,
        limit: int,
        offset: int,
    ) -> list[MemoryRecord]:
        """Worst first: lowest quality, then lowest score (none last), then oldest."""
        sql = (
            SELECT + _PRUNE + " ORDER BY m.quality, m.score IS NULL, m.score, m.created_at, "
            "m.seq LIMIT ? OFFSET ?"
        )
        with self._db.read() as conn:
            rows = conn.execute(
                sql, (namespace, quality_at_most, score_below, limit, offset)
            ).fetchall()
        return [from_row(r) for r in rows]

    def count_prune_candidates(
        self, namespace: str, *, quality_at_most: int, score_below: float
    ) -> int:
        """How many candidates there are in all."""
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT count(*) FROM memories m" + _PRUNE,
                (namespace, quality_at_most, score_below),
            ).fetchone()
        return int(row[0])

    def recent_vectors(
        self, namespace: str, model: str, *, limit: int, type: str | None = None
    ) -> RecentVectors:
        """The newest live memories with a current vector of ``model``."""
        join = (
            " JOIN memory_vectors v ON v.memory_seq = m.seq WHERE m.namespace = ? "
            "AND m.deleted_at IS NULL AND v.model = ? AND v.content_hash = m.content_hash"
        )
        params: list[Any] = [namespace, model]
        if type is not None:
            join += " AND m.type = ?"
            params.append(type)
        select = SELECT.replace(" FROM memories m", ", v.vector, v.dim FROM memories m")
        with self._db.snapshot() as conn:  # the page and its total from one snapshot
            rows = conn.execute(
                select + join + " ORDER BY m.created_at DESC, m.seq DESC LIMIT ?",
                [*params, limit],
            ).fetchall()
            counted = conn.execute("SELECT count(*) FROM memories m" + join, params).fetchone()
        total = int(counted[0])
        if not rows:
            return RecentVectors([], np.zeros((0, 0), np.float32), total)
        dim = int(rows[0][-1])
        matrix = np.frombuffer(b"".join(r[-2] for r in rows), dtype=np.float32).reshape(-1, dim)
        return RecentVectors([from_row(r[:-2]) for r in rows], matrix.copy(), total)

    def preference_rows(
        self, namespace: str, *, after_id: int = 0, limit: int = 1000
    ) -> list[PreferenceRow]:
        """Feedback rows after ``after_id`` joined with their memories, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT f.id, f.memory_id, m.content, m.title, f.rating, f.comment, "
                "f.created_at, m.quality FROM memory_feedback_log f JOIN memories m "
                "ON m.id = f.memory_id AND m.namespace = f.namespace "
                "WHERE f.namespace = ? AND f.id > ? ORDER BY f.id LIMIT ?",
                (namespace, after_id, limit),
            ).fetchall()
        return [
            PreferenceRow(
                id=int(r[0]),
                memory_id=r[1],
                content=r[2],
                title=r[3],
                rating=int(r[4]),
                comment=r[5],
                at=parse_ts(r[6]),  # type: ignore[arg-type]  # NOT NULL column
                quality=int(r[7]),
            )
            for r in rows
        ]

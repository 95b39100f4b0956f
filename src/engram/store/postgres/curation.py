"""Curation reads in the PostgreSQL store: prune candidates, recent vectors, preferences."""

from __future__ import annotations

from typing import Any

import numpy as np

from engram.records import MemoryRecord
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.curation import PreferenceRow, RecentVectors

#: seed 000's prune rule; the partial index ``memories_prune`` (016) covers ``quality < 0``.
_PRUNE = (
    " WHERE m.namespace = %s AND m.deleted_at IS NULL AND m.quality < 0 "
    "AND (m.quality <= %s OR (m.score IS NOT NULL AND m.score < %s))"
)


class PgCuration:
    """The PostgreSQL implementation of ``CurationStore``."""

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
        query = (
            codec.SELECT
            + _PRUNE
            + " ORDER BY m.quality, m.score ASC NULLS LAST, m.created_at, m.seq LIMIT %s OFFSET %s"
        )
        with self._db.read() as conn:
            rows = conn.execute(
                query, (namespace, quality_at_most, score_below, limit, offset)
            ).fetchall()
        return [codec.from_row(r) for r in rows]

    def count_prune_candidates(
        self, namespace: str, *, quality_at_most: int, score_below: float
    ) -> int:
        """How many candidates there are in all."""
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT count(*) FROM memories m" + _PRUNE,
                (namespace, quality_at_most, score_below),
            ).fetchone()
        return int(row[0]) if row else 0

    def recent_vectors(
        self, namespace: str, model: str, *, limit: int, type: str | None = None
    ) -> RecentVectors:
        """The newest live memories with a current vector of ``model``."""
        join = (
            " JOIN memory_vectors v ON v.memory_id = m.id WHERE m.namespace = %s "
            "AND v.namespace = %s AND v.model = %s AND v.live"
        )
        params: list[Any] = [namespace, namespace, model]
        if type is not None:
            join += " AND m.type = %s"
            params.append(type)
        select = codec.SELECT.replace(" FROM memories m", ", v.embedding FROM memories m")
        with self._db.snapshot("reading the graph view") as conn:  # page and total together
            rows = conn.execute(
                select + join + " ORDER BY m.created_at DESC, m.seq DESC LIMIT %s",
                [*params, limit],
            ).fetchall()
            counted = conn.execute("SELECT count(*) FROM memories m" + join, params).fetchone()
        total = int(counted[0]) if counted else 0
        if not rows:
            return RecentVectors([], np.zeros((0, 0), np.float32), total)
        matrix = np.stack([codec.vector_array(r[-1]) for r in rows])
        return RecentVectors([codec.from_row(r[:-1]) for r in rows], matrix, total)

    def preference_rows(
        self, namespace: str, *, after_id: int = 0, limit: int = 1000
    ) -> list[PreferenceRow]:
        """Feedback rows after ``after_id`` joined with their memories, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT f.id, f.memory_id, m.content, m.title, f.rating, f.comment, "
                "f.created_at, m.quality FROM memory_feedback_log f JOIN memories m "
                "ON m.id = f.memory_id AND m.namespace = f.namespace "
                "WHERE f.namespace = %s AND f.id > %s ORDER BY f.id LIMIT %s",
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
                at=codec.utc(r[6]),
                quality=int(r[7]),
            )
            for r in rows
        ]

"""Sessions: checkpoints, injected memories, continuity scores."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime

from engram.store.protocols import SessionStore
from engram.store.protocols.sessions import (
    Checkpoint,
    InjectedMemory,
    NewCheckpoint,
    SessionScore,
    per_memory_json,
)
from engram.store.sql.dialect import first_int
from engram.store.sql.rows import columns, record, upsert
from engram.store.sql.session import SqlPart

_CHECKPOINT = columns(Checkpoint)
_SCORE = columns(SessionScore)


class SqlSessions(SqlPart, SessionStore):
    """``SessionStore`` on either engine."""

    def add_checkpoint(
        self, namespace: str, checkpoint: NewCheckpoint, *, cap: int, now: datetime
    ) -> Checkpoint:
        c = checkpoint
        d = self._d
        with self._sql.tx("writing the checkpoint") as conn:
            row = conn.execute(
                "INSERT INTO session_checkpoints(namespace, session_key, harness, project, "
                "project_normalized, trigger, digest, prompt_count, memory_queries, "
                f"recent_remembers, created_at, agent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                f"{d.json}, {d.json}, ?, ?) RETURNING {_CHECKPOINT}",
                (
                    namespace,
                    c.session_key,
                    c.harness,
                    c.project,
                    c.project_normalized,
                    c.trigger,
                    c.digest,
                    c.prompt_count,
                    d.dumps(list(c.memory_queries)),
                    d.dumps(list(c.recent_remembers)),
                    d.ts(now),
                    c.agent_id,
                ),
            ).fetchone()
            # seed 004: "when checkpoint count exceeds maxCheckpointsPerSession, the
            # oldest rows are deleted".
            conn.execute(
                "DELETE FROM session_checkpoints WHERE namespace = ? AND session_key = ? "
                "AND id NOT IN (SELECT id FROM session_checkpoints WHERE namespace = ? "
                "AND session_key = ? ORDER BY id DESC LIMIT ?)",
                (namespace, c.session_key, namespace, c.session_key, cap),
            )
        assert row is not None  # RETURNING of an INSERT
        return record(d, Checkpoint, row)

    def checkpoints(
        self, namespace: str, session_key: str, *, limit: int, trigger: str | None = None
    ) -> list[Checkpoint]:
        extra, params = ("", []) if trigger is None else (" AND trigger = ?", [trigger])
        return self._records(
            Checkpoint,
            f"SELECT {_CHECKPOINT} FROM session_checkpoints WHERE namespace = ? AND "
            f"session_key = ?{extra} ORDER BY id DESC LIMIT ?",
            (namespace, session_key, *params, limit),
            what="reading checkpoints",
        )

    def sessions(
        self, namespace: str, *, limit: int, offset: int, agent_id: str | None = None
    ) -> list[tuple[str, int, datetime]]:
        extra, params = ("", []) if agent_id is None else (" AND agent_id = ?", [agent_id])
        rows = self._rows(
            "SELECT session_key, count(*), max(created_at) FROM session_checkpoints "
            f"WHERE namespace = ?{extra} GROUP BY session_key ORDER BY max(id) DESC "
            "LIMIT ? OFFSET ?",
            (namespace, *params, limit, offset),
            what="listing sessions",
        )
        return [(r[0], int(r[1]), self._d.time(r[2])) for r in rows]

    def prune_checkpoints(self, before: datetime) -> int:
        with self._sql.tx("pruning checkpoints") as conn:
            cur = conn.execute(
                "DELETE FROM session_checkpoints WHERE created_at < ?", (self._d.ts(before),)
            )
            return int(cur.rowcount)

    def log_injected(
        self, namespace: str, session_key: str, memory_ids: Sequence[str], *, now: datetime
    ) -> int:
        added = 0
        d = self._d
        with self._sql.tx("logging injected memories") as conn:
            if d.name == "postgres":
                # One session's log is written by one caller at a time; the lock keeps
                # two concurrent loggers from handing out the same rank (SQLite's
                # ``BEGIN IMMEDIATE`` already serialises them).
                conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtext(?))", (f"{namespace}\n{session_key}",)
                )
            rank = first_int(
                conn,
                "SELECT coalesce(max(rank), 0) FROM session_memories "
                "WHERE namespace = ? AND session_key = ?",
                (namespace, session_key),
            )
            for memory_id in dict.fromkeys(memory_ids):
                cur = conn.execute(
                    "INSERT INTO session_memories(namespace, session_key, memory_id, rank, "
                    "injected_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (namespace, session_key, memory_id, rank + 1, d.ts(now)),
                )
                if cur.rowcount:
                    rank += 1
                    added += 1
        return added

    def injected(self, namespace: str, session_key: str) -> list[InjectedMemory]:
        return self._records(
            InjectedMemory,
            "SELECT memory_id, rank, injected_at, relevance_score FROM session_memories "
            "WHERE namespace = ? AND session_key = ? AND was_injected ORDER BY rank",
            (namespace, session_key),
            what="reading injected memories",
        )

    def save_score(self, score: SessionScore, relevance: Mapping[str, float]) -> SessionScore:
        s = score
        d = self._d
        with self._sql.tx("saving the session score") as conn:
            conn.execute(
                upsert(d, "session_scores", _SCORE, "namespace, session_key", json=("per_memory",)),
                (
                    s.namespace,
                    s.session_key,
                    s.score,
                    s.confidence,
                    s.memories_recalled,
                    s.memories_used,
                    s.novel_context_count,
                    s.reasoning,
                    s.method,
                    d.ts(s.scored_at),
                    # ASCII-escaped, as both engines have always stored it.
                    json.dumps(s.per_memory),
                ),
            )
            for memory_id, value in relevance.items():
                conn.execute(
                    "UPDATE session_memories SET relevance_score = ? WHERE namespace = ? "
                    "AND session_key = ? AND memory_id = ?",
                    (value, s.namespace, s.session_key, memory_id),
                )
        return s

    def score(self, namespace: str, session_key: str) -> SessionScore | None:
        return self._record(
            SessionScore,
            f"SELECT {_SCORE} FROM session_scores WHERE namespace = ? AND session_key = ?",
            (namespace, session_key),
            "reading the session score",
            per_memory=lambda v: per_memory_json(self._d.loads(v)),
        )

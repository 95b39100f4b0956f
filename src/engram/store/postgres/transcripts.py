"""Session transcripts and session membership for ``PostgresStore`` (seed 004).

A mixin: the methods run on the store's pooled transactions (``_tx``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from engram.records import utcnow
from engram.store.postgres import codec

Tx = Callable[..., AbstractContextManager[psycopg.Connection[Any]]]


class TranscriptsMixin:
    """``put_transcript``, ``transcripts`` and ``session_members``."""

    _tx: Tx
    _read: Tx

    def put_transcript(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        """Store one transcript per (namespace, session key) once; True if stored."""
        codec.check_text(content, "transcript")
        with self._tx("storing the transcript") as conn:
            cur = conn.execute(
                "INSERT INTO session_transcripts(namespace, session_key, content, agent_id, "
                "created_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (namespace, session_key, content, agent_id, utcnow()),
            )
            return cur.rowcount == 1

    def transcripts(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        """Transcripts of ``namespace`` by session key, looked up in one query."""
        keys = list(dict.fromkeys(session_keys))
        if not keys:
            return {}
        with self._read() as conn:
            rows = conn.execute(
                "SELECT session_key, content FROM session_transcripts "
                "WHERE namespace = %s AND session_key = ANY(%s)",
                (namespace, keys),
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def session_members(
        self, namespace: str, memory_ids: Sequence[str], *, max_members: int
    ) -> dict[str, list[str]]:
        """Live members of the sessions of ``memory_ids``, oldest first; sessions with
        more than ``max_members`` live members are left out."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        with self._read() as conn:
            sessions = sorted(
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT session_id FROM memories WHERE namespace = %s "
                    "AND id = ANY(%s) AND session_id IS NOT NULL",
                    (namespace, ids),
                ).fetchall()
            )
            out: dict[str, list[str]] = {}
            for session in sessions:
                rows = conn.execute(
                    "SELECT id FROM memories WHERE namespace = %s AND session_id = %s "
                    "AND deleted_at IS NULL ORDER BY created_at, seq LIMIT %s",
                    (namespace, session, max_members + 1),
                ).fetchall()
                if 0 < len(rows) <= max_members:
                    out[session] = [r[0] for r in rows]
        return out

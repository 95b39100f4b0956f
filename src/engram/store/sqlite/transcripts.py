"""Session transcripts in the SQLite store (seed 004): verbatim, once per session."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from engram.errors import StoreError
from engram.records import utcnow
from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database


class SQLiteTranscripts:
    """The SQLite implementation of ``TranscriptStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def put(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        """INSERT OR IGNORE one transcript per (namespace, session key); True if stored."""
        try:
            with self._db.tx() as conn:
                cur = conn.execute(
                    "INSERT OR IGNORE INTO session_transcripts(namespace, session_key, content, "
                    "agent_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    (namespace, session_key, content, agent_id, ts(utcnow())),
                )
                return cur.rowcount == 1
        except sqlite3.Error as exc:
            raise StoreError(f"storing the transcript failed: {exc}") from exc

    def get(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        """Transcripts of ``namespace`` by session key, looked up in one batch."""
        keys = list(dict.fromkeys(session_keys))
        out: dict[str, str] = {}
        with self._db.read() as conn:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                rows = conn.execute(
                    "SELECT session_key, content FROM session_transcripts "
                    f"WHERE namespace = ? AND session_key IN ({marks})",
                    (namespace, *chunk),
                ).fetchall()
                out.update({r[0]: r[1] for r in rows})
        return out

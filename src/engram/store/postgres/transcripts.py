"""Session transcripts in the PostgreSQL store (seed 004): verbatim, once per session."""

from __future__ import annotations

from collections.abc import Sequence

from engram.records import utcnow
from engram.store.postgres import codec
from engram.store.postgres.db import Database


class PgTranscripts:
    """The PostgreSQL implementation of ``TranscriptStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def put(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        """Store one transcript per (namespace, session key) once; True if stored."""
        codec.check_text(content, "transcript")
        with self._db.tx("storing the transcript") as conn:
            cur = conn.execute(
                "INSERT INTO session_transcripts(namespace, session_key, content, agent_id, "
                "created_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (namespace, session_key, content, agent_id, utcnow()),
            )
            return cur.rowcount == 1

    def get(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        """Transcripts of ``namespace`` by session key, looked up in one query."""
        keys = list(dict.fromkeys(session_keys))
        if not keys:
            return {}
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT session_key, content FROM session_transcripts "
                "WHERE namespace = %s AND session_key = ANY(%s)",
                (namespace, keys),
            ).fetchall()
        return {r[0]: r[1] for r in rows}

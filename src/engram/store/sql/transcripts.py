"""Session transcripts (seed 004): verbatim, once per session."""

from __future__ import annotations

from collections.abc import Sequence

from engram.records import utcnow
from engram.store.protocols import TranscriptStore
from engram.store.sql.session import SqlPart


class SqlTranscripts(SqlPart, TranscriptStore):
    """``TranscriptStore`` on either engine."""

    def put(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        d = self._d
        d.text(content, "transcript")
        with self._sql.tx("storing the transcript") as conn:
            cur = conn.execute(
                "INSERT INTO session_transcripts(namespace, session_key, content, agent_id, "
                "created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (namespace, session_key, content, agent_id, d.ts(utcnow())),
            )
            return cur.rowcount == 1

    def get(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        keys = list(dict.fromkeys(session_keys))
        if not keys:
            return {}
        with self._sql.read() as conn:
            rows = self._d.select_in(
                conn,
                "SELECT session_key, content FROM session_transcripts WHERE namespace = ? AND ",
                "session_key",
                keys,
                (namespace,),
            )
        return {r[0]: r[1] for r in rows}

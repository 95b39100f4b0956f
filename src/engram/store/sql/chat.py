"""Per-user chat settings (seed 003; issue 31)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engram.store.protocols import ChatSettingsStore
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.session import SqlPart
from engram.store.sql.steps import script


class SqlChatSettings(SqlPart, ChatSettingsStore):
    """``ChatSettingsStore`` on either engine."""

    def get(self, namespace: str) -> dict[str, Any] | None:
        row = self._row(
            "SELECT settings FROM chat_settings WHERE namespace = ?",
            (namespace,),
            what="reading chat settings",
        )
        if row is None:
            return None
        found = self._d.loads(row[0])
        return dict(found) if isinstance(found, Mapping) else {}

    def put(self, namespace: str, settings: Mapping[str, Any], *, now: datetime) -> None:
        d = self._d
        with self._sql.tx("storing chat settings") as conn:
            conn.execute(
                f"INSERT INTO chat_settings(namespace, settings, updated_at) "
                f"VALUES (?, {d.json}, ?) ON CONFLICT (namespace) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (d.text(namespace, "namespace"), d.dumps(dict(settings)), d.ts(now)),
            )

    def remove(self, namespace: str) -> bool:
        with self._sql.tx("removing chat settings") as conn:
            cur = conn.execute("DELETE FROM chat_settings WHERE namespace = ?", (namespace,))
            return cur.rowcount > 0


def m030_chat_settings(conn: Conn, d: Dialect) -> None:
    """Each namespace's own chat settings (seed 003: "settings are per-user")."""
    script(
        conn,
        d,
        """
        CREATE TABLE chat_settings (
            namespace {key} PRIMARY KEY,
            settings {jsonb} NOT NULL,
            updated_at {time} NOT NULL
        );
        """,
    )

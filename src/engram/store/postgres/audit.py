"""Audit rows in the PostgreSQL store (``memory_history`` entries that change nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engram.store.postgres import codec
from engram.store.postgres.db import Database


class PgAudit:
    """The PostgreSQL implementation of ``AuditStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def record(
        self,
        namespace: str,
        memory_id: str,
        event: str,
        *,
        payload: Mapping[str, Any],
        actor: str | None,
        reason: str | None,
        now: datetime,
    ) -> None:
        """Append one history row."""
        with self._db.tx("writing the audit row") as conn:
            conn.execute(
                "INSERT INTO memory_history(memory_id, namespace, event, before, after, actor, "
                "reason, created_at) VALUES (%s, %s, %s, NULL, %s::json, %s, %s, %s)",
                (
                    memory_id,
                    namespace,
                    event,
                    codec.dumps(dict(payload)),
                    codec.check_text(actor, "actor"),
                    codec.check_text(reason, "reason"),
                    now,
                ),
            )

"""Audit rows (``memory_history`` entries that change nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engram.store.protocols import AuditStore
from engram.store.sql.history import INSERT_HISTORY, job_key
from engram.store.sql.session import SqlPart


class SqlAudit(SqlPart, AuditStore):
    """``AuditStore`` on either engine."""

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
        d = self._d
        with self._sql.tx("writing the audit row") as conn:
            conn.execute(
                INSERT_HISTORY.format(before="NULL", after=d.json),
                (
                    memory_id,
                    namespace,
                    event,
                    d.dumps(dict(payload)),
                    d.text(actor, "actor"),
                    d.text(reason, "reason"),
                    d.ts(now),
                    job_key(memory_id),
                ),
            )

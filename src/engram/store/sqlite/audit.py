"""Audit rows in the SQLite store (``memory_history`` entries that change nothing)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engram.errors import StoreError
from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database


class SQLiteAudit:
    """The SQLite implementation of ``AuditStore``."""

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
        try:
            with self._db.tx() as conn:
                conn.execute(
                    "INSERT INTO memory_history(memory_id, namespace, event, before, after, "
                    "actor, reason, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)",
                    (
                        memory_id,
                        namespace,
                        event,
                        json.dumps(dict(payload), ensure_ascii=False),
                        actor,
                        reason,
                        ts(now),
                    ),
                )
        except sqlite3.Error as exc:
            raise StoreError(f"writing the audit row failed: {exc}") from exc

"""The audit part of a store: rows in ``memory_history`` that record a decision about a
memory without changing it (a write-pipeline proposal, a review), so ``history`` shows
every proposal and its outcome (seed 004: "Audit records are written for every proposal
in every outcome")."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class AuditStore(Protocol):
    """Append-only audit rows."""

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
        """Append one history row for ``memory_id`` with ``payload`` as its ``after``
        (joins an open transaction)."""
        ...

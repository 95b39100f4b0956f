"""The erase part of a store (issue 14): hard-delete a namespace, or chosen memories of
it, in one transaction with an audit row that outlives what it erased.

The audit rows live in a table of their own (``erase_audit``), not in
``memory_history``: an erase removes the erased memories' history with them, and no
erase ever deletes an audit row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: Tables an erase of a whole namespace leaves alone although they have a
#: ``namespace`` column: the audit itself, and bookkeeping that holds no content (the
#: per-namespace index registries; the keyword change log, whose rows of the erased
#: memories tell every process's in-memory term index to drop them; and the palace
#: counters that keep a drawer number from being given out twice, so an old pointer
#: never names a new drawer).
KEPT_TABLES = frozenset(
    {
        "erase_audit",
        "fts_log",
        "fts_namespaces",
        "fts_pending",
        "hint_namespaces",
        "hint_fts_pending",
        "palace_counters",
    }
)


@dataclass(frozen=True, slots=True)
class EraseAudit(Record):
    """One erase: who ran it, when, in which namespace, with which filters, and how
    many memories it removed."""

    id: int
    namespace: str
    actor: str | None
    filters: dict[str, Any]
    whole_namespace: bool
    memories: int
    """Memories erased (live and tombstoned)."""
    rows: int
    """Rows erased in every table (history, vectors, transcripts, graph ...)."""
    created_at: datetime


@runtime_checkable
class EraseStore(Protocol):
    """Hard deletes with an audit row that survives them."""

    def erase(
        self,
        namespace: str,
        memory_ids: Sequence[str] | None,
        *,
        actor: str | None,
        filters: Mapping[str, Any],
        now: datetime,
    ) -> EraseAudit:
        """Delete ``memory_ids`` of ``namespace`` (any state) with their history,
        feedback, vectors, keyword and hint entries, jobs, review items and links, or,
        when ``memory_ids`` is None, every row of the namespace in every table but
        ``KEPT_TABLES``; append the audit row in the same transaction and return it."""
        ...

    def audit(self, namespace: str | None, *, limit: int, offset: int) -> list[EraseAudit]:
        """Audit rows, newest first: of ``namespace``, or of every namespace (None)."""
        ...

    def audit_count(self, namespace: str | None) -> int:
        """How many audit rows ``audit`` pages through for ``namespace`` (None: all)."""
        ...

    def namespaces(self) -> list[str]:
        """Every namespace that holds a row in a table an erase reaches, sorted."""
        ...

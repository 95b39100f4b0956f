"""``mem.erasure``: audited bulk erase of a namespace or of the memories a filter picks
(issue 14).

An erase is a hard delete, as a person asking for their data to be erased expects
(GDPR-style): the memories go with their vectors, keyword and hint index entries,
history, feedback, jobs and review items; an erase of a whole namespace also takes its
transcripts, documents, graph, palace and runs. What stays is one ``erase_audit`` row
per erase (who, when, namespace, the filters' keys and operators with how many values
each named, never the values, and counts), which no erase deletes. Tombstones
(``Memory.delete``) stay the everyday, reversible-by-history way to forget one memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Unpack

from engram.core import Part, Scope
from engram.errors import InvalidInputError
from engram.filters import audited, described, list_query
from engram.records import utcnow
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols import EraseAudit, ListQuery
from engram.store.protocols.record import Record
from engram.validate import (
    name_value,
    no_nul,
    offset_value,
    positive_int,
    timestamp,
    type_name,
)

__all__ = ["EraseResult", "Erasure"]

#: Memory ids read per page while collecting what a filtered erase removes.
PAGE = 1000


@dataclass(frozen=True, slots=True)
class EraseResult(Record):
    """What an erase removed (or, with ``dry_run``, would remove)."""

    namespace: str
    memories: int
    """Memories erased, live and tombstoned (with ``dry_run``: that would be)."""
    whole_namespace: bool
    dry_run: bool
    filters: dict[str, Any]
    audit: EraseAudit | None
    """The audit row written (None for a dry run)."""
    held: bool = True
    """Whether the namespace held anything at all (False: a mistyped id? The erase still
    writes its audit row)."""
    nested: list[str] = field(default_factory=list)
    """The namespaces below this one (``<namespace>/...``: a user's ``/shared`` space and
    agents' private notes) erased with it, each with its own audit row; ``memories``
    counts theirs too."""


def _actor(actor: object) -> str | None:
    if actor is None:
        return None
    if not isinstance(actor, str):
        raise InvalidInputError(f"actor must be a string, got {type_name(actor)}")
    return no_nul("actor", actor)


class Erasure(Part):
    """Audited hard deletes: ``erase`` and the ``audit`` log that survives them."""

    @scoped
    def erase(
        self,
        *,
        filters: Mapping[str, Any] | None = None,
        dry_run: bool = False,
        actor: str | None = None,
        nested: bool = True,
        **who: Unpack[ScopeArgs],
    ) -> EraseResult:
        """Erase for good every memory of a namespace, or those ``filters`` pick (the
        native grammar of ``get_all``: record fields, ``tags``, ``metadata.<key>``), and
        record who did it in the erase audit. ``dry_run=True`` counts and changes
        nothing. Ids narrower than the namespace (``agent_id`` within ``user:alice``)
        narrow the erase to their memories, as in ``get_all``. A whole namespace goes
        with the namespaces below it (``user:alice/shared``, ``user:alice/<agent>``),
        each audited, unless ``nested=False``."""
        core = self._core
        core.check_open()
        for name, flag in (("dry_run", dry_run), ("nested", nested)):
            if not isinstance(flag, bool):
                raise InvalidInputError(f"{name} must be true or false, got {type_name(flag)}")
        by = _actor(actor)
        if all(value is None for value in who.values()):
            raise InvalidInputError(
                "erase needs its target named: namespace=, user_id=, agent_id= or run_id= "
                "(to erase the default namespace, pass namespace='default')"
            )
        scope = core.scope(**who)
        query = list_query(scope, filters, PAGE, 0, include_deleted=True)
        whole = query == ListQuery(limit=PAGE, include_deleted=True)
        shown = described(scope, filters)
        store = core.store
        held = set(store.erase.namespaces())
        below = [n for n in held if n.startswith(scope.namespace + "/")] if whole and nested else []
        below.sort()
        there = scope.namespace in held or bool(below)
        if dry_run:
            count = sum(store.memories.count(ns, query=query) for ns in [scope.namespace, *below])
            return EraseResult(scope.namespace, count, whole, True, shown, None, there, below)
        ids = None if whole else self._ids(scope, query)
        # The nested namespaces first: an erase cut short leaves the named one, so
        # running it again finds and finishes the rest.
        count = 0
        for namespace in [*below, scope.namespace]:
            audit = store.erase.erase(
                namespace,
                ids if namespace == scope.namespace else None,
                actor=by,
                filters=audited(scope, filters),  # keys and counts, no values
                now=utcnow(),
            )
            count += audit.memories
            if core.index is not None:
                core.index.invalidate(namespace)
        return EraseResult(scope.namespace, count, whole, False, shown, audit, there, below)

    def nested(self, namespace: str) -> list[str]:
        """The namespaces below ``namespace`` (``<namespace>/...``) that hold anything."""
        self._core.check_open()
        prefix = name_value("namespace", namespace, limit=1000) + "/"
        return [ns for ns in self._core.store.erase.namespaces() if ns.startswith(prefix)]

    def _ids(self, scope: Scope, query: ListQuery) -> list[str]:
        memories = self._core.store.memories
        ids: list[str] = []
        while True:
            page = memories.select(scope.namespace, replace(query, offset=len(ids)))
            ids.extend(r.id for r in page)
            if len(page) < query.limit:
                return ids

    def undone_since(self, when: datetime) -> list[EraseAudit]:
        """Whole-namespace erases made after ``when`` whose namespace holds data again,
        newest first: what restoring a backup made at ``when`` brought back (an export
        keeps what it kept; the erase must be made again). ``engram import`` names them."""
        core = self._core
        core.check_open()
        since = timestamp("when", when)
        if since is None:
            raise InvalidInputError("when must be the datetime the backup was made, got None")
        held = set(core.store.erase.namespaces())
        seen: set[str] = set()
        undone: list[EraseAudit] = []
        for offset in range(0, core.store.erase.audit_count(None), PAGE):
            for row in core.store.erase.audit(None, limit=PAGE, offset=offset):
                if row.created_at <= since:
                    return undone
                if row.whole_namespace and row.namespace in held and row.namespace not in seen:
                    seen.add(row.namespace)
                    undone.append(row)
        return undone

    def erase_everything(self, *, actor: str | None = None) -> list[EraseResult]:
        """Erase every namespace of the store (mem0's ``reset``), one audited erase per
        namespace; the audit rows stay."""
        core = self._core
        core.check_open()
        who = _actor(actor)
        return [
            self.erase(namespace=ns, actor=who, nested=False)
            for ns in core.store.erase.namespaces()
        ]

    @scoped
    def audit(
        self,
        *,
        all_namespaces: bool = False,
        limit: int = 100,
        offset: int = 0,
        **who: Unpack[ScopeArgs],
    ) -> list[EraseAudit]:
        """The erase audit of a namespace (or of every one), newest first."""
        return self._core.store.erase.audit(
            self._audited(all_namespaces, who),
            limit=positive_int("limit", limit, upper=10_000),
            offset=offset_value(offset),
        )

    @scoped
    def audit_count(self, *, all_namespaces: bool = False, **who: Unpack[ScopeArgs]) -> int:
        """How many erase audit rows ``audit`` pages through (the list's total)."""
        return self._core.store.erase.audit_count(self._audited(all_namespaces, who))

    def _audited(self, all_namespaces: bool, who: ScopeArgs) -> str | None:
        """The namespace whose audit ``audit`` and ``audit_count`` read (None: all)."""
        core = self._core
        core.check_open()
        return None if all_namespaces else core.scope(**who).namespace

"""``mem.shared``: knowledge one agent publishes for the others (seed 002's
``SharedKnowledgeStore``; FEATURES S3).

A publication is a memory in a shared namespace (``shared:default`` unless another is
named) whose ``agent_id`` is the publisher and whose metadata says
``published_by``. ``search_shared`` recalls over a shared namespace, leaving out the
caller's own publications (``exclude_agent``); ``retract`` tombstones a publication,
and only its publisher may. Publishing and retracting each append an audit row to
the memory's history (``publish``, ``retract``), next to its ``create`` and
``delete`` events, so the record of who shared and withdrew what is never rewritten.

A publication is not the publisher's own memory, so its memory level
(``mem.agents``) does not apply. Over HTTP a key's shared space is
``user:<its user>/shared`` (any namespace it reaches works); see docs/organisation.md.

Time comes from ``self.clock`` (UTC ``datetime``), so tests move it by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from engram import write
from engram.core import Core, Part
from engram.errors import (
    CapabilityError,
    InvalidInputError,
    NotFoundError,
    PermissionDeniedError,
    shown,
)
from engram.filters import list_query, scope_filter
from engram.recall.request import RecallRequest
from engram.recall.shared import DEFAULT_SPACE, PUBLISHED_BY, space_of
from engram.records import Hit, MemoryRecord, Outcome, utcnow
from engram.validate import (
    memory_id_value,
    metadata_dict,
    name_value,
    no_nul,
    positive_int,
    query_text,
    type_name,
)

__all__ = ["DEFAULT_SPACE", "PUBLISHED_BY", "Shared", "space_of"]

#: Memories read per page while listing publications.
_PAGE = 500


def _agent(value: object, what: str = "agent_id") -> str:
    # The agents' own bound (engram.agents.MAX_NAME): a publisher is an agent id too.
    return name_value(what, value)


class Shared(Part):
    """Publish, search and retract cross-agent shared knowledge."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-moved clock."""

    def _space(self, namespace: str | None, user_id: str | None = None) -> str:
        """The shared namespace of a call: ``namespace`` when named, else the space
        recall merges for ``user_id`` (``user:<u>/shared``), else ``shared:default``;
        ``CapabilityError`` when shared knowledge is off (``[agents]
        shared_knowledge_base = false``, seed 002's switch)."""
        self._core.check_open()
        if not self._core.config.agents.shared_knowledge_base:
            raise CapabilityError(
                "shared knowledge is off here ([agents] shared_knowledge_base = false); "
                "turn it on to publish or search shared knowledge"
            )
        if namespace is None and user_id is not None:
            # A crew that scopes every call by user_id publishes where its recalls look:
            # before, the default space was shared:default, which no recall in
            # user:<u> merges, so the handoff was never seen (round twenty-eight).
            return space_of(self._core.scope(user_id=user_id).namespace)
        return self._core.scope(namespace if namespace is not None else DEFAULT_SPACE).namespace

    def publish(
        self,
        agent_id: str,
        content: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        category: str | None = None,
        type: str | None = None,
        importance: float | None = None,
    ) -> MemoryRecord:
        """Publish ``content`` as ``agent_id`` into the shared namespace; returns the
        stored publication. Publishing what the space already holds returns that one
        (with its first publisher) and adds no audit row."""
        core = self._core
        core.check_open()
        agent = _agent(agent_id)
        space = self._space(namespace, user_id)
        meta = metadata_dict(metadata)
        meta[PUBLISHED_BY] = agent
        item = {
            "content": content,
            "agent_id": agent,
            "who": agent,
            "metadata": meta,
            "tags": tags,
            "category": category,
            "type": type,
            "importance": importance,
        }
        batch = write.add_batch(core, [item], namespace=space, on_blocked="raise", checks=False)
        [result] = batch.items
        assert result.record is not None  # add_batch raised on anything else
        if result.outcome is Outcome.STORED:
            core.store.audit.record(
                space,
                result.record.id,
                "publish",
                payload={"agent_id": agent, "namespace": space},
                actor=agent,
                reason=None,
                now=self.clock(),
            )
        return result.record

    def search_shared(
        self,
        query: str,
        *,
        exclude_agent: str | None = None,
        namespace: str | None = None,
        user_id: str | None = None,
        limit: int | None = None,
        filters: Mapping[str, Any] | None = None,
    ) -> list[Hit]:
        """Ranked publications of the shared namespace for ``query``, leaving out
        those ``exclude_agent`` published (the caller's own)."""
        core = self._core
        core.check_open()
        text = query_text(query)
        excluded = None if exclude_agent is None else _agent(exclude_agent, "exclude_agent")
        scope = core.scope(self._space(namespace, user_id))
        k = positive_int("limit", limit if limit is not None else core.config.recall.limit)
        wanted = scope_filter(scope, filters)

        def matches(record: MemoryRecord) -> bool:
            publisher = record.metadata.get(PUBLISHED_BY)
            if publisher is None or publisher == excluded:
                return False
            return wanted is None or wanted(record)

        request = RecallRequest(
            query=text,
            namespace=scope.namespace,
            limit=k,
            matches=matches,
            config=core.config.recall,
        )
        return list(core.retriever.recall(request).hits)

    def retract(
        self,
        agent_id: str,
        memory_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        reason: str | None = None,
    ) -> MemoryRecord:
        """Withdraw a publication: only its publisher may (``PermissionDeniedError``
        otherwise). The memory is tombstoned and a ``retract`` audit row appended, in
        one transaction; returns the tombstoned record."""
        core = self._core
        core.check_open()
        agent = _agent(agent_id)
        space = self._space(namespace, user_id)
        record = core.get(core.scope(space), memory_id_value(memory_id))
        publisher = record.metadata.get(PUBLISHED_BY)
        if publisher is None:
            raise NotFoundError(
                f"memory {shown(record.id)} in {shown(space)} is not a shared publication"
            )
        if publisher != agent:
            raise PermissionDeniedError(
                f"only its publisher {shown(publisher)} may retract {shown(record.id)}; "
                f"{shown(agent)} did not publish it"
            )
        if reason is not None:
            if not isinstance(reason, str):
                raise InvalidInputError(f"reason must be a string, got {type_name(reason)}")
            reason = no_nul("reason", reason)
        with core.store.transaction():
            core.store.audit.record(
                space,
                record.id,
                "retract",
                payload={"agent_id": agent, "namespace": space},
                actor=agent,
                reason=reason,
                now=self.clock(),
            )
            gone = core.store.memories.delete(space, record.id, actor=agent)
        if core.index is not None:
            core.index.removed(space, record.id)
        return gone

    def publications(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        limit: int = 100,
    ) -> list[MemoryRecord]:
        """The shared namespace's live publications, newest first (``agent_id``: only
        that publisher's)."""
        core = self._core
        core.check_open()
        positive_int("limit", limit, upper=10_000)
        scope = core.scope(self._space(namespace, user_id))
        if agent_id is not None:  # one publisher: compared in SQL
            filters = {f"metadata.{PUBLISHED_BY}": _agent(agent_id)}
            return list(
                core.store.memories.select(
                    scope.namespace, list_query(scope, filters, limit, 0, False)
                )
            )
        # Any publisher: a space may also hold memories nobody published (a user's
        # namespace used as one), so pages are read until ``limit`` publications.
        found: list[MemoryRecord] = []
        offset = 0
        while len(found) < limit:
            page = core.store.memories.select(
                scope.namespace, list_query(scope, None, _PAGE, offset, False)
            )
            found += [r for r in page if r.metadata.get(PUBLISHED_BY) is not None]
            if len(page) < _PAGE:
                break
            offset += _PAGE
        return found[:limit]

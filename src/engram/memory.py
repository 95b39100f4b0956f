"""``Memory``: the library's front door (FEATURES I1).

The verbs are the everyday ones mem0 users know (``add``, ``add_many``, ``search``,
``get``, ``get_all``, ``update``, ``delete``, ``history``) plus engram's ``recall``
(ranked hits and a context block) and ``feedback`` (seed 000's thumbs). Everything else
hangs off it as a named part sharing the same core: ``mem.keys`` (API keys),
``mem.transcripts`` (raw session transcripts) and ``mem.admin`` (reindex, purge,
doctor, export, import).

The write path is raw-first (seed 004): the record is committed, then embedded outside
the transaction, then its vector is stored in a second short one.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Unpack

from engram import parts, transcripts, write
from engram.config import Config
from engram.core import Core, Scope, acting
from engram.embed import Embedder, create_embedder
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.filters import list_query, recall_filter
from engram.ids import no_memory
from engram.lifetime import Closing
from engram.palace import place_filter, pointer_cites
from engram.pipeline import hooks
from engram.recall.request import RecallRequest
from engram.recall.shared import recall_space
from engram.recall.standing import Standings
from engram.records import BatchResult, HistoryEntry, Hit, MemoryRecord, Page, Recall
from engram.scoping import ScopeArgs, ScopeIds, scoped
from engram.store import open_store
from engram.store.protocols import Store, VectorSearch
from engram.validate import (
    memory_id_value,
    no_nul,
    positive_int,
    query_text,
    rating_value,
    type_name,
)
from engram.write import OnBlocked, OnRefused, Progress

if TYPE_CHECKING:  # the parts' types; engram.parts builds them
    from engram.admin import Admin
    from engram.agents import Agents
    from engram.backend import Backend
    from engram.browse import Browse
    from engram.chat import Chat
    from engram.documents import Documents
    from engram.erasure import Erasure
    from engram.graph import Graph
    from engram.health import Health
    from engram.inject import Inject
    from engram.jobs import Jobs
    from engram.keys import Keys
    from engram.lifecycle import Lifecycle
    from engram.maintenance import Maintenance
    from engram.org import Org
    from engram.palace import Palace
    from engram.procedures import Procedures
    from engram.review import Review
    from engram.runs import Runs
    from engram.sessions import Sessions
    from engram.shared import Shared
    from engram.transcripts import Transcripts

__all__ = ["Memory", "Scope"]


class Memory(Closing):
    """Long-term memory for an agent: store verbatim, recall what matters.

    ``Memory()`` opens the default store under ``ENGRAM_HOME``; ``Memory(":memory:")``
    opens a throwaway one; ``Memory("path/to/engram.db")`` a file of your choice, and
    ``Memory("postgresql://...")`` a PostgreSQL database. Pass ``embedder=`` to plug in
    any object with ``name``, ``dimension`` and ``embed_batch``.
    """

    keys: Keys
    """API keys of ``engram serve``: create, verify, list, revoke."""
    transcripts: Transcripts
    """Raw session transcripts, kept verbatim once (seed 004)."""
    documents: Documents
    """Texts, files and URLs ingested as chunked memories (seed 004)."""
    graph: Graph
    """The temporal knowledge graph: entities, relations with validity windows."""
    admin: Admin
    jobs: Jobs
    """seed 004's job queue (extraction, hints, documents) and its worker."""
    review: Review
    """What a person reviews: held-back proposals, prune candidates, the feedback export,
    novelty of new results and the 2-D graph view (seed 000's memory panel)."""
    health: Health
    """Readiness (store and embedder) and monitoring counts (``engram serve``'s
    ``/ready`` and ``/metrics``)."""
    palace: Palace
    """seed 003's palace: wings, rooms, closets, drawers; mining and AAAK pointers."""
    runs: Runs
    """Observations from runs and their provenance: the run log, compress_and_store."""
    org: Org
    """Organisational memory: core policies in every context, role-checked writes (S4)."""
    lifecycle: Lifecycle
    """Consolidation with dual-mode archival and restore, retention rules and sweeps."""
    maintenance: Maintenance
    """Diagnostics, repairs, semantic dedup and the embedding tracker (seed 004, S10)."""
    sessions: Sessions
    """Session checkpoints, recovery digests and continuity scores (seed 004)."""
    """Housekeeping: reindex, purge, doctor, export, import, the feedback log."""
    erasure: Erasure
    """Audited hard erase of a namespace or filtered memories; its audit survives."""
    browse: Browse
    """Read-only views for browsing: reachable namespaces, filtered pages, settings."""
    backend: Backend
    """The store's lifecycle (connect, disconnect, health_check) and capabilities (S1)."""
    agents: Agents
    """Per-agent memory levels (none, session, project, persistent), enforced on writes."""
    shared: Shared
    """Knowledge agents publish for each other: publish, search_shared, retract (S3)."""
    inject: Inject
    """Injection strategies: context message, memory tools, core memory blocks (S5)."""
    procedures: Procedures
    """Procedures proposed from failures, stored as procedural memories; SKILL.md (S7)."""
    chat: Chat
    """seed 003's automatic memory around a chat turn: ``before`` and ``after``."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        config: Config | None = None,
        embedder: Embedder | None | str = "default",
        store: Store | None = None,
        allow_dimension_mismatch: bool = False,
        background: bool = False,
    ) -> None:
        config = config or Config.load()
        if isinstance(embedder, str) and embedder != "default":
            raise InvalidInputError("embedder must be an Embedder instance, None or 'default'")
        if store is None:
            location = os.fspath(path) if path is not None else config.store_path
            store = open_store(location, config)
        try:
            model = (
                create_embedder(config.embedder, config.home_path)
                if isinstance(embedder, str)
                else embedder
            )
        except BaseException:
            store.close()
            raise
        self._core = Core(config, store, model, allow_dimension_mismatch=allow_dimension_mismatch)
        hooks.wire(self._core)  # the inline linker, closing plan and decision protection
        parts.attach(self, self._core)
        if background:  # a worker thread runs the queued jobs until ``close``
            self.jobs.start()

    # -- what the parts share -------------------------------------------------------
    @property
    def config(self) -> Config:
        """The settings this memory runs with."""
        return self._core.config

    @property
    def store(self) -> Store:
        """The storage backend (its parts: ``store.memories``, ``store.vectors`` ...)."""
        return self._core.store

    @property
    def embedder(self) -> Embedder | None:
        """The embedder, or None for keyword-only recall."""
        return self._core.embedder

    @property
    def index(self) -> VectorSearch | None:
        """The dense search over this store's vectors of the embedder's model."""
        return self._core.index

    @property
    def standings(self) -> Standings | None:
        """The namespaces' profiles behind the abstain decision's store standing (issue
        24); None without a dense search."""
        return self._core.standings

    @property
    def embed_failures(self) -> int:
        """Memories stored without a vector because embedding failed (reindex fills them)."""
        return self._core.embed_failures

    @scoped
    def scope(self, namespace: str | None = None, **ids: Unpack[ScopeIds]) -> Scope:
        """Resolve the namespace rule (see ``engram.validate.namespace_for``)."""
        return self._core.scope(namespace, **ids)

    # -- lifecycle ------------------------------------------------------------------
    def close(self) -> None:
        """Close the store; later calls raise ``StoreClosedError``. Checkpoints still
        waiting out their debounce window are written first."""
        self.jobs.stop()
        try:
            self.sessions.stop_autoflush()
            if not self._core.closed:
                self.sessions.flush(force=True)
        finally:
            self._core.close()

    # -- writes ---------------------------------------------------------------------
    def add(
        self,
        /,
        content: str | Sequence[Mapping[str, Any]],
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
        type: str | None = None,
        category: str | None = None,
        importance: float | None = None,
        score: float | None = None,
        created_at: Any = None,
        **fields: Any,
    ) -> MemoryRecord:
        """Store one memory verbatim and return it.

        ``content`` is text or a list of ``{role, content}`` messages. Adding exactly the
        same content to the same namespace again returns the stored memory. Extra keyword
        fields: ``title``, ``narrative``, ``facts``, ``confidence``, ``session_id``,
        ``who``, ``why``.
        """
        item = {
            "content": content,
            "user_id": user_id,
            "agent_id": agent_id,
            "run_id": run_id,
            "metadata": metadata,
            "tags": tags,
            "type": type,
            "category": category,
            "importance": importance,
            "score": score,
            "created_at": created_at,
            **fields,
        }
        batch = self.add_many([item], namespace=namespace, on_blocked="raise")
        return batch[0]

    def add_many(
        self,
        items: Sequence[str | Mapping[str, Any]],
        *,
        namespace: str | None = None,
        progress: Progress | None = None,
        on_blocked: OnBlocked = "skip",
        on_invalid: OnRefused = "raise",
    ) -> BatchResult:
        """Store many memories: every item is validated and scanned first, then the good
        ones are written in transactions of ``BATCH`` and embedded in batches. Items are
        strings or dicts of ``add``'s arguments.

        Returns a ``BatchResult``: per item, ``stored``, ``duplicate``, ``blocked`` (the
        injection scan's reasons) or ``invalid`` (the error); iterating it gives the
        memories now stored. ``on_blocked="skip"`` (the default, which fits imports)
        stores the rest of a batch around a blocked item; ``"raise"`` raises
        ``InjectionBlocked`` and stores nothing; ``"flag"`` stores it as
        ``injection_mode = "flag"`` does (its reasons in ``metadata["injection_flags"]``,
        kept out of recall's context), for text that is a record of what was said (a
        chat log) rather than a memory to act on. ``on_invalid="raise"`` (the default)
        raises on the first invalid item and stores nothing; ``"skip"`` reports it and
        stores the rest.
        """
        return write.add_batch(
            self._core,
            items,
            namespace=namespace,
            progress=progress,
            on_blocked=on_blocked,
            on_invalid=on_invalid,
        )

    @scoped
    def update(
        self,
        memory_id: str,
        content: str | None = None,
        *,
        metadata: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
        type: str | None = None,
        category: str | None = None,
        importance: float | None = None,
        score: float | None = None,
        title: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> MemoryRecord:
        """Change a memory; the old values stay in its history. Returns the new record."""
        core = self._core
        scope = core.open_scope(**who)
        memory_id = memory_id_value(memory_id)
        changes = write.update_changes(
            core,
            content=content,
            metadata=metadata,
            tags=tags,
            type=type,
            category=category,
            importance=importance,
            score=score,
            title=title,
        )
        if "content" in changes or "title" in changes:
            changes = write.rescan(core, core.get(scope, memory_id), changes)
        _, after = core.store.memories.update(scope.namespace, memory_id, changes, actor=acting())
        if "content" in changes or "title" in changes:
            if core.index is not None:
                core.index.invalidate(scope.namespace)
            screened: list[MemoryRecord] = []
            model = core.embed_and_store([after], screened)
            after = screened[0] if screened else after
            if model is not None:
                after = after.with_changes(embedding_model=model)
        return after

    @scoped
    def delete(self, memory_id: str, **who: Unpack[ScopeArgs]) -> MemoryRecord:
        """Tombstone a memory: it leaves recall at once; ``admin.purge`` removes it for
        good. Deleting a tombstone again changes nothing and returns it (so a retried
        delete succeeds, on every surface); an id that is no memory of the namespace is a
        ``NotFoundError``."""
        core = self._core
        scope = core.open_scope(**who)
        wanted = memory_id_value(memory_id)
        try:
            record = core.store.memories.delete(scope.namespace, wanted, actor=acting())
        except NotFoundError:
            tombstone = core.store.memories.get(scope.namespace, wanted, include_deleted=True)
            if tombstone is None or not tombstone.deleted:
                raise
            return tombstone
        if core.index is not None:
            core.index.removed(scope.namespace, record.id)
        return record

    @scoped
    def feedback(
        self,
        memory_id: str,
        rating: int | str,
        comment: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> MemoryRecord:
        """Thumbs up (+1) or down (-1): quality moves by one, clamped to [-3, +3].

        A thumbs up also confirms the memory's aspects in the graph (seed 004's aspect
        feedback, ``mem.graph.aspect_feedback``), in the same transaction."""
        core = self._core
        scope = core.open_scope(**who)
        value = rating_value(rating)
        if comment is not None:
            if not isinstance(comment, str):
                raise InvalidInputError(f"comment must be a string, got {type_name(comment)}")
            comment = no_nul("comment", comment)
        with core.store.transaction():  # the rating and its aspect signal land together
            _, after = core.store.feedback.record(
                scope.namespace, memory_id_value(memory_id), value, comment
            )
            if value > 0:
                self.graph.aspect_feedback({after.id: 1}, namespace=scope.namespace)
        return after

    # -- reads ----------------------------------------------------------------------
    @scoped
    def get(self, memory_id: str, **who: Unpack[ScopeArgs]) -> MemoryRecord:
        """One live memory by id; ``NotFoundError`` if it is not in this namespace."""
        return self._core.get(self._core.open_scope(**who), memory_id)

    @scoped
    def get_all(
        self,
        *,
        filters: Mapping[str, Any] | None = None,
        limit: int = 100,
        offset: int = 0,
        include_deleted: bool = False,
        **who: Unpack[ScopeArgs],
    ) -> Page:
        """Memories of a namespace, newest first, filtered and paginated: a ``Page``,
        which is a list of the memories with ``total``, ``limit`` and ``offset``."""
        core = self._core
        scope = core.open_scope(**who)
        positive_int("limit", limit, upper=100_000)
        query = list_query(scope, filters, limit, offset, include_deleted)
        records = core.store.memories.select(scope.namespace, query)
        if offset == 0 and len(records) < limit:
            total: int | Callable[[], int] = len(records)  # the whole list is on this page
        else:
            total = functools.partial(core.store.memories.count, scope.namespace, query=query)
        return Page(records, limit=limit, offset=offset, total=total)

    @scoped
    def history(self, memory_id: str, **who: Unpack[ScopeArgs]) -> list[HistoryEntry]:
        """Every create, update, delete, feedback and dedup of a memory, oldest first."""
        core = self._core
        scope = core.open_scope(**who)
        entries = core.store.memories.history(scope.namespace, memory_id_value(memory_id))
        if not entries:
            raise NotFoundError(no_memory(memory_id, scope.namespace))
        return entries

    def search(
        self,
        /,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int = 10,
        filters: Mapping[str, Any] | None = None,
        wing: str | int | None = None,
        room: str | int | None = None,
        **overrides: Any,
    ) -> list[Hit]:
        """Ranked hits for ``query``, each with its score breakdown. Keyword
        ``overrides`` adjust recall settings for this call, as in ``recall``
        (``strategy="bm25"``, ``fusion="rrf"``, ``alpha=0.3``...)."""
        return list(
            self.recall(
                query,
                namespace=namespace,
                user_id=user_id,
                agent_id=agent_id,
                run_id=run_id,
                limit=limit,
                filters=filters,
                wing=wing,
                room=room,
                **overrides,
            ).hits
        )

    def recall(
        self,
        /,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        budget_tokens: int | None = None,
        filters: Mapping[str, Any] | None = None,
        expand: bool = False,
        wing: str | int | None = None,
        room: str | int | None = None,
        cite: str = "id",
        session_id: str | None = None,
        **overrides: Any,
    ) -> Recall:
        """The few memories that matter for ``query``, and a context block to inject.

        ``limit`` defaults to seed 000's 4. ``budget_tokens`` packs hits greedily into a
        token budget. ``expand=True`` joins the raw transcripts of the hits' sessions
        (``session_id``) into ``Recall.transcripts`` (seed 004). ``wing=``/``room=``
        keep memories filed in that place of ``mem.palace``; ``cite="pointer"`` cites
        palace drawers by AAAK pointer in the context block. Keyword ``overrides``
        adjust recall settings for this call only (``fusion="rrf"``, ``alpha=0.3``,
        ``strategy="bm25"``...). ``session_id`` records what reached the context as
        injected into that session (continuity scoring, FEATURES S13).
        """
        core = self._core
        core.check_open()
        text = query_text(query)
        scope = core.scope(namespace, user_id=user_id, agent_id=agent_id, run_id=run_id)
        k = positive_int("limit", limit if limit is not None else core.config.recall.limit)
        if budget_tokens is not None:
            positive_int("budget_tokens", budget_tokens, upper=10_000_000)
        cfg = core.config.recall_for_call(overrides)
        matches, names = recall_filter(scope, filters, ("wing", wing), ("room", room))
        request = RecallRequest(
            query=text,
            namespace=scope.namespace,
            limit=k,
            budget_tokens=budget_tokens,
            matches=matches,
            config=cfg,
            restrict=place_filter(self.palace, scope, wing, room),
            cite=_cites(self.palace, scope, cite),
            filter_names=names,
            # FEATURES S3: the namespace's shared space is ranked with it (seed 002),
            # unless the caller filtered (a narrower agent or run id alone still shares).
            shared=recall_space(
                scope.namespace,
                enabled=core.config.agents.shared_knowledge_base,
                filtered=bool(filters) or wing is not None or room is not None,
            ),
        )
        result = core.retriever.recall(request)
        if session_id is not None:
            self.sessions.injected(session_id, result.shown, namespace=scope.namespace)
        return transcripts.joined(core, result, scope.namespace) if expand else result

    # -- aliases the guides documented before the parts existed ---------------------
    @scoped
    def add_transcript(self, session_key: str, content: str, **who: Unpack[ScopeArgs]) -> bool:
        """Alias of ``transcripts.add``."""
        return self.transcripts.add(
            session_key,
            content,
            **who,
        )

    def feedback_log(self, *, namespace: str | None = None) -> list[dict[str, Any]]:
        """Alias of ``admin.feedback_log``."""
        return self.admin.feedback_log(namespace=namespace)

    def purge(self, *, namespace: str | None = None, all_namespaces: bool = False) -> int:
        """Alias of ``admin.purge``."""
        return self.admin.purge(namespace=namespace, all_namespaces=all_namespaces)

    def reindex(
        self,
        *,
        batch_size: int = write.BATCH,
        rebuild: bool = False,
        progress: Progress | None = None,
    ) -> int:
        """Alias of ``admin.reindex``."""
        return self.admin.reindex(batch_size=batch_size, rebuild=rebuild, progress=progress)

    def doctor(self) -> dict[str, Any]:
        """Alias of ``admin.doctor``."""
        return self.admin.doctor()


def _cites(palace: Palace, scope: Scope, cite: object) -> Any:
    """``cite="id"`` (the default) or ``"pointer"`` (AAAK pointers of drawers)."""
    if cite not in ("id", "pointer"):
        raise InvalidInputError(f"cite must be 'id' or 'pointer', got {shown(cite)}")
    return pointer_cites(palace, scope) if cite == "pointer" else None

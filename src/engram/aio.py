"""``AsyncMemory``: the same verbs and parts as ``Memory``, awaitable, on the same core.

Each verb is generated from the sync class's own method and runs it on a worker thread,
so the event loop never blocks on the store or the embedder and there is no second copy
of any logic (STYLE 7). Parts (``amem.keys``, ``amem.transcripts``, ``amem.admin``)
wrap the sync parts the same way.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast

from engram.admin import Admin
from engram.agents import Agents, MemoryLevel
from engram.backend import Backend
from engram.browse import Browse
from engram.chat import Chat
from engram.config import Config
from engram.documents import Documents
from engram.embed import Embedder
from engram.erasure import Erasure
from engram.graph import Graph
from engram.health import Health
from engram.inject import Blocks, Inject
from engram.jobs import Jobs
from engram.keys import Keys
from engram.lifecycle import Lifecycle
from engram.lifetime import AsyncClosing
from engram.maintenance import Maintenance
from engram.memory import Memory
from engram.org import Org
from engram.palace import Palace
from engram.procedures import Procedures
from engram.review import Review
from engram.runs import Runs
from engram.sessions import Sessions
from engram.shared import Shared
from engram.store.protocols import Store
from engram.transcripts import Transcripts

P = ParamSpec("P")
T = TypeVar("T")
S = TypeVar("S")


class Awaitable(Generic[S]):
    """An async face over a sync object ``sync``, whose verbs run on a worker thread."""

    def __init__(self, sync: S) -> None:
        self.sync = sync


def awaitable(
    method: Callable[Concatenate[S, P], T],
) -> Callable[Concatenate[Awaitable[S], P], Coroutine[Any, Any, T]]:
    """The async twin of a sync method: same signature, run with ``asyncio.to_thread``."""

    @functools.wraps(method)
    async def verb(self: Awaitable[S], *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    return cast("Callable[Concatenate[Awaitable[S], P], Coroutine[Any, Any, T]]", verb)


class AsyncKeys(Awaitable[Keys]):
    """``amem.keys``: ``Memory.keys``, awaitable."""

    create = awaitable(Keys.create)
    verify = awaitable(Keys.verify)
    remembered = awaitable(Keys.remembered)
    list = awaitable(Keys.list)
    resolve = awaitable(Keys.resolve)
    revoke = awaitable(Keys.revoke)
    ensure_admin = awaitable(Keys.ensure_admin)


class AsyncTranscripts(Awaitable[Transcripts]):
    """``amem.transcripts``: ``Memory.transcripts``, awaitable."""

    add = awaitable(Transcripts.add)
    get = awaitable(Transcripts.get)


class AsyncReview(Awaitable[Review]):
    """``amem.review``: ``Memory.review``, awaitable."""

    list = awaitable(Review.list)
    count = awaitable(Review.count)
    get = awaitable(Review.get)
    approve = awaitable(Review.approve)
    reject = awaitable(Review.reject)
    prune_candidates = awaitable(Review.prune_candidates)
    prune = awaitable(Review.prune)
    feedback_rows = awaitable(Review.feedback_rows)
    export_feedback = awaitable(Review.export_feedback)
    assess_novelty = awaitable(Review.assess_novelty)
    graph = awaitable(Review.graph)
    warm_up = awaitable(Review.warm_up)


class AsyncGraph(Awaitable[Graph]):
    """``amem.graph``: ``Memory.graph``, awaitable."""

    record = awaitable(Graph.record)
    supersede = awaitable(Graph.supersede)
    add_alias = awaitable(Graph.add_alias)
    upsert_aspect = awaitable(Graph.upsert_aspect)
    add_attribute = awaitable(Graph.add_attribute)
    entities = awaitable(Graph.entities)
    count_entities = awaitable(Graph.count_entities)
    count_relations = awaitable(Graph.count_relations)
    entity = awaitable(Graph.entity)
    relations = awaitable(Graph.relations)
    timeline = awaitable(Graph.timeline)
    neighbors = awaitable(Graph.neighbors)
    as_of = awaitable(Graph.as_of)
    memories_of = awaitable(Graph.memories_of)
    aspects = awaitable(Graph.aspects)
    attributes = awaitable(Graph.attributes)
    aspect_feedback = awaitable(Graph.aspect_feedback)
    decay_aspects = awaitable(Graph.decay_aspects)
    merge = awaitable(Graph.merge)
    split = awaitable(Graph.split)
    invalidate = awaitable(Graph.invalidate)
    dedupe = awaitable(Graph.dedupe)
    feedback_telemetry = awaitable(Graph.feedback_telemetry)


class AsyncPalace(Awaitable[Palace]):
    """``amem.palace``: ``Memory.palace``, awaitable."""

    add_wing = awaitable(Palace.add_wing)
    add_alias = awaitable(Palace.add_alias)
    tree = awaitable(Palace.tree)
    drawers = awaitable(Palace.drawers)
    mine_conversation = awaitable(Palace.mine_conversation)
    resolve = awaitable(Palace.resolve)
    pointer = awaitable(Palace.pointer)


class AsyncBlocks(Awaitable[Blocks]):
    """``amem.inject.blocks``: ``Memory.inject.blocks``, awaitable."""

    get = awaitable(Blocks.get)
    list = awaitable(Blocks.list)
    history = awaitable(Blocks.history)
    render = awaitable(Blocks.render)
    set = awaitable(Blocks.set)
    append = awaitable(Blocks.append)
    replace = awaitable(Blocks.replace)
    delete = awaitable(Blocks.delete)


class AsyncInject(Awaitable[Inject]):
    """``amem.inject``: ``Memory.inject``, awaitable (every verb of an async part is,
    ``tools`` and ``instructions`` included, so callers never guess which to await)."""

    def __init__(self, sync: Inject) -> None:
        super().__init__(sync)
        self.blocks = AsyncBlocks(sync.blocks)

    prepare = awaitable(Inject.prepare)
    context = awaitable(Inject.context)
    call = awaitable(Inject.call)
    instructions = awaitable(Inject.instructions)
    tools = awaitable(Inject.tools)


class AsyncProcedures(Awaitable[Procedures]):
    """``amem.procedures``: ``Memory.procedures``, awaitable."""

    propose = awaitable(Procedures.propose)
    get = awaitable(Procedures.get)
    list = awaitable(Procedures.list)
    write_skill = awaitable(Procedures.write_skill)


class AsyncChat(Awaitable[Chat]):
    """``amem.chat``: ``Memory.chat``, awaitable."""

    before = awaitable(Chat.before)
    after = awaitable(Chat.after)
    record = awaitable(Chat.record)
    settings = awaitable(Chat.settings)
    set_settings = awaitable(Chat.set_settings)
    reset_settings = awaitable(Chat.reset_settings)


class AsyncSessions(Awaitable[Sessions]):
    """``amem.sessions``: ``Memory.sessions``, awaitable."""

    track = awaitable(Sessions.track)
    injected = awaitable(Sessions.injected)
    checkpoint = awaitable(Sessions.checkpoint)
    flush = awaitable(Sessions.flush)
    checkpoints = awaitable(Sessions.checkpoints)
    list = awaitable(Sessions.list)
    recover = awaitable(Sessions.recover)
    prune = awaitable(Sessions.prune)
    end = awaitable(Sessions.end)
    score = awaitable(Sessions.score)
    injected_memories = awaitable(Sessions.injected_memories)


class AsyncLifecycle(Awaitable[Lifecycle]):
    """``amem.lifecycle``: ``Memory.lifecycle``, awaitable."""

    consolidate = awaitable(Lifecycle.consolidate)
    archived = awaitable(Lifecycle.archived)
    restore = awaitable(Lifecycle.restore)
    set_retention = awaitable(Lifecycle.set_retention)
    rules = awaitable(Lifecycle.rules)
    retention = awaitable(Lifecycle.retention)
    due = awaitable(Lifecycle.due)
    upkeep = awaitable(Lifecycle.upkeep)
    decay_aspects = awaitable(Lifecycle.decay_aspects)
    status = awaitable(Lifecycle.status)


class AsyncMaintenance(Awaitable[Maintenance]):
    """``amem.maintenance``: ``Memory.maintenance``, awaitable."""

    diagnose = awaitable(Maintenance.diagnose)
    run = awaitable(Maintenance.run)
    dedup = awaitable(Maintenance.dedup)
    track = awaitable(Maintenance.track)
    tracker_stats = awaitable(Maintenance.tracker_stats)
    runs = awaitable(Maintenance.runs)
    status = awaitable(Maintenance.status)
    halts = awaitable(Maintenance.halts)
    resume = awaitable(Maintenance.resume)
    reindex_vectors = awaitable(Maintenance.reindex_vectors)
    upkeep = awaitable(Maintenance.upkeep)


class AsyncBackend(Awaitable[Backend]):
    """``amem.backend``: ``Memory.backend``, awaitable (``backend_name`` and
    ``is_connected`` are plain properties: they make no round trip)."""

    connect = awaitable(Backend.connect)
    disconnect = awaitable(Backend.disconnect)
    health_check = awaitable(Backend.health_check)
    capabilities = awaitable(Backend.capabilities)
    require = awaitable(Backend.require)
    status = awaitable(Backend.status)

    @property
    def backend_name(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.sync.backend_name

    @property
    def is_connected(self) -> bool:
        """True while the store holds its connection."""
        return self.sync.is_connected


class AsyncAgents(Awaitable[Agents]):
    """``amem.agents``: ``Memory.agents``, awaitable."""

    set_level = awaitable(Agents.set_level)
    reset = awaitable(Agents.reset)
    profile = awaitable(Agents.profile)
    level = awaitable(Agents.level)
    list_levels = awaitable(Agents.list_levels)
    namespace = awaitable(Agents.namespace)
    end_session = awaitable(Agents.end_session)
    refresh = awaitable(Agents.refresh)

    @property
    def default_level(self) -> MemoryLevel:
        """The level of agents that never set one."""
        return self.sync.default_level


class AsyncShared(Awaitable[Shared]):
    """``amem.shared``: ``Memory.shared``, awaitable."""

    publish = awaitable(Shared.publish)
    search_shared = awaitable(Shared.search_shared)
    retract = awaitable(Shared.retract)
    publications = awaitable(Shared.publications)


class AsyncOrg(Awaitable[Org]):
    """``amem.org``: ``Memory.org``, awaitable."""

    write = awaitable(Org.write)
    retract = awaitable(Org.retract)
    list_policies = awaitable(Org.list_policies)
    facts = awaitable(Org.facts)
    query = awaitable(Org.query)
    get = awaitable(Org.get)
    history = awaitable(Org.history)
    audit = awaitable(Org.audit)
    policy_block = awaitable(Org.policy_block)
    create_agent_key = awaitable(Org.create_agent_key)
    author_for_key = awaitable(Org.author_for_key)


class AsyncRuns(Awaitable[Runs]):
    """``amem.runs``: ``Memory.runs``, awaitable."""

    record_run = awaitable(Runs.record_run)
    get = awaitable(Runs.get)
    list = awaitable(Runs.list)
    count = awaitable(Runs.count)
    delete = awaitable(Runs.delete)
    log_memory_hits = awaitable(Runs.log_memory_hits)
    run_of = awaitable(Runs.run_of)
    compress_and_store = awaitable(Runs.compress_and_store)
    get_context = awaitable(Runs.get_context)


class AsyncBrowse(Awaitable[Browse]):
    """``amem.browse``: ``Memory.browse``, awaitable."""

    namespaces = awaitable(Browse.namespaces)
    memories = awaitable(Browse.memories)
    settings = awaitable(Browse.settings)


class AsyncHealth(Awaitable[Health]):
    """``amem.health``: ``Memory.health``, awaitable."""

    ready = awaitable(Health.ready)
    snapshot = awaitable(Health.snapshot)


class AsyncJobs(Awaitable[Jobs]):
    """``amem.jobs``: ``Memory.jobs``, awaitable."""

    list = awaitable(Jobs.list)
    get = awaitable(Jobs.get)
    counts = awaitable(Jobs.counts)
    status = awaitable(Jobs.status)
    retry = awaitable(Jobs.retry)
    process_pending = awaitable(Jobs.process_pending)
    start = awaitable(Jobs.start)
    stop = awaitable(Jobs.stop)

    @property
    def running(self) -> bool:
        """True while the background worker runs."""
        return self.sync.running


class AsyncDocuments(Awaitable[Documents]):
    """``amem.documents``: ``Memory.documents``, awaitable."""

    ingest = awaitable(Documents.ingest)
    get = awaitable(Documents.get)
    chunks = awaitable(Documents.chunks)
    list = awaitable(Documents.list)
    of_source = awaitable(Documents.of_source)
    count = awaitable(Documents.count)
    process = awaitable(Documents.process)
    delete = awaitable(Documents.delete)


class AsyncErasure(Awaitable[Erasure]):
    """``amem.erasure``: ``Memory.erasure``, awaitable."""

    erase = awaitable(Erasure.erase)
    erase_everything = awaitable(Erasure.erase_everything)
    audit = awaitable(Erasure.audit)
    audit_count = awaitable(Erasure.audit_count)
    nested = awaitable(Erasure.nested)
    undone_since = awaitable(Erasure.undone_since)


class AsyncAdmin(Awaitable[Admin]):
    """``amem.admin``: ``Memory.admin``, awaitable."""

    purge = awaitable(Admin.purge)
    feedback_log = awaitable(Admin.feedback_log)
    reindex = awaitable(Admin.reindex)
    resolve_id = awaitable(Admin.resolve_id)
    backfill = awaitable(Admin.backfill)
    warm_indexes = awaitable(Admin.warm_indexes)
    doctor = awaitable(Admin.doctor)
    export_jsonl = awaitable(Admin.export_jsonl)
    import_jsonl = awaitable(Admin.import_jsonl)

    @property
    def location(self) -> str:
        """Where the store lives."""
        return self.sync.location


class AsyncMemory(Awaitable[Memory], AsyncClosing):
    """Async front door: ``await mem.add(...)``, ``await mem.recall(...)``,
    ``await mem.keys.create(...)``."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        config: Config | None = None,
        embedder: Embedder | None | str = "default",
        store: Store | None = None,
    ) -> None:
        super().__init__(Memory(path, config=config, embedder=embedder, store=store))
        self.keys = AsyncKeys(self.sync.keys)
        self.transcripts = AsyncTranscripts(self.sync.transcripts)
        self.admin = AsyncAdmin(self.sync.admin)
        self.graph = AsyncGraph(self.sync.graph)
        self.review = AsyncReview(self.sync.review)
        self.jobs = AsyncJobs(self.sync.jobs)
        self.documents = AsyncDocuments(self.sync.documents)
        self.palace = AsyncPalace(self.sync.palace)
        self.runs = AsyncRuns(self.sync.runs)
        self.sessions = AsyncSessions(self.sync.sessions)
        self.lifecycle = AsyncLifecycle(self.sync.lifecycle)
        self.maintenance = AsyncMaintenance(self.sync.maintenance)
        self.org = AsyncOrg(self.sync.org)
        self.health = AsyncHealth(self.sync.health)
        self.browse = AsyncBrowse(self.sync.browse)
        self.erasure = AsyncErasure(self.sync.erasure)
        self.backend = AsyncBackend(self.sync.backend)
        self.agents = AsyncAgents(self.sync.agents)
        self.shared = AsyncShared(self.sync.shared)
        self.inject = AsyncInject(self.sync.inject)
        self.procedures = AsyncProcedures(self.sync.procedures)
        self.chat = AsyncChat(self.sync.chat)

    add = awaitable(Memory.add)
    add_many = awaitable(Memory.add_many)
    search = awaitable(Memory.search)
    recall = awaitable(Memory.recall)
    get = awaitable(Memory.get)
    get_all = awaitable(Memory.get_all)
    update = awaitable(Memory.update)
    delete = awaitable(Memory.delete)
    history = awaitable(Memory.history)
    feedback = awaitable(Memory.feedback)
    feedback_log = awaitable(Memory.feedback_log)
    purge = awaitable(Memory.purge)
    reindex = awaitable(Memory.reindex)
    doctor = awaitable(Memory.doctor)
    add_transcript = awaitable(Memory.add_transcript)
    close = awaitable(Memory.close)

    async def _aclose(self) -> None:
        await self.close()

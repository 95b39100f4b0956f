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
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast

from engram.admin import Admin
from engram.config import Config
from engram.documents import Documents
from engram.embed import Embedder
from engram.graph import Graph
from engram.jobs import Jobs
from engram.keys import Keys
from engram.memory import Memory
from engram.palace import Palace
from engram.review import Review
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
    list = awaitable(Keys.list)
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
    count = awaitable(Documents.count)
    process = awaitable(Documents.process)
    delete = awaitable(Documents.delete)


class AsyncAdmin(Awaitable[Admin]):
    """``amem.admin``: ``Memory.admin``, awaitable."""

    purge = awaitable(Admin.purge)
    feedback_log = awaitable(Admin.feedback_log)
    reindex = awaitable(Admin.reindex)
    resolve_id = awaitable(Admin.resolve_id)
    backfill = awaitable(Admin.backfill)
    doctor = awaitable(Admin.doctor)
    export_jsonl = awaitable(Admin.export_jsonl)
    import_jsonl = awaitable(Admin.import_jsonl)

    @property
    def location(self) -> str:
        """Where the store lives."""
        return self.sync.location


class AsyncMemory(Awaitable[Memory]):
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

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

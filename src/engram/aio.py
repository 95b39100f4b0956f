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
from engram.embed import Embedder
from engram.keys import Keys
from engram.memory import Memory
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

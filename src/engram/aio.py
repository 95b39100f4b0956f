"""``AsyncMemory``: the same verbs as ``Memory``, awaitable, on the same core.

Each verb is generated from ``Memory``'s own method and runs it on a worker thread, so
the event loop never blocks on SQLite or the embedder and there is no second copy of any
logic (STYLE 7).
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from engram.config import Config
from engram.embed import Embedder
from engram.memory import Memory
from engram.store.base import Store

P = ParamSpec("P")
T = TypeVar("T")


def _awaitable(
    method: Callable[Concatenate[Memory, P], T],
) -> Callable[Concatenate[AsyncMemory, P], Coroutine[Any, Any, T]]:
    @functools.wraps(method)
    async def verb(self: AsyncMemory, *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    return cast("Callable[Concatenate[AsyncMemory, P], Coroutine[Any, Any, T]]", verb)


class AsyncMemory:
    """Async front door: ``await mem.add(...)``, ``await mem.recall(...)``."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        config: Config | None = None,
        embedder: Embedder | None | str = "default",
        store: Store | None = None,
    ) -> None:
        self.sync = Memory(path, config=config, embedder=embedder, store=store)

    add = _awaitable(Memory.add)
    add_many = _awaitable(Memory.add_many)
    add_many_results = _awaitable(Memory.add_many_results)
    search = _awaitable(Memory.search)
    recall = _awaitable(Memory.recall)
    get = _awaitable(Memory.get)
    get_all = _awaitable(Memory.get_all)
    update = _awaitable(Memory.update)
    delete = _awaitable(Memory.delete)
    history = _awaitable(Memory.history)
    feedback = _awaitable(Memory.feedback)
    feedback_log = _awaitable(Memory.feedback_log)
    purge = _awaitable(Memory.purge)
    reindex = _awaitable(Memory.reindex)
    doctor = _awaitable(Memory.doctor)
    add_transcript = _awaitable(Memory.add_transcript)
    close = _awaitable(Memory.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

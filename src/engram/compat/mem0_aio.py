"""mem0's ``AsyncMemory`` on engram: ``engram.compat.mem0.Memory``'s verbs, awaitable.

mem0 ships ``AsyncMemory`` beside ``Memory`` with the same verbs and shapes, awaited
(``await m.add(...)``); async agent code switching over changed only its import and
failed at it (new-user pass, round three). Each verb here runs the sync door's own
method on a worker thread, as ``engram.AsyncMemory`` does, so there is no second copy
of the mem0 mapping and the event loop never blocks on the store or the embedder.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from engram.aio import Awaitable, awaitable
from engram.compat.mem0 import Memory
from engram.lifetime import AsyncClosing


class AsyncMemory(Awaitable[Memory], AsyncClosing):
    """mem0's ``AsyncMemory``: ``AsyncMemory()`` opens engram's default store; ``path``,
    ``config``, ``embedder`` and ``memory=`` as ``engram.compat.mem0.Memory`` takes
    them. ``engram`` gives the wrapped native memory; ``async with`` closes it."""

    def __init__(self, path: str | os.PathLike[str] | None = None, **options: Any) -> None:
        # The options are the sync door's own (memory=, config=, embedder=), checked there.
        super().__init__(Memory(path, **options))
        self.engram = self.sync.engram

    add = awaitable(Memory.add)
    search = awaitable(Memory.search)
    get = awaitable(Memory.get)
    get_all = awaitable(Memory.get_all)
    update = awaitable(Memory.update)
    delete = awaitable(Memory.delete)
    delete_all = awaitable(Memory.delete_all)
    history = awaitable(Memory.history)
    reset = awaitable(Memory.reset)

    async def close(self) -> None:
        """Close the store if this door opened it."""
        await asyncio.to_thread(self.sync.close)

    async def _aclose(self) -> None:
        await self.close()

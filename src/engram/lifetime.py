"""``with`` and ``async with`` support written once: what holds a store or a connection
pool closes it on the way out of the block (``Memory``, the mem0 door, ``EngramClient``;
``AsyncMemory`` and ``AsyncEngramClient``)."""

from __future__ import annotations

from collections.abc import Generator
from types import TracebackType
from typing import Self


class Closing:
    """A ``with`` block returns the object and calls its ``close()`` on the way out,
    whether the block ended or raised."""

    def close(self) -> None:
        """Release what the object holds; subclasses say what."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class AsyncClosing:
    """An ``async with`` block returns the object and awaits ``_aclose()`` on the way
    out, whether the block ended or raised (the public name differs: ``close`` on
    ``AsyncMemory``, ``aclose`` on ``AsyncEngramClient``, as httpx names it)."""

    async def _aclose(self) -> None:
        """Release what the object holds; subclasses say what."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._aclose()


class Closed:
    """What a ``close()`` that closes at once returns where callers may ``await`` it
    (mem0's ``AsyncMemory.close()`` is a plain method; code written for a coroutine
    awaits it): awaiting it returns None at once."""

    def __await__(self) -> Generator[None, None, None]:
        yield from ()

"""``AsyncEngramClient``: ``EngramClient``'s verbs, awaitable, from the same core."""

from __future__ import annotations

import asyncio
from typing import TypeVar

import httpx

from engram.client.base import Awaiting, BaseClient
from engram.client.call import Call
from engram.client.transport import Settings, answer, build
from engram.lifetime import AsyncClosing

T = TypeVar("T")


class AsyncEngramClient(BaseClient[Awaiting], AsyncClosing):
    """``EngramClient`` for asyncio (and trio, through httpx): every verb is a coroutine.

    ``transport=`` takes any async ``httpx`` transport, e.g.
    ``httpx.ASGITransport(app=create_app(memory))`` to call an app in-process.
    Use it with ``async with`` or ``await client.aclose()``.
    """

    _awaits = True

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        retries: int = 2,
    ) -> None:
        super().__init__(Settings.of(base_url, api_key, timeout, retries))
        self._http = httpx.AsyncClient(**self._settings.http_options, transport=transport)

    async def _send(self, call: Call[T]) -> T:
        request = build(self._http, call)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self._http.send(request)
            except httpx.TransportError as exc:
                await asyncio.sleep(self._settings.retry_pause(call, request, exc, attempt))
            else:
                return answer(call, response)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def _aclose(self) -> None:
        await self.aclose()

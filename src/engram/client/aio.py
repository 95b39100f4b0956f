"""``AsyncEngramClient``: ``EngramClient``'s verbs, awaitable, from the same builders."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import TypeVar

import httpx

from engram.client import graph_verbs as gv
from engram.client import part_verbs as pv
from engram.client import verbs
from engram.client.call import Call
from engram.client.transport import (
    RETRYABLE,
    AsyncSends,
    Settings,
    answer,
    async_verb,
    build,
    failed,
)

T = TypeVar("T")


class _AsyncPart(AsyncSends):
    """A part of the async client: its verbs go through the client."""

    def __init__(self, client: AsyncEngramClient) -> None:
        self._client = client

    async def _send(self, call: Call[T]) -> T:
        return await self._client._send(call)


class AsyncJobs(_AsyncPart):
    """``client.jobs``, awaitable."""

    list = async_verb(pv.jobs_list)
    get = async_verb(pv.jobs_get)
    retry = async_verb(pv.jobs_retry)
    status = async_verb(pv.jobs_status)


class AsyncReview(_AsyncPart):
    """``client.review``, awaitable."""

    list = async_verb(pv.review_list)
    count = async_verb(pv.review_count)
    get = async_verb(pv.review_get)
    approve = async_verb(pv.review_approve)
    reject = async_verb(pv.review_reject)


class AsyncDocuments(_AsyncPart):
    """``client.documents``, awaitable."""

    ingest = async_verb(pv.documents_ingest)
    get = async_verb(pv.documents_get)
    list = async_verb(pv.documents_list)
    count = async_verb(pv.documents_count)


class AsyncGraph(_AsyncPart):
    """``client.graph``, awaitable."""

    entities = async_verb(gv.graph_entities)
    entity = async_verb(gv.graph_entity)
    relations = async_verb(gv.graph_relations)
    timeline = async_verb(gv.graph_timeline)
    neighbors = async_verb(gv.graph_neighbors)
    merge = async_verb(gv.graph_merge)
    split = async_verb(gv.graph_split)
    invalidate = async_verb(gv.graph_invalidate)
    dedupe = async_verb(gv.graph_dedupe)


class AsyncPalace(_AsyncPart):
    """``client.palace``, awaitable."""

    tree = async_verb(gv.palace_tree)
    mine_conversation = async_verb(gv.palace_mine_conversation)
    resolve = async_verb(gv.palace_resolve)


class AsyncTranscripts(_AsyncPart):
    """``client.transcripts``, awaitable."""

    add = async_verb(verbs.add_transcript)


class AsyncAdmin(_AsyncPart):
    """``client.admin``, awaitable."""

    feedback_log = async_verb(verbs.feedback_log)
    purge = async_verb(verbs.purge)
    reindex = async_verb(verbs.reindex)
    doctor = async_verb(verbs.doctor)


class AsyncEngramClient(AsyncSends):
    """``EngramClient`` for asyncio (and trio, through httpx): every verb is a coroutine.

    ``transport=`` takes any async ``httpx`` transport, e.g.
    ``httpx.ASGITransport(app=create_app(memory))`` to call an app in-process.
    Use it with ``async with`` or ``await client.aclose()``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        retries: int = 2,
    ) -> None:
        self._settings = Settings.of(base_url, api_key, timeout, retries)
        self._http = httpx.AsyncClient(
            base_url=self._settings.base_url,
            headers=self._settings.headers,
            timeout=timeout,
            transport=transport,
        )
        self.jobs = AsyncJobs(self)
        self.review = AsyncReview(self)
        self.documents = AsyncDocuments(self)
        self.graph = AsyncGraph(self)
        self.palace = AsyncPalace(self)
        self.transcripts = AsyncTranscripts(self)
        self.admin = AsyncAdmin(self)

    async def _send(self, call: Call[T]) -> T:
        request = build(self._http, call)
        attempts = self._settings.attempts(call)
        for attempt in range(1, attempts + 1):
            try:
                response = await self._http.send(request)
            except RETRYABLE as exc:
                if attempt == attempts:
                    raise failed(request, exc, attempt) from exc
                await asyncio.sleep(self._settings.pause(attempt))
            except httpx.TransportError as exc:
                raise failed(request, exc, attempt) from exc
            else:
                return answer(call, response)
        raise AssertionError("unreachable: the last attempt returns or raises")

    add = async_verb(verbs.add)
    add_many = async_verb(verbs.add_many)
    search = async_verb(verbs.search)
    recall = async_verb(verbs.recall)
    get = async_verb(verbs.get)
    get_all = async_verb(verbs.get_all)
    update = async_verb(verbs.update)
    delete = async_verb(verbs.delete)
    history = async_verb(verbs.history)
    feedback = async_verb(verbs.feedback)
    add_transcript = async_verb(verbs.add_transcript)
    feedback_log = async_verb(verbs.feedback_log)
    purge = async_verb(verbs.purge)
    reindex = async_verb(verbs.reindex)
    doctor = async_verb(verbs.doctor)
    health = async_verb(verbs.health)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncEngramClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

"""``EngramClient``: ``Memory``'s verbs over the HTTP API, blocking."""

from __future__ import annotations

import time
from types import TracebackType
from typing import TypeVar

import httpx

from engram.client import graph_verbs as gv
from engram.client import part_verbs as pv
from engram.client import verbs
from engram.client.call import Call
from engram.client.transport import (
    RETRYABLE,
    Settings,
    SyncSends,
    answer,
    build,
    failed,
    sync_verb,
)

T = TypeVar("T")


class _Part(SyncSends):
    """A part of the client (``client.jobs``...): its verbs go through the client."""

    def __init__(self, client: EngramClient) -> None:
        self._client = client

    def _send(self, call: Call[T]) -> T:
        return self._client._send(call)


class Jobs(_Part):
    """``client.jobs``: the job queue (``mem.jobs``)."""

    list = sync_verb(pv.jobs_list)
    get = sync_verb(pv.jobs_get)
    retry = sync_verb(pv.jobs_retry)
    status = sync_verb(pv.jobs_status)


class Review(_Part):
    """``client.review``: proposals held back for a person (``mem.review``)."""

    list = sync_verb(pv.review_list)
    count = sync_verb(pv.review_count)
    get = sync_verb(pv.review_get)
    approve = sync_verb(pv.review_approve)
    reject = sync_verb(pv.review_reject)


class Documents(_Part):
    """``client.documents``: document ingest (``mem.documents``)."""

    ingest = sync_verb(pv.documents_ingest)
    get = sync_verb(pv.documents_get)
    list = sync_verb(pv.documents_list)
    count = sync_verb(pv.documents_count)


class Graph(_Part):
    """``client.graph``: the knowledge graph (``mem.graph``), as the API's models."""

    entities = sync_verb(gv.graph_entities)
    entity = sync_verb(gv.graph_entity)
    relations = sync_verb(gv.graph_relations)
    timeline = sync_verb(gv.graph_timeline)
    neighbors = sync_verb(gv.graph_neighbors)
    merge = sync_verb(gv.graph_merge)
    split = sync_verb(gv.graph_split)
    invalidate = sync_verb(gv.graph_invalidate)
    dedupe = sync_verb(gv.graph_dedupe)


class Palace(_Part):
    """``client.palace``: wings, rooms and drawers (``mem.palace``)."""

    tree = sync_verb(gv.palace_tree)
    mine_conversation = sync_verb(gv.palace_mine_conversation)
    resolve = sync_verb(gv.palace_resolve)


class Transcripts(_Part):
    """``client.transcripts``: raw session transcripts (``mem.transcripts``)."""

    add = sync_verb(verbs.add_transcript)


class Admin(_Part):
    """``client.admin``: housekeeping over HTTP (purge, reindex, doctor: admin keys)."""

    feedback_log = sync_verb(verbs.feedback_log)
    purge = sync_verb(verbs.purge)
    reindex = sync_verb(verbs.reindex)
    doctor = sync_verb(verbs.doctor)


class EngramClient(SyncSends):
    """``Memory``'s verbs against an engram server, returning the library's records.

    ``EngramClient("http://127.0.0.1:8765", api_key)`` talks to ``engram serve``;
    ``transport=`` takes any ``httpx`` transport (``httpx.WSGITransport``, a proxy's,
    a test's). Errors are the library's ``EngramError`` tree with the server's message;
    a server out of reach is ``ServerConnectionError``, after ``retries`` more tries
    for a GET. Close it, or use it as a context manager.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        transport: httpx.BaseTransport | None = None,
        retries: int = 2,
    ) -> None:
        self._settings = Settings.of(base_url, api_key, timeout, retries)
        self._http = httpx.Client(
            base_url=self._settings.base_url,
            headers=self._settings.headers,
            timeout=timeout,
            transport=transport,
        )
        self.jobs = Jobs(self)
        self.review = Review(self)
        self.documents = Documents(self)
        self.graph = Graph(self)
        self.palace = Palace(self)
        self.transcripts = Transcripts(self)
        self.admin = Admin(self)

    def _send(self, call: Call[T]) -> T:
        request = build(self._http, call)
        attempts = self._settings.attempts(call)
        for attempt in range(1, attempts + 1):
            try:
                response = self._http.send(request)
            except RETRYABLE as exc:
                if attempt == attempts:
                    raise failed(request, exc, attempt) from exc
                time.sleep(self._settings.pause(attempt))
            except httpx.TransportError as exc:
                raise failed(request, exc, attempt) from exc
            else:
                return answer(call, response)
        raise AssertionError("unreachable: the last attempt returns or raises")

    add = sync_verb(verbs.add)
    add_many = sync_verb(verbs.add_many)
    search = sync_verb(verbs.search)
    recall = sync_verb(verbs.recall)
    get = sync_verb(verbs.get)
    get_all = sync_verb(verbs.get_all)
    update = sync_verb(verbs.update)
    delete = sync_verb(verbs.delete)
    history = sync_verb(verbs.history)
    feedback = sync_verb(verbs.feedback)
    add_transcript = sync_verb(verbs.add_transcript)
    feedback_log = sync_verb(verbs.feedback_log)
    purge = sync_verb(verbs.purge)
    reindex = sync_verb(verbs.reindex)
    doctor = sync_verb(verbs.doctor)
    health = sync_verb(verbs.health)

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> EngramClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

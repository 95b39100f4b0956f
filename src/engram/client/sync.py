"""``EngramClient``: ``Memory``'s verbs over the HTTP API, blocking."""

from __future__ import annotations

import time
from typing import TypeVar

import httpx

from engram.client.base import BaseClient, Blocking
from engram.client.call import Call
from engram.client.transport import Settings, answer, build
from engram.lifetime import Closing

T = TypeVar("T")


class EngramClient(BaseClient[Blocking], Closing):
    """``Memory``'s verbs against an engram server, returning the library's records.

    ``EngramClient("http://127.0.0.1:8765", api_key)`` talks to ``engram serve``;
    ``transport=`` takes any ``httpx`` transport (``httpx.WSGITransport``, a proxy's,
    a test's). Errors are the library's ``EngramError`` tree with the server's message;
    a server out of reach is ``ServerConnectionError``, after ``retries`` more tries
    for a GET. Close it, or use it as a context manager.
    """

    _awaits = False

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        transport: httpx.BaseTransport | None = None,
        retries: int = 2,
    ) -> None:
        super().__init__(Settings.of(base_url, api_key, timeout, retries))
        self._http = httpx.Client(**self._settings.http_options, transport=transport)

    def _send(self, call: Call[T]) -> T:
        request = build(self._http, call)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.send(request)
            except httpx.TransportError as exc:
                time.sleep(self._settings.retry_pause(call, request, exc, attempt))
            else:
                return answer(call, response)

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

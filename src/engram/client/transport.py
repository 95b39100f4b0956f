"""What the sync and async clients share about HTTP: settings, request building,
answers, and when to retry. The clients only send, sleep and close (``engram.client.base``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx
from pydantic import ValidationError

from engram._version import __version__
from engram.client.call import Call
from engram.client.failures import from_response, unreachable
from engram.errors import EngramError, InvalidInputError

T = TypeVar("T")

#: Connection failures after which a GET is sent again: the request did not reach the
#: server, or the connection broke before an answer. Timeouts are not retried: a slow
#: server is not helped by more requests.
RETRYABLE = (httpx.NetworkError, httpx.ConnectTimeout, httpx.RemoteProtocolError)

#: Seconds to wait before the second, third... try of a GET.
BACKOFF = 0.1
BACKOFF_MAX = 2.0


@dataclass(frozen=True, slots=True)
class Settings:
    """How a client reaches the server."""

    base_url: str
    headers: dict[str, str]
    timeout: float | httpx.Timeout
    retries: int

    @classmethod
    def of(
        cls, base_url: str, api_key: str | None, timeout: float | httpx.Timeout, retries: int
    ) -> Settings:
        """Checked settings, or ``InvalidInputError`` saying what to fix."""
        if not isinstance(base_url, str) or urlsplit(base_url).scheme not in ("http", "https"):
            raise InvalidInputError(
                f"base_url must be an http(s) URL such as http://127.0.0.1:8765, got {base_url!r}"
            )
        if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= 10:
            raise InvalidInputError(f"retries must be an integer from 0 to 10, got {retries!r}")
        headers = {"User-Agent": f"engram-client/{__version__}"}
        if api_key is not None:
            if not isinstance(api_key, str) or not api_key.strip():
                raise InvalidInputError("api_key must be a non-empty string (or None)")
            headers["Authorization"] = f"Bearer {api_key.strip()}"
        return cls(base_url.rstrip("/"), headers, timeout, retries)

    def attempts(self, call: Call[Any]) -> int:
        """How many times ``call`` may be sent: only a GET is tried again."""
        return 1 + self.retries if call.idempotent else 1

    @staticmethod
    def pause(attempt: int) -> float:
        """The wait after failed try number ``attempt`` (1, 2, ...)."""
        return float(min(BACKOFF * 2 ** (attempt - 1), BACKOFF_MAX))

    @property
    def http_options(self) -> dict[str, Any]:
        """The keywords of ``httpx.Client`` and ``httpx.AsyncClient`` these settings give."""
        return {"base_url": self.base_url, "headers": self.headers, "timeout": self.timeout}

    def retry_pause(
        self, call: Call[Any], request: httpx.Request, exc: httpx.TransportError, attempt: int
    ) -> float:
        """The wait before sending ``call`` again after ``exc`` on try ``attempt``, or the
        ``ServerConnectionError`` to raise: only a GET is retried, only after a
        ``RETRYABLE`` failure, and at most ``retries`` times."""
        if isinstance(exc, RETRYABLE) and attempt < self.attempts(call):
            return self.pause(attempt)
        raise failed(request, exc, attempt) from exc


def build(http: httpx.Client | httpx.AsyncClient, call: Call[Any]) -> httpx.Request:
    """The ``httpx.Request`` of ``call``."""
    return http.build_request(call.method, call.path, params=call.params, json=call.body)


def answer(call: Call[T], response: httpx.Response) -> T:
    """The decoded answer, or the ``EngramError`` the server reported."""
    if not response.is_success:
        raise from_response(response)
    try:
        return call.decode(response.json())
    except (ValueError, ValidationError, KeyError, TypeError) as exc:
        raise EngramError(
            f"the answer to {call.method} {call.path} (HTTP {response.status_code}) is not "
            f"what engram.client {__version__} expects; is the server another engram "
            f"version? {exc}"
        ) from None


def failed(request: httpx.Request, exc: httpx.TransportError, attempt: int) -> EngramError:
    """A transport error as ``ServerConnectionError``."""
    return unreachable(request, exc, attempt)

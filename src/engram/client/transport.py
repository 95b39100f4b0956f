"""What the sync and async clients share: settings, request building, answers, retries.

``sync_verb`` and ``async_verb`` turn a ``Call`` builder into a method of a client or
of one of its parts; the builder is the verb's only definition (STYLE 7).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar, cast
from urllib.parse import urlsplit

import httpx
from pydantic import ValidationError

from engram._version import __version__
from engram.client.call import Call
from engram.client.failures import from_response, unreachable
from engram.errors import EngramError, InvalidInputError

P = ParamSpec("P")
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


class SyncSends:
    """Something whose verbs send ``Call``s and wait for the answer."""

    def _send(self, call: Call[T]) -> T:
        raise NotImplementedError


class AsyncSends:
    """Something whose verbs send ``Call``s and await the answer."""

    async def _send(self, call: Call[T]) -> T:
        raise NotImplementedError


def _with_self(verb: Callable[..., Any], builder: Callable[..., Any]) -> None:
    """Give ``verb`` the builder's signature with ``self`` first, so ``help()`` and
    ``inspect.signature`` show a method's parameters."""
    signature = inspect.signature(builder)
    own = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    verb.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[own, *signature.parameters.values()]
    )


def sync_verb(builder: Callable[P, Call[T]]) -> Callable[Concatenate[SyncSends, P], T]:
    """A blocking method from a ``Call`` builder: same parameters, the decoded answer."""

    @functools.wraps(builder)
    def verb(self: SyncSends, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._send(builder(*args, **kwargs))

    _with_self(verb, builder)
    return cast("Callable[Concatenate[SyncSends, P], T]", verb)


def async_verb(
    builder: Callable[P, Call[T]],
) -> Callable[Concatenate[AsyncSends, P], Coroutine[Any, Any, T]]:
    """An async method from a ``Call`` builder: same parameters, the decoded answer."""

    @functools.wraps(builder)
    async def verb(self: AsyncSends, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._send(builder(*args, **kwargs))

    _with_self(verb, builder)
    return cast("Callable[Concatenate[AsyncSends, P], Coroutine[Any, Any, T]]", verb)

"""``engram.api.errors`` in reverse: an error answer becomes the ``EngramError`` it was.

The server answers every error with ``{"error": code, "detail": message}``; the code is
the ``code`` of the library's exception class (``not_found``, ``invalid_input``,
``injection_blocked``...), so the client raises that same class with the server's
message. Codes the tree does not hold (``invalid_json``, ``payload_too_large``, a newer
server's) fall back on the status: 401 ``AuthenticationError``, 403
``PermissionDeniedError``, 404 ``NotFoundError``, 400/413/422 ``InvalidInputError``,
501 ``CapabilityError``, 502 ``LlmError``, 503 ``EmbeddingError``; anything else is an
``EngramError`` naming the status. Connection failures become
``ServerConnectionError``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import httpx

from engram.api.errors import STATUS
from engram.errors import EngramError, InjectionBlocked, InvalidInputError, ServerConnectionError

#: The class of an error answer whose code the tree does not hold, by HTTP status: the
#: server's own table (``engram.api.errors.STATUS``) read backwards, its first class for
#: a status winning (503: ``EmbeddingError``), and the statuses the server gives a
#: request it cannot read (400 not JSON, 413 too large) as invalid input.
BY_STATUS: Mapping[int, type[EngramError]] = {
    400: InvalidInputError,
    413: InvalidInputError,
    **{status: cls for cls, status in reversed(STATUS)},
}


@functools.cache
def by_code() -> Mapping[str, type[EngramError]]:
    """Every class of the tree by the ``code`` it defines (the most derived class wins a
    tie)."""
    found: dict[str, type[EngramError]] = {}
    pending: list[type[EngramError]] = [EngramError]
    while pending:
        cls = pending.pop(0)
        # A subclass that inherits its code (the mem0 door's ``MemoryNotFound``) is not
        # what the server raised: only a class that names its own code stands for it.
        if "code" in vars(cls):
            found[cls.code] = cls
        pending.extend(cls.__subclasses__())
    return found


def _body(response: httpx.Response) -> tuple[str | None, str, list[str]]:
    """The answer's code, message and (for a blocked write) the scan's reasons."""
    try:
        data = response.json()
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("detail"), str):
        code = data.get("error")
        raw = data.get("reasons")
        reasons = [str(r) for r in raw] if isinstance(raw, list) else []
        return (code if isinstance(code, str) else None), data["detail"], reasons
    text = response.text.strip()[:500] or response.reason_phrase
    return None, text, []


def from_response(response: httpx.Response) -> EngramError:
    """The ``EngramError`` an error answer stands for, with the server's message."""
    code, detail, reasons = _body(response)
    cls = by_code().get(code) if code is not None else None
    if cls is None or cls is EngramError:
        cls = BY_STATUS.get(response.status_code)
    if cls is None:
        named = f" {code}" if code else ""
        return EngramError(f"HTTP {response.status_code}{named}: {detail}")
    if issubclass(cls, InjectionBlocked):
        return cls(detail, reasons=tuple(reasons))
    try:
        return cls(detail)
    except TypeError:  # a class whose constructor takes more than a message
        return BY_STATUS.get(response.status_code, EngramError)(detail)


def unreachable(request: httpx.Request, exc: httpx.TransportError, attempts: int) -> EngramError:
    """A connection failure (after ``attempts`` tries) as ``ServerConnectionError``."""
    tries = "" if attempts == 1 else f" (tried {attempts} times)"
    head = f"{request.method} {request.url} failed{tries}: {type(exc).__name__}"
    if isinstance(exc, httpx.TimeoutException):
        return ServerConnectionError(f"{head}: {_timed_out(request, exc)}")
    return ServerConnectionError(
        f"{head}: {exc}. Check that engram serve is running at that address"
    )


def _timed_out(request: httpx.Request, exc: httpx.TimeoutException) -> str:
    """What a timeout means, with the limit that ran out (httpx keeps the request's
    timeouts in its extensions): a read timeout is a server that is up but slow, not
    one that is down, so "check that it runs" would send the caller the wrong way."""
    limits = request.extensions.get("timeout") or {}
    phase = {
        httpx.ConnectTimeout: "connect",
        httpx.ReadTimeout: "read",
        httpx.WriteTimeout: "write",
        httpx.PoolTimeout: "pool",
    }.get(type(exc), "read")
    limit = limits.get(phase)
    within = "" if limit is None else f" within {limit:g} s"
    longer = "pass a longer timeout= to the client (seconds, or an httpx.Timeout)"
    if phase == "connect":
        return (
            f"no connection{within}. Check that engram serve is running at that address "
            f"and reachable from here, or {longer}"
        )
    if phase == "read":
        applied = "" if request.method == "GET" else "; the write may still have been applied"
        return (
            f"the server accepted the request but sent no answer{within}: it is busy or the "
            f"call is slow, so {longer}{applied}"
        )
    return f"the request could not be sent{within}; {longer}"

"""What the server knows about the request it is serving, for logs and metrics.

``Observe`` (``engram.api.observe``) sets a fresh :class:`RequestInfo` per request;
code further in (authentication, the MCP guard, the recall routes) fills in what it
learns. Routes run on a thread pool with a copy of the context, so the info is one
shared mutable object rather than context variables set on the way in.
"""

from __future__ import annotations

import contextvars
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

#: The header a request id comes in and goes out with.
REQUEST_ID_HEADER = "x-request-id"
#: A longer id is replaced: ids go into every log line.
MAX_REQUEST_ID = 128
#: Letters, digits and ``-_.:/+=@``: what tracing systems send (UUIDs, W3C trace ids,
#: ``Root=1-...`` of AWS), and nothing that could break a log line or a header.
_REQUEST_ID = re.compile(r"[A-Za-z0-9\-_.:/+=@]+")


@dataclass(slots=True)
class RequestInfo:
    """One request, as the access log and the metrics see it."""

    request_id: str
    method: str = ""
    path: str = ""
    client: str | None = None
    """The client's address: the connection's, or the one a trusted proxy forwarded
    (``api.forwarded_allow_ips``; the server rewrites it before engram sees it)."""
    key_id: str | None = None
    """The API key's id (never the key), once authentication has run."""
    namespace: str | None = None
    """The namespace the request works in, where the surface resolves one."""
    tool: str | None = None
    """The MCP tool a ``/mcp`` request called, if it called one."""
    recall_timings: dict[str, float] = field(default_factory=dict)
    """Recall's stage timings (ms) when the request ran a recall."""


current_request: contextvars.ContextVar[RequestInfo | None] = contextvars.ContextVar(
    "engram_request", default=None
)


def request_id_from(headers: Mapping[str, str]) -> str:
    """The caller's ``X-Request-ID`` when it is valid, else a new random one.

    An invalid or oversized id is replaced rather than refused: the request itself is
    fine, and the response's header says which id its log lines carry.
    """
    given = headers.get(REQUEST_ID_HEADER, "").strip()
    if 0 < len(given) <= MAX_REQUEST_ID and _REQUEST_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


def current() -> RequestInfo | None:
    """The request being served in this context, if any."""
    return current_request.get()


def note_key(key_id: str | None) -> None:
    """Record the authenticated key's id on the current request."""
    info = current_request.get()
    if info is not None:
        info.key_id = key_id


def note_tool(tool: str) -> None:
    """Record the MCP tool the current request calls."""
    info = current_request.get()
    if info is not None:
        info.tool = tool


def note_namespace(namespace: str) -> None:
    """Record the namespace the current request resolved."""
    info = current_request.get()
    if info is not None:
        info.namespace = namespace


def note_recall(timings: Mapping[str, float]) -> None:
    """Record a recall's stage timings (ms) for the metrics."""
    info = current_request.get()
    if info is not None:
        info.recall_timings = dict(timings)

"""``Observe``: the outermost middleware of ``engram serve``.

For every HTTP request it takes or makes a request id (``X-Request-ID``) and echoes it
on the response, errors included; counts and times the request by route template and
status for ``/metrics``; and writes one access log line (``engram.access``) naming the
request id, method, path, route, status, latency, key id and namespace, never the key
or the content. An unexpected exception becomes the API's 500 body, logged with the
request id.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.api.context import RequestInfo, current_request, request_id_from
from engram.api.errors import send_error
from engram.api.metrics import Metrics
from engram.api.middleware import HttpOnly
from engram.core import current_actor

access_log = logging.getLogger("engram.access")
log = logging.getLogger("engram.api")

#: The route label of requests no route matched (404s of scanners stay one series).
UNMATCHED = "unmatched"


def route_template(scope: Scope, routes: Sequence[BaseRoute]) -> str:
    """The template of the route that served (or would serve) ``scope``."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    # Refused before routing (413, 429): find the route it was meant for.
    for candidate in _flat(routes):
        match, _ = candidate.matches(scope)
        if match is Match.FULL:
            return str(getattr(candidate, "path", UNMATCHED))
    return UNMATCHED


def _flat(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """The routes with a path template, inside included routers too (FastAPI wraps
    each ``include_router`` in a route of its own that has the router's routes)."""
    for route in routes:
        if isinstance(getattr(route, "path", None), str):
            yield route
            continue
        inner = getattr(getattr(route, "original_router", None), "routes", None)
        if isinstance(inner, list):
            yield from _flat(inner)


class Observe(HttpOnly):
    """Pure ASGI middleware: request ids, metrics and the access log."""

    def __init__(self, app: ASGIApp, metrics: Metrics, routes: Sequence[BaseRoute]) -> None:
        super().__init__(app)
        self.metrics = metrics
        self.routes = routes

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        info = RequestInfo(
            request_id=request_id_from(headers),
            method=scope["method"],
            path=scope["path"],
            client=_client(scope),
        )
        status = 500
        started = False
        noted = False
        start = time.perf_counter()

        def note() -> None:
            """Count the request and write its access line, once."""
            nonlocal noted
            if noted:
                return
            noted = True
            seconds = time.perf_counter() - start
            route = route_template(scope, self.routes)
            self.metrics.finished(info.method, route, status, seconds, info.recall_timings)
            _access(info, route, status, seconds)

        async def send_with_id(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                started = True
                status = int(message["status"])
                out = [h for h in message.get("headers", ()) if h[0].lower() != b"x-request-id"]
                out.append((b"x-request-id", info.request_id.encode()))
                message = {**message, "headers": out}
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                # Before the last byte goes out, so a client that has its answer finds
                # the request's access line and metrics already written (issue 26: a
                # test read the log before the line was there).
                note()
            await send(message)

        token = current_request.set(info)
        # History rows written for this request name its API key (never the key itself).
        actor = current_actor.set(lambda: None if info.key_id is None else f"key:{info.key_id}")
        self.metrics.started()
        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.exception("%s %s failed unexpectedly", info.method, info.path)
            if started:
                raise
            await _internal_error(send_with_id, info.request_id)
        finally:
            note()  # when no response went out in full (an error, a client gone)
            current_actor.reset(actor)
            current_request.reset(token)


def _client(scope: Scope) -> str | None:
    """The client's host as the server gives it: uvicorn's proxy-headers middleware has
    already put a trusted proxy's ``X-Forwarded-For`` there, and only a trusted one's
    (``api.forwarded_allow_ips``), so a header from anyone else never reaches the log."""
    client = scope.get("client")
    return str(client[0]) if client else None


def _access(info: RequestInfo, route: str, status: int, seconds: float) -> None:
    ms = round(seconds * 1000, 3)
    extra: dict[str, Any] = {
        "request_id": info.request_id,
        "method": info.method,
        "path": info.path,
        "client": info.client,
        "route": route,
        "status": status,
        "duration_ms": ms,
        "key_id": info.key_id,
        "namespace": info.namespace,
        "tool": info.tool,
    }
    what = f"{info.path} {info.tool}" if info.tool else info.path
    client = info.client or "-"
    access_log.info("%s %s %s %d %.1fms", client, info.method, what, status, ms, extra=extra)


async def _internal_error(send: Send, request_id: str) -> None:
    detail = f"internal server error; see the server log for request {request_id}"
    await send_error(send, 500, "internal_error", detail)

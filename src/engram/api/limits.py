"""Request body limit: 413 before any byte is parsed.

A declared ``Content-Length`` over the limit is refused at once. A body without one
(chunked) is read up to the limit and refused as soon as it passes it; a body within
the limit is replayed to the application unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.api.errors import send_error
from engram.api.middleware import HttpOnly


class BodyLimit(HttpOnly):
    """Pure ASGI middleware enforcing ``max_bytes`` on every HTTP request body, or the
    limit ``wider`` gives a POST to one path (a document upload may be larger than any
    other request)."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, wider: Mapping[str, tuple[int, str]] | None = None
    ) -> None:
        super().__init__(app)
        self.max_bytes = max_bytes
        self.wider = dict(wider or {})

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit, setting = self.max_bytes, "api.max_body_bytes"
        if scope.get("method") == "POST":
            # Behind a proxy's prefix (``root_path``) the path carries it: "/engram/v1/...".
            path = str(scope.get("path", ""))
            for route, wider in self.wider.items():
                if path == route or (path.endswith(route) and path[: -len(route)].startswith("/")):
                    limit, setting = wider
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(send, limit, setting)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(send, limit, setting)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replay([body], receive), send)

    async def _refuse(self, send: Send, limit: int, setting: str) -> None:
        await send_error(
            send,
            413,
            "payload_too_large",
            f"the request body is over {limit} bytes ({setting}); send less per request",
            [(b"connection", b"close")],
        )


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that returns ``messages`` first, then defers to the real one."""
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


#: What a document upload's JSON carries beyond its base64: the field names, a title, the
#: scope's ids (each bounded by its model) and a file name.
UPLOAD_OVERHEAD = 65_536


def upload_limit(max_body_bytes: int, max_content_bytes: int) -> int:
    """The body limit of ``POST /v1/documents``: room for the base64 of a file as large
    as ``[documents] max_content_bytes`` allows (4 bytes for every 3), or the general
    limit if that is larger. The library checks the decoded size against the setting."""
    return max(max_body_bytes, 4 * -(-max_content_bytes // 3) + UPLOAD_OVERHEAD)

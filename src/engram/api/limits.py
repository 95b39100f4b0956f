"""Request body limit: 413 before any byte is parsed.

A declared ``Content-Length`` over the limit is refused at once. A body without one
(chunked) is read up to the limit and refused as soon as it passes it; a body within
the limit is replayed to the application unchanged.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.api.errors import send_error
from engram.api.middleware import HttpOnly


class BodyLimit(HttpOnly):
    """Pure ASGI middleware enforcing ``max_bytes`` on every HTTP request body."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        super().__init__(app)
        self.max_bytes = max_bytes

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send, declared)
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
            if size > self.max_bytes:
                await self._refuse(send, size)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replay([body], receive), send)

    async def _refuse(self, send: Send, size: int) -> None:
        await send_error(
            send,
            413,
            "payload_too_large",
            f"the request body is over {self.max_bytes} bytes (api.max_body_bytes); "
            "send less per request",
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

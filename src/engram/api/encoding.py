"""JSON bodies must be UTF-8: 422 ``invalid_json`` for any other encoding.

``json.loads`` given bytes guesses UTF-16 and UTF-32 from the first bytes and decodes
them, so without this check a UTF-16 body was stored (201) while docs/http.md promises
422 for a body that is not UTF-8. RFC 8259 requires UTF-8 for JSON exchanged between
systems, and a body of another encoding usually means a client sent the wrong bytes.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from engram.api.errors import send_error
from engram.api.limits import replay


class Utf8Json:
    """Pure ASGI middleware: refuse a JSON body that is not UTF-8 before it is parsed.

    It runs inside ``BodyLimit``, which hands the application the whole body in one
    message, so one look at that message sees every byte.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        first = await receive()
        body = first.get("body", b"") if first["type"] == "http.request" else b""
        if body and not _utf8(body):
            await send_error(
                send,
                422,
                "invalid_json",
                "the request body is not valid JSON: it is not UTF-8 text; send JSON "
                "encoded as UTF-8",
            )
            return
        await self.app(scope, replay([first], receive), send)


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json" or kind.endswith(b"+json")
    return False


def _utf8(body: bytes) -> bool:
    """Whether ``body`` is UTF-8 (with or without a byte-order mark) as ``json.loads``
    reads it: NUL-padded UTF-16 is valid UTF-8 byte by byte, so the encoding json
    would guess is checked too."""
    encoding: str = json.detect_encoding(body)
    if encoding not in ("utf-8", "utf-8-sig"):
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True

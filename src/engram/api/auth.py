"""Bearer-key authentication for the REST routes and the mounted MCP endpoint.

Both paths call the same library functions (``Memory.keys.verify`` and
``Principal.scope``): REST routes through a FastAPI dependency, the MCP app through an
ASGI guard that sets ``current_namespace`` for the MCP tools of the request.
"""

from __future__ import annotations

import contextvars
import json
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from engram.api.errors import error_body, status_for
from engram.errors import EngramError
from engram.keys import LOCAL, Principal
from engram.memory import Memory

#: The namespace the current MCP request works in, set by ``McpGuard``.
current_namespace: contextvars.ContextVar[str] = contextvars.ContextVar("engram_namespace")

#: MCP clients pick a namespace within their key's reach with this header.
NAMESPACE_HEADER = "x-engram-namespace"

bearer = HTTPBearer(
    auto_error=False,
    description="An engram API key (`engram keys create --user NAME`).",
)


@dataclass(frozen=True, slots=True)
class ServerState:
    """What every request needs: the one ``Memory`` and whether keys are required."""

    memory: Memory
    auth: bool


def server_state(request: Request) -> ServerState:
    """The server's state, from the application."""
    state: ServerState = request.app.state.engram
    return state


def authenticate(state: ServerState, authorization: str | None) -> Principal:
    """The principal for an ``Authorization`` header value (``LOCAL`` without auth)."""
    if not state.auth:
        return LOCAL
    token = None
    if authorization:
        scheme, _, credentials = authorization.partition(" ")
        if scheme.lower() == "bearer":
            token = credentials.strip()
    return Principal.of(state.memory.keys.verify(token))


def principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Principal:
    """FastAPI dependency: the caller, or 401."""
    state = server_state(request)
    header = None if credentials is None else f"Bearer {credentials.credentials}"
    return authenticate(state, header)


Caller = Annotated[Principal, Depends(principal)]


class McpGuard:
    """ASGI wrapper: authenticate, resolve the namespace, set ``current_namespace``.

    The namespace is the ``X-Engram-Namespace`` header if the key may reach it (403 if
    not), else the key's own ``user:<user>`` (an admin key or ``--no-auth``: the
    configured default namespace).
    """

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            caller = await run_in_threadpool(authenticate, self.state, headers.get("authorization"))
            asked = headers.get(NAMESPACE_HEADER) or None
            resolved = await run_in_threadpool(caller.scope, self.state.memory, asked)
        except EngramError as exc:
            await _send_error(send, status_for(exc), exc.code, str(exc))
            return
        token = current_namespace.set(resolved.namespace)
        try:
            await self.app(scope, receive, send)
        finally:
            current_namespace.reset(token)


async def _send_error(send: Send, status: int, code: str, detail: str) -> None:
    payload = json.dumps(error_body(code, detail)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})

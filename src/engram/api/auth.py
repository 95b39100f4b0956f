"""Bearer-key authentication for the REST routes and the mounted MCP endpoint.

Both paths call the same library functions (``Memory.keys.verify`` and
``Principal.scope``): REST routes through a FastAPI dependency, the MCP app through an
ASGI guard that sets ``current_namespace`` for the MCP tools of the request.
"""

from __future__ import annotations

import contextvars
import json
from dataclasses import dataclass
from typing import Annotated, Unpack

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.api.context import note_key, note_namespace, note_tool
from engram.api.errors import send_error, status_for
from engram.api.limits import replay
from engram.api.mcp_discovery import challenge
from engram.api.mcp_hosts import worded
from engram.api.middleware import HttpOnly
from engram.core import Scope as CallScope
from engram.errors import EngramError
from engram.keys import LOCAL, Principal, ScopeResolver
from engram.memory import Memory
from engram.org import OrgFactAuthor
from engram.scoping import ScopeArgs, scoped

#: The namespace the current MCP request works in, set by ``McpGuard``.
current_namespace: contextvars.ContextVar[str] = contextvars.ContextVar("engram_namespace")

#: Who the current MCP request writes org facts as (``mem.org.author_for_key``).
current_author: contextvars.ContextVar[OrgFactAuthor] = contextvars.ContextVar("engram_author")

#: The agent the current MCP request's key is bound to (None: none), set by ``McpGuard``.
current_agent: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "engram_agent", default=None
)

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


class TracedPrincipal(Principal):
    """A ``Principal`` that notes the namespace it resolves, for the access log."""

    @scoped
    def scope(self, memory: ScopeResolver, **who: Unpack[ScopeArgs]) -> CallScope:
        """``Principal.scope``, noted on the current request."""
        resolved = super().scope(memory, **who)
        note_namespace(resolved.namespace)
        return resolved


def bearer_token(authorization: str | None) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header value, else None."""
    if authorization:
        scheme, _, credentials = authorization.partition(" ")
        if scheme.lower() == "bearer":
            return credentials.strip()
    return None


def authenticate(
    state: ServerState, authorization: str | None, *, wait: float | None = None
) -> Principal:
    """The principal for an ``Authorization`` header value (``LOCAL`` without auth);
    ``wait`` bounds the wait for the store in an outage (``Keys.verify``)."""
    if not state.auth:
        return TracedPrincipal(user=LOCAL.user, admin=LOCAL.admin)
    key = state.memory.keys.verify(bearer_token(authorization), wait=wait)
    note_key(key.id)  # for the access log: the key's id, never the key
    return TracedPrincipal(user=key.user, admin=key.admin, key_id=key.id, agent=key.agent)


def remembered_admin(state: ServerState, authorization: str | None) -> Principal | None:
    """The principal of an admin key the store accepted lately (``Keys.remembered``),
    for a route that must answer while the store cannot be reached; else None."""
    key = state.memory.keys.remembered(bearer_token(authorization))
    if key is None:
        return None
    note_key(key.id)
    return TracedPrincipal(user=key.user, admin=key.admin, key_id=key.id, agent=key.agent)


def principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Principal:
    """FastAPI dependency: the caller, or 401."""
    state = server_state(request)
    header = None if credentials is None else f"Bearer {credentials.credentials}"
    return authenticate(state, header)


Caller = Annotated[Principal, Depends(principal)]
#: The server's state, as a route's parameter (``state: State``).
State = Annotated[ServerState, Depends(server_state)]


class McpGuard(HttpOnly):
    """ASGI wrapper: authenticate, resolve the namespace, set ``current_namespace``.

    The namespace is the ``X-Engram-Namespace`` header if the key may reach it (403 if
    not), else the key's own ``user:<user>`` (an admin key or ``--no-auth``: the
    configured default namespace).
    """

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        super().__init__(app)
        self.state = state

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            caller = await run_in_threadpool(authenticate, self.state, headers.get("authorization"))
            asked = headers.get(NAMESPACE_HEADER) or None
            resolved = await run_in_threadpool(caller.scope, self.state.memory, namespace=asked)
            author = await run_in_threadpool(
                self.state.memory.org.author_for_key, caller.key_id, caller.user, caller.admin
            )
        except EngramError as exc:
            await _send_error(send, status_for(exc), exc.code, str(exc), challenge(scope))
            return
        token = current_namespace.set(resolved.namespace)
        writer = current_author.set(author)
        bound = current_agent.set(caller.agent)
        if scope.get("method") == "POST":
            receive = await _noting_tool(receive)
        try:
            await self.app(scope, receive, worded(scope, send))
        finally:
            current_agent.reset(bound)
            current_author.reset(writer)
            current_namespace.reset(token)


async def _noting_tool(receive: Receive) -> Receive:
    """Read the JSON-RPC body (``BodyLimit`` bounds it), note the tool a ``tools/call``
    names for the access log, and hand the same bytes on to the MCP app."""
    messages: list[Message] = []
    body = b""
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    try:
        payload = json.loads(body) if body else None
    except (ValueError, RecursionError):  # not JSON, or nested past the recursion limit:
        payload = None  # the MCP app answers it with a JSON-RPC parse error
    for item in payload if isinstance(payload, list) else [payload]:
        if isinstance(item, dict) and item.get("method") == "tools/call":
            name = (item.get("params") or {}).get("name")
            if isinstance(name, str):
                note_tool(name[:100])

    return replay(messages, receive)


async def _send_error(send: Send, status: int, code: str, detail: str, bearer: bytes) -> None:
    """The JSON error answer; a 401 carries ``bearer`` as its ``WWW-Authenticate``
    (RFC 9728: where the resource's metadata is), so MCP clients do not start OAuth."""
    challenge = [(b"www-authenticate", bearer)] if status == 401 else []
    await send_error(send, status, code, detail, challenge)

"""The MCP transport's DNS-rebinding refusals, in engram's words.

The MCP SDK checks ``/mcp``'s ``Host`` and ``Origin`` headers (``api.mcp_allowed_hosts``)
and refuses with a bare ``421 Invalid Host header`` or ``403 Invalid Origin header``.
Behind a reverse proxy that is the first thing an operator meets (dogfood19: nginx
forwarding ``Host: memory.example.test`` to a server on loopback), and the bare text
names neither the header's value nor the setting. This wrapper answers those two
refusals with engram's JSON error instead, and passes everything else through.
"""

from __future__ import annotations

from starlette.types import Message, Scope, Send

from engram.api.errors import send_error

#: The SDK's refusal bodies (``mcp.server.transport_security``) and what engram says.
_HOST = b"Invalid Host header"
_ORIGIN = b"Invalid Origin header"


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return ""


def _host_detail(host: str) -> str:
    example = host or "memory.example.com"
    return (
        f"/mcp does not accept the Host header {host!r} (the MCP transport's DNS-rebinding "
        "check). Behind a reverse proxy, add the names it forwards to api.mcp_allowed_hosts, "
        f"comma-separated beside any listed (ENGRAM_API_MCP_ALLOWED_HOSTS={example}), and "
        "restart engram serve"
    )


def _origin_detail(origin: str) -> str:
    return (
        f"/mcp does not accept the Origin header {origin!r} (the MCP transport's "
        "DNS-rebinding check: a web page of another site may not call it). If that origin "
        "is yours, list its host in api.mcp_allowed_hosts and restart engram serve"
    )


def worded(scope: Scope, send: Send) -> Send:
    """``send`` with the SDK's Host and Origin refusals answered in engram's words."""
    held: Message | None = None

    async def wrapped(message: Message) -> None:
        nonlocal held
        if message["type"] == "http.response.start" and message["status"] in (421, 403):
            held = message  # wait for the body: only the SDK's two texts are reworded
            return
        if held is not None and message["type"] == "http.response.body":
            start, held = held, None
            body = message.get("body", b"")
            if body == _HOST and not message.get("more_body"):
                host = _header(scope, b"host")
                await send_error(send, 421, "host_not_allowed", _host_detail(host))
                return
            if body == _ORIGIN and not message.get("more_body"):
                origin = _header(scope, b"origin")
                await send_error(send, 403, "origin_not_allowed", _origin_detail(origin))
                return
            await send(start)
        await send(message)

    return wrapped

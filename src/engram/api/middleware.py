"""What every pure ASGI middleware of the server shares: it acts on HTTP requests only,
and anything else (the lifespan, a websocket) goes straight to the wrapped app."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpOnly:
    """A pure ASGI middleware whose ``http`` sees each HTTP request; other scopes pass."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one HTTP request; subclasses say how."""
        raise NotImplementedError

"""``create_app``: the FastAPI application over one ``Memory``."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import Any

from fastapi import FastAPI
from starlette.routing import Route

from engram._version import __version__
from engram.api import (
    documents_routes,
    errors,
    graph_routes,
    jobs_routes,
    palace_routes,
    review_routes,
    routes,
)
from engram.api.auth import McpGuard, ServerState, current_namespace
from engram.api.limits import BodyLimit
from engram.memory import Memory

log = logging.getLogger("engram.api")

DESCRIPTION = """\
engram's HTTP API: long-term memory for AI agents.

Every route but `/health` needs `Authorization: Bearer <key>` (create keys with
`engram keys create --user NAME`). A key reaches its user's namespaces: `user:<user>` and
`user:<user>/...`; an admin key reaches every namespace. Errors are
`{"error": <code>, "detail": <message>}`.
"""


def create_app(
    memory: Memory,
    *,
    auth: bool = True,
    max_body_bytes: int | None = None,
    mcp: bool = True,
    host: str = "127.0.0.1",
    worker: bool = True,
) -> FastAPI:
    """The HTTP API over ``memory``.

    ``auth=False`` serves every namespace without keys (``engram serve --no-auth``, for
    local single-user use). ``max_body_bytes`` defaults to the config's
    ``api.max_body_bytes``. ``mcp`` mounts the MCP server's streamable HTTP endpoint at
    ``/mcp`` behind the same keys when ``engram.mcp`` is installed; ``host`` is what
    the MCP transport's DNS-rebinding protection allows. ``worker`` runs the job worker
    in the server's process while it serves (unless ``memory`` already runs one).
    """
    state = ServerState(memory=memory, auth=auth)
    mcp_app, mcp_lifespan = _mcp_endpoint(memory, host) if mcp else (None, None)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        with _backfill(memory), _job_worker(memory, worker):
            if mcp_lifespan is None:
                yield
                return
            async with mcp_lifespan():
                yield

    app = FastAPI(
        title="engram",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.engram = state
    app.state.mcp = mcp_app is not None
    errors.install(app)
    app.include_router(routes.router)
    app.include_router(documents_routes.router)
    app.include_router(review_routes.router)
    app.include_router(jobs_routes.router)
    app.include_router(palace_routes.router)
    app.include_router(graph_routes.router)
    if mcp_app is not None:
        # A Route, not a Mount: a Mount would redirect "/mcp" to "/mcp/".
        app.router.routes.append(
            Route("/mcp", endpoint=McpGuard(mcp_app, state), include_in_schema=False)
        )
    limit = max_body_bytes if max_body_bytes is not None else memory.config.api.max_body_bytes
    app.add_middleware(BodyLimit, max_bytes=limit)
    return app


@contextmanager
def _backfill(memory: Memory) -> Iterator[None]:
    """Embed, in a background thread while the server runs, the memories a crash or a
    failed embedder left without a vector."""
    stop = threading.Event()
    thread = threading.Thread(
        target=memory.admin.backfill, kwargs={"stop": stop}, name="engram-backfill", daemon=True
    )
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)


@contextmanager
def _job_worker(memory: Memory, enabled: bool) -> Iterator[None]:
    """Run the job worker thread while the server runs; stop it at shutdown if this
    server started it."""
    started = enabled and not memory.jobs.running
    if started:
        memory.jobs.start()
    try:
        yield
    finally:
        if started:
            memory.jobs.stop()


LifespanFactory = Callable[[], AbstractAsyncContextManager[Any]]


def _mcp_endpoint(memory: Memory, host: str) -> tuple[Any, LifespanFactory | None]:
    """The MCP server's streamable HTTP app and the lifespan its session manager needs.

    MCP INTEGRATION POINT: ``engram.mcp.server.create_mcp_server(memory, namespace=...)``
    is written separately; until it exists, ``/mcp`` is simply not served.
    """
    try:
        from engram.mcp.server import create_mcp_server
    except ImportError:
        log.info("engram.mcp is not available: /mcp is not served")
        return None, None
    server = create_mcp_server(memory, namespace=current_namespace.get)
    mcp_app = server.streamable_http_app(streamable_http_path="/mcp", host=host)
    return mcp_app, server.session_manager.run

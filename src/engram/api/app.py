"""``create_app``: the FastAPI application over one ``Memory``."""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import (
    AbstractAsyncContextManager,
    AsyncExitStack,
    ExitStack,
    asynccontextmanager,
)
from functools import cache
from types import ModuleType
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from pydantic.warnings import UnsupportedFieldAttributeWarning
from starlette.routing import Route

from engram._version import __version__
from engram.api import (
    blas,
    chat_routes,
    curation_routes,
    dashboard_routes,
    documents_routes,
    erase_routes,
    errors,
    graph_routes,
    inject_routes,
    jobs_routes,
    keys_routes,
    lifecycle_routes,
    maintenance_routes,
    mcp_discovery,
    mem0_platform_routes,
    mem0_routes,
    ops_routes,
    org_routes,
    palace_routes,
    review_routes,
    routes,
    runs_routes,
    sessions_routes,
    shared_routes,
)
from engram.api.auth import (
    McpGuard,
    ServerState,
    current_agent,
    current_author,
    current_namespace,
)
from engram.api.encoding import Utf8Json
from engram.api.limits import BodyLimit, upload_limit
from engram.api.metrics import Metrics
from engram.api.observe import Observe
from engram.api.operation_ids import operation_id
from engram.api.ratelimit import Clock, RateLimit, RateLimiter
from engram.memory import Memory
from engram.serving import background, serving

log = logging.getLogger("engram.api")

#: The route modules, in the order their routes are matched.
ROUTERS: tuple[ModuleType, ...] = (
    routes,
    documents_routes,
    curation_routes,  # before /v1/review/{item_id}
    review_routes,
    erase_routes,
    jobs_routes,
    palace_routes,
    graph_routes,
    runs_routes,
    sessions_routes,
    maintenance_routes,
    lifecycle_routes,
    inject_routes,
    org_routes,
    shared_routes,
    ops_routes,
    keys_routes,  # left39: an admin creates a key over HTTP
    mem0_routes,  # mem0's REST shape under /mem0 (issue 27)
    mem0_platform_routes,  # mem0's MemoryClient calls under /mem0 (pass42)
    chat_routes,  # issue 31: the OpenAI-compatible chat proxy
)

DESCRIPTION = """\
engram's HTTP API: long-term memory for AI agents.

Every route but `/health` and `/ready` needs `Authorization: Bearer <key>` (create keys with
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
    schedules: bool = True,
    clock: Clock = time.monotonic,
    warm_graph: bool = False,
    warm_indexes: bool = False,
) -> FastAPI:
    """The HTTP API over ``memory``.

    ``auth=False`` serves every namespace without keys (``engram serve --no-auth``, for
    local single-user use). ``max_body_bytes`` defaults to the config's
    ``api.max_body_bytes``. ``mcp`` mounts the MCP server's streamable HTTP endpoint at
    ``/mcp`` behind the same keys when ``engram.mcp`` is installed; ``host`` is what
    the MCP transport's DNS-rebinding protection allows. ``worker`` runs the job worker
    in the server's process while it serves (unless ``memory`` already runs one);
    ``schedules`` runs the backfill and the sessions, lifecycle and maintenance
    schedules (``engram.serving``: one process at a time per store).
    ``clock`` is the rate limiter's time source (``api.rate_limit_per_minute``).
    ``warm_graph`` imports UMAP and compiles it in a background thread at start
    (``mem.review.warm_up``), so the first graph view opens fast; ``warm_indexes``
    loads the search indexes of the largest namespaces in the background
    (``mem.admin.warm_indexes``), so their first recall does not wait for them.
    ``engram serve`` sets both.
    """
    state = ServerState(memory=memory, auth=auth)
    mcp_app, mcp_lifespan = _mcp_endpoint(memory, host) if mcp else (None, None)
    api_routes = _api_routes()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_graph:
            _warm_graph(memory)
        with ExitStack() as running:
            running.enter_context(blas.one_thread())  # issue 31: spinning BLAS threads
            if warm_indexes:
                running.enter_context(
                    background(lambda stop: memory.admin.warm_indexes(stop=stop), "engram-warm")
                )
            # The worker, the backfill and the schedules: what `engram mcp` runs too.
            running.enter_context(serving(memory, worker=worker, schedules=schedules))
            async with AsyncExitStack() as nested:
                if mcp_lifespan is not None:
                    await nested.enter_async_context(mcp_lifespan())
                # The route modules' own lifespans (the chat proxy's upstream client),
                # innermost, as include_router would have nested them.
                await nested.enter_async_context(api_routes.lifespan_context(app))
                yield

    app = FastAPI(
        title="engram",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
    )
    app.state.engram = state
    app.state.mcp = mcp_app is not None
    errors.install(app)
    app.router.routes.extend(api_routes.routes)
    dashboard_routes.install(app)
    if mcp_app is not None:
        app.include_router(mcp_discovery.router)
        # A Route, not a Mount: a Mount would redirect "/mcp" to "/mcp/".
        app.router.routes.append(
            Route("/mcp", endpoint=McpGuard(mcp_app, state), include_in_schema=False)
        )
    limit = max_body_bytes if max_body_bytes is not None else memory.config.api.max_body_bytes
    app.add_middleware(Utf8Json)  # inside BodyLimit: it sees the whole body at once
    documents = upload_limit(limit, memory.config.documents.max_content_bytes)
    wider = {"/v1/documents": (documents, "the base64 of [documents] max_content_bytes")}
    app.add_middleware(BodyLimit, max_bytes=limit, wider=wider)
    origins = _split(memory.config.api.cors_origins)
    if origins:  # browsers on these origins may call the API (keys still apply)
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["*"],
            allow_headers=["Authorization", "Content-Type", "X-Request-ID", "X-Engram-Namespace"],
            expose_headers=["X-Request-ID", "Retry-After"],
        )
    api = memory.config.api
    if api.rate_limit_per_minute:
        limiter = RateLimiter(api.rate_limit_per_minute, api.rate_limit_burst, clock=clock)
        app.add_middleware(RateLimit, limiter=limiter)
    # Last added runs first: request ids, metrics and the access log see every answer.
    app.state.metrics = Metrics()
    app.add_middleware(Observe, metrics=app.state.metrics, routes=app.router.routes)
    _build_routes(app.router.routes)
    return app


@cache
def _api_routes() -> APIRouter:
    """Every module of ``ROUTERS`` included once per process, its routes built.

    Nothing in a route depends on the store: a handler finds its ``Memory`` through
    ``request.app.state.engram``. Included anew in every app, FastAPI rebuilt each
    route's parameter and response models per app (0.50 s of CPU of the 0.52 s an app
    without ``/mcp`` took, docs/testing.md); every app of a process (an app per
    namespace or tenant, the tests' servers) now shares them (the OpenAPI document is
    byte for byte the same: tests/test_api_factory.py). What differs from including
    them per app: the app's ``dependency_overrides`` do not reach these routes (engram
    sets none), and the routers' lifespans run through this router's merged
    ``lifespan_context``, entered by the app's lifespan."""
    shared = APIRouter(generate_unique_id_function=operation_id)
    for module in ROUTERS:
        shared.include_router(module.router)
    _build_routes(shared.routes)
    return shared


def _build_routes(routes: Iterable[Any]) -> None:
    """Build every included route's parameter models now, on the caller's thread.

    FastAPI builds them lazily, at the first request that reaches a router, on a server
    thread; two apps built in one process (tests, reloads) then rebuild the same shared
    ``Path(...)`` metadata, which FastAPI has already given an alias, and pydantic warns
    that the alias has no effect there. Built here, the warning (harmless: FastAPI
    names path parameters itself) is silenced once instead of failing a request."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedFieldAttributeWarning)
        pending: list[Any] = list(routes)
        while pending:
            route = pending.pop()
            build = getattr(route, "effective_candidates", None)
            if not callable(build):  # a plain route, or a FastAPI without lazy routers
                continue
            try:
                pending.extend(build())
                low = getattr(route, "effective_low_priority_routes", None)
                if callable(low):
                    low()
            except Exception:  # never fail app creation: the lazy path still works
                log.debug("could not build routes eagerly", exc_info=True)


def _warm_graph(memory: Memory) -> None:
    """Compile UMAP's numba code in a daemon thread (tens of seconds on a cold machine);
    requests are served meanwhile (a graph asked for early pays what is left of it)."""
    threading.Thread(target=memory.review.warm_up, name="engram-warm-graph", daemon=True).start()


LifespanFactory = Callable[[], AbstractAsyncContextManager[Any]]


def _split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _mcp_security(allowed_hosts: str) -> Any:
    """The MCP transport's DNS-rebinding check for ``api.mcp_allowed_hosts`` (None: the
    SDK's default for the bind address)."""
    hosts = _split(allowed_hosts)
    if not hosts:
        return None
    from mcp.server.transport_security import TransportSecuritySettings

    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


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
    server = create_mcp_server(
        memory,
        namespace=current_namespace.get,
        author=current_author.get,
        bound_agent=current_agent.get,
    )
    api = memory.config.api
    mcp_app = server.streamable_http_app(
        streamable_http_path="/mcp",
        host=host,
        stateless_http=api.mcp_stateless,
        transport_security=_mcp_security(api.mcp_allowed_hosts),
    )
    return mcp_app, server.session_manager.run

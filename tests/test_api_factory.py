"""``create_app`` builds its routes once per process and binds the store per app.

The apps of one process (an app per namespace or tenant, the tests' servers) share the
route modules' routes, built once; what a client sees must not change for it: the
OpenAPI document is byte for byte the one FastAPI builds when every router is included
into the app itself, and each app answers from its own store and runs its own routers'
lifespans.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from conftest import HashEmbedder
from engram import Config, Memory
from engram._version import __version__
from engram.api import create_app
from engram.api.app import DESCRIPTION, ROUTERS
from engram.api.dashboard_routes import install as install_dashboard
from engram.api.operation_ids import operation_id


@pytest.fixture
def two(config: Config) -> Iterator[tuple[Memory, Memory]]:
    """Two stores in one process."""
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as first,
        Memory(":memory:", config=config, embedder=HashEmbedder()) as second,
    ):
        yield first, second


def included_per_app() -> FastAPI:
    """The app's routes as FastAPI's documented ``include_router`` builds them: every
    router included into this app alone."""
    app = FastAPI(
        title="engram",
        version=__version__,
        description=DESCRIPTION,
        generate_unique_id_function=operation_id,
    )
    for module in ROUTERS:
        app.include_router(module.router)
    install_dashboard(app)
    return app


def document(app: FastAPI) -> bytes:
    return json.dumps(app.openapi()).encode()


@pytest.mark.parametrize("mcp", [False, True])
def test_the_openapi_document_is_the_one_include_router_builds(
    two: tuple[Memory, Memory], mcp: bool
) -> None:
    expected = document(included_per_app())
    assert len(expected) > 100_000  # the whole API, not an empty document
    first, second = two
    # The first app of the process builds the shared routes, the second reuses them.
    assert document(create_app(first, mcp=mcp)) == expected
    assert document(create_app(second, mcp=mcp, auth=False)) == expected


def test_apps_of_one_process_share_the_built_routes(two: tuple[Memory, Memory]) -> None:
    first, second = (create_app(memory, mcp=False) for memory in two)
    shared = [route for route in first.router.routes if route in second.router.routes]
    # Every route module's routes (one included router each), not only FastAPI's own.
    assert len(shared) >= len(ROUTERS)
    assert {id(getattr(r, "original_router", None)) for r in shared} >= {
        id(module.router) for module in ROUTERS
    }


def test_each_app_answers_from_its_own_store(two: tuple[Memory, Memory]) -> None:
    first, second = two
    with (
        TestClient(create_app(first, auth=False, mcp=False, worker=False)) as a,
        TestClient(create_app(second, auth=False, mcp=False, worker=False)) as b,
    ):
        made = a.post("/v1/memories", json={"content": "Deploys are frozen on Fridays"})
        assert made.status_code == 201, made.text
        b.post("/v1/memories", json={"content": "Bob drinks green tea"})
        assert [m["content"] for m in a.get("/v1/memories").json()["items"]] == [
            "Deploys are frozen on Fridays"
        ]
        assert [m["content"] for m in b.get("/v1/memories").json()["items"]] == [
            "Bob drinks green tea"
        ]
        assert b.get(f"/v1/memories/{made.json()['id']}").status_code == 404
    assert [m.content for m in first.get_all()] == ["Deploys are frozen on Fridays"]


def test_each_app_runs_its_routers_lifespans(two: tuple[Memory, Memory]) -> None:
    first, second = (create_app(memory, mcp=False, worker=False) for memory in two)
    with TestClient(first), TestClient(second):
        # The chat proxy's router opens one upstream client per server run.
        upstreams = [getattr(app.state, "chat_upstream", None) for app in (first, second)]
        assert None not in upstreams
        assert upstreams[0] is not upstreams[1]

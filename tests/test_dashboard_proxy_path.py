"""The dashboard behind a reverse proxy that serves engram under a path (dogfood19).

An operator's nginx with ``location /engram/ { proxy_pass http://127.0.0.1:8765/; }``
forwards ``https://tools.example.com/engram/...`` to engram without the prefix, and
nothing outside it. The page loaded, but its script, style and every API call went to
``/static/...`` and ``/v1/...`` at the host's root, outside the prefix: 404s, an
unstyled page, and a key prompt that never opened. The page now addresses everything
relative to itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from starlette.types import ASGIApp, Receive, Scope, Send

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from test_dashboard_browser import browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Response

__all__ = ["browser"]  # the fixture shared with test_dashboard_browser.py

PREFIX = "/engram"


class StripPrefix:
    """What the proxy does: a path under ``prefix`` reaches the app without it (and with
    no ``root_path``: the app is not told); any other path is the proxy's own 404."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path: str = scope["path"]
            if not path.startswith(self.prefix + "/"):
                await send({"type": "http.response.start", "status": 404, "headers": []})
                await send({"type": "http.response.body", "body": b"not proxied"})
                return
            inner = path[len(self.prefix) :]
            scope = {**scope, "path": inner, "raw_path": inner.encode()}
        await self.app(scope, receive, send)


@pytest.fixture
def proxied(config: Config) -> Iterator[tuple[str, str]]:
    quiet = config.with_overrides(pipeline={"enabled": False})
    with Memory(":memory:", config=quiet, embedder=HashEmbedder()) as memory:
        _, key = memory.keys.create("ines")
        memory.add("The on-call rotation hands over on Tuesdays at 10:00.", user_id="ines")
        memory.add("Backups of the Postgres primary run nightly at 02:30 UTC.", user_id="ines")
        app = StripPrefix(create_app(memory, mcp=False, worker=False), PREFIX)
        with serve_in_thread(app) as url:  # type: ignore[arg-type]
            yield url, key


def test_the_dashboard_opens_and_searches_under_a_proxys_path(
    browser: Browser, proxied: tuple[str, str]
) -> None:
    url, key = proxied
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    failed: list[str] = []

    def note(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("response", note)
    try:
        page.goto(f"{url}{PREFIX}/")
        # The style sheet loaded: the phone-sized login button is 44 px high.
        button = "document.querySelector('#login button')"
        height = page.evaluate(f"getComputedStyle({button}).minHeight")
        assert height == "44px", failed
        page.fill("#key", key)
        page.click("#login button[type=submit]")
        page.wait_for_selector("#memory-list li.row")
        assert page.locator("#memory-list li.row").count() == 2
        page.fill("#search", "when are the database snapshots taken?")
        page.click("#search-form button[type=submit]")
        page.wait_for_selector("#page-info:has-text('for “')")
        assert "02:30 UTC" in page.inner_text("#memory-list")
    finally:
        context.close()
    assert failed == []

"""The dashboard's date filters with a search (new-user pass, round five): "From" after
"To" is an error the page shows, as the list route's is, not an empty "no match"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from test_dashboard_browser import browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, shared with test_dashboard_browser.py


@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, str]]:
    quiet = config.with_overrides(pipeline={"enabled": False})
    with Memory(":memory:", config=quiet, embedder=HashEmbedder()) as memory:
        _, key = memory.keys.create("alice")
        memory.add("Alice likes green tea in the morning", user_id="alice")
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            yield url, key


@pytest.mark.parametrize("q", ["", "tea"])
def test_a_reversed_date_range_is_shown_as_an_error(
    served: tuple[str, str], browser: Browser, q: str
) -> None:
    url, key = served
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{url}/#/memories?q={q}&since=2030-01-01&until=2020-01-01")
        page.fill("#key", key)
        page.click("#login button[type=submit]")
        shown = page.wait_for_selector("#memory-list .state.error")
        assert shown is not None
        text = shown.text_content() or ""
        assert "2020-01-01" in text and "2030-01-01" in text and "swap them" in text
    finally:
        context.close()

"""The palace page on a phone (new-user pass, round seven): at 375 px a drawer's AAAK
pointer stands on a line of its own, so its speaker and mined date are not wrapped
around the chip (the date broke in two), and nothing is wider than the screen."""

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
        talk = [
            {"role": "Alice", "content": "Nice! Do you still have the Trek bike?"},
            {"role": "Derek", "content": "No, I sold it. I ride a Brompton now."},
        ]
        memory.palace.mine_conversation(talk, wing="Derek", session="bikes", user_id="alice")
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            yield url, key


def test_a_drawer_pointer_has_its_own_line_on_a_phone(
    served: tuple[str, str], browser: Browser
) -> None:
    url, key = served
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{url}/#/palace")
        page.fill("#key", key)
        page.click("#login button[type=submit]")
        page.wait_for_selector(".tree details > summary")
        for _ in range(2):  # the wing, then its room
            for summary in page.query_selector_all("details:not([open]) > summary"):
                if summary.is_visible():
                    summary.click()
        page.wait_for_selector("li.drawer .pointer")
        rows = page.eval_on_selector_all(
            "li.drawer",
            """els => els.map(li => {
                const chip = li.querySelector('.pointer').getBoundingClientRect();
                const meta = li.querySelector('.hint').getBoundingClientRect();
                return [chip.bottom, meta.top];
            })""",
        )
        assert len(rows) == 2
        for chip_bottom, meta_top in rows:
            assert meta_top >= chip_bottom - 1, rows  # the speaker starts below the chip
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 375
    finally:
        context.close()

"""The palace page on a phone (new-user pass, round seven): at 375 px a drawer's AAAK
pointer stands on a line of its own, so its speaker and mined date are not wrapped
around the chip (the date broke in two), and nothing is wider than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from engram import Config, Memory
from test_dashboard_browser import browser, served_for_alice, signed_in_at

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, shared with test_dashboard_browser.py


@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, str]]:
    talk = [
        {"role": "Alice", "content": "Nice! Do you still have the Trek bike?"},
        {"role": "Derek", "content": "No, I sold it. I ride a Brompton now."},
    ]

    def fill(memory: Memory) -> None:
        memory.palace.mine_conversation(talk, wing="Derek", session="bikes", user_id="alice")

    with served_for_alice(config, fill) as served_site:
        yield served_site


def test_a_drawer_pointer_has_its_own_line_on_a_phone(
    served: tuple[str, str], browser: Browser
) -> None:
    url, key = served
    with signed_in_at(browser, f"{url}/#/palace", key, 375) as page:
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

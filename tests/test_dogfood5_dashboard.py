"""The dashboard's date filters with a search (new-user pass, round five): "From" after
"To" is an error the page shows, as the list route's is, not an empty "no match"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from engram import Config
from test_dashboard_browser import browser, served_for_alice, signed_in_at

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, shared with test_dashboard_browser.py


@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, str]]:
    with served_for_alice(
        config, lambda memory: memory.add("Alice likes green tea in the morning", user_id="alice")
    ) as served_site:
        yield served_site


@pytest.mark.parametrize("q", ["", "tea"])
def test_a_reversed_date_range_is_shown_as_an_error(
    served: tuple[str, str], browser: Browser, q: str
) -> None:
    url, key = served
    address = f"{url}/#/memories?q={q}&since=2030-01-01&until=2020-01-01"
    with signed_in_at(browser, address, key, 390) as page:
        shown = page.wait_for_selector("#memory-list .state.error")
        assert shown is not None
        text = shown.text_content() or ""
        assert "2020-01-01" in text and "2030-01-01" in text and "swap them" in text

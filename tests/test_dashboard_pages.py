"""The dashboard's pages in headless Chromium over one served store for the module
(issue 30): every route at 1440×900 and 390×844 with no sideways scroll on the phone,
deep links, reload, back and forward, the Runs page, the review queue's old claim beside
the new one, a key revoked mid-session, and no console error in normal use.

``test_every_page_at_both_widths`` saves each page's screenshot at both widths; ``make
docs-screenshots`` writes them into docs/img for docs/dashboard.md (see
test_dashboard_browser.py for where they go otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from test_dashboard_browser import ALICE, Site, browser, seed, shots, warm

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "shots", "warm"]  # fixtures shared with test_dashboard_browser.py

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
#: issue 30: a 1,350-character unbroken string made the page 11,837 px wide, and a
#: 20,000-character memory pushed its actions 9,000 px down.
TOKEN = "x" * 1350
LONG = " ".join(f"word{i}" for i in range(3000))[:20_000]


def more(memory: Memory, ids: dict[str, str]) -> None:
    """What the pages need beyond ``seed``: a failed run with output, issues, an
    observation and two injected memories; a tagged memory with metadata and entities;
    a 20,000-character memory and a 1,350-character token."""
    memory.runs.record_run(
        "run-7",
        task="Size the efoil wiring for a 20Ah pack",
        task_type="engineering",
        status="failed",
        score=4.0,
        output="Checked the pack.\n" + "Measured the voltage drop along the lead. " * 200,
        issues=["Missed the 10-AWG advice", "No fuse rating given"],
        user_id="alice",
    )
    memory.runs.log_memory_hits("run-7", [ids["battery"], ids["deploy"]], user_id="alice")
    ids["wiring"] = memory.add(
        "Alice works at Acme in Berlin and wires packs with 10-AWG silicone cable",
        user_id="alice",
        type="observation",
        title="Wiring lesson",
        tags=["wiring", "efoil"],
        metadata={"source": "bench notes", "pack_ah": 20},
        run_id="run-7",
    ).id
    ids["long"] = memory.add(LONG, user_id="alice", title="A very long memory").id
    ids["token"] = memory.add(TOKEN, user_id="alice", title="One unbroken token").id


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, warm: None) -> Iterator[Site]:
    home = tmp_path_factory.mktemp("pages")
    config = Config.load(env={}, home=str(home), pipeline={"enabled": False})
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        _, alice = memory.keys.create("alice")
        _, bob = memory.keys.create("bob")
        ids = seed(memory)
        more(memory, ids)
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            yield Site(url, memory, alice, bob, ids)


@contextmanager
def visit(browser: Browser, viewport: dict[str, int] = DESKTOP) -> Iterator[Page]:
    """A fresh page at ``viewport`` that must report no console error or page error."""
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert errors == [], errors


def open_at(page: Page, site: Site, route: str) -> None:
    """Open ``route`` as a pasted link; the key prompt comes first, then the route."""
    page.goto(f"{site.url}/{route}")
    if page.is_visible("#login"):
        page.fill("#key", site.alice)
        page.click("#login button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")


def overflow(page: Page) -> int:
    """How many CSS pixels the page is wider than the viewport (0: no sideways scroll)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def pages(ids: dict[str, str]) -> list[tuple[str, str, str]]:
    """(name, route, selector that shows it loaded) for every page of the dashboard."""
    return [
        ("memories", "#/memories", "#memory-list li.row"),
        ("memory", f"#/memories/{ids['wiring']}", "#detail-entities li"),
        ("long-memory", f"#/memories/{ids['long']}", "#detail .clamp .more"),
        ("token", f"#/memories/{ids['token']}", "#detail .content"),
        ("runs", "#/runs", "#runs-list li.row"),
        ("run", "#/runs/run-7", "#run-injected li"),
        ("review", "#/review", "#queue-list .claim.old p"),
        ("graph", "#/graph", "#graph circle.node"),
        ("palace", "#/palace/W-001/R-01", "#palace-tree .drawer .pointer"),
        ("settings", "#/settings", "#server-settings tr"),
    ]


SHOWN = ("memories", "memory", "runs", "run", "review", "graph", "palace", "settings")


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_every_page_at_both_widths(site: Site, browser: Browser, shots: Path, width: str) -> None:
    viewport = DESKTOP if width == "desktop" else PHONE
    with visit(browser, viewport) as page:
        page.goto(site.url + "/")
        assert page.is_visible("#login") and not page.is_visible(".tabs")  # no tabs yet
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"dashboard-login-{width}.png"))
        for name, route, ready in pages(site.ids):
            open_at(page, site, route)
            page.wait_for_selector(ready)
            page.wait_for_selector("[aria-busy=true]", state="detached")
            if width == "phone":
                assert overflow(page) <= 0, f"{name} is {overflow(page)} px too wide at 390"
            if name in ("long-memory", "token", "memory"):
                actions = page.locator("#detail-actions").bounding_box()
                assert actions is not None and actions["y"] < viewport["height"], name
            if name in SHOWN:
                page.screenshot(path=str(shots / f"dashboard-{name}-{width}.png"))
        if width == "phone":
            # The nav folds behind Menu; a link closes it again.
            assert not page.is_visible(".tabs")
            page.click("#menu")
            page.click(".tabs a[data-tab=runs]")
            page.wait_for_selector("#runs-list li.row")
            assert not page.is_visible(".tabs")
            # The detail is its own view: the list steps aside, Back returns to it.
            open_at(page, site, f"#/memories/{site.ids['wiring']}")
            page.wait_for_selector("#detail h2")
            assert not page.is_visible("#memory-list")
            page.click("#detail .back")
            page.wait_for_selector("#memory-list li.row")
            assert not page.is_visible("#detail")


def test_a_conversation_room_is_its_mining_log(site: Site, browser: Browser) -> None:
    # issue 31: the memory_mined events per conversation. A mined conversation is a room;
    # its drawers are the turns mining filed, each with when and the memory it made.
    with visit(browser) as page:
        open_at(page, site, "#/palace/W-001/R-01")
        page.wait_for_selector("#palace-tree .drawers li.mined:has-text('turns mined')")
        drawers = page.locator("#palace-tree .drawers li.drawer")
        count = drawers.count()
        assert count > 0
        summary = page.inner_text("#palace-tree .drawers li.mined")
        assert summary.startswith(f"{count} turns mined, first ")
        assert drawers.first.locator("time").count() == 1  # "mined <when>"
        memory_id = drawers.first.get_attribute("data-memory-id")
        drawers.first.locator("a:has-text('memory')").click()
        page.wait_for_selector("#detail h2")
        assert page.url.endswith(f"#/memories/{memory_id}")
        page.wait_for_selector("#detail-history li:has-text('memory_mined')")


def test_a_wrong_room_or_a_huge_search_is_answered_in_words(site: Site, browser: Browser) -> None:
    # new-user pass 26: a pasted #/palace/W-999/R-99 showed the tree (with the room
    # opened before and its preview) as if the address were right; a 5,000-character
    # search echoed itself whole in the hits line, a wall of text above the list.
    with visit(browser) as page:
        open_at(page, site, "#/palace/W-001/R-01")
        page.wait_for_selector("#palace-tree .drawer .pointer")
        page.click("#palace-tree .drawer .pointer")
        page.wait_for_selector("#palace-preview:not([hidden])")
        for route, said in [
            ("#/palace/W-999/R-99", "No wing W-999 in this palace."),
            ("#/palace/W-001/R-99", "No room R-99 in wing W-001 in this palace."),
        ]:
            page.goto(f"{site.url}/{route}")
            page.wait_for_selector("#palace-tree .missing[role=alert]")
            assert page.inner_text("#palace-tree .missing").startswith(said)
            assert page.is_hidden("#palace-preview")
        page.click("#palace-tree .missing a")  # back to the whole palace: no note
        page.wait_for_selector("#palace-tree .missing", state="detached")

        query = "green tea " * 500
        open_at(page, site, "#/memories")
        page.fill("#search", query)
        page.click("#search-form button[type=submit]")
        page.wait_for_selector("#page-info:has-text('for “green tea green tea')")
        shown = page.inner_text("#page-info")
        assert len(shown) < 120 and shown.endswith("…”"), shown[:200]


def test_deep_links_reload_and_back_and_forward(site: Site, browser: Browser) -> None:
    with visit(browser) as page:
        wiring = site.ids["wiring"]
        open_at(page, site, f"#/memories/{wiring}")
        page.wait_for_selector("#detail h2:has-text('Wiring lesson')")
        detail = page.inner_text("#detail")
        for shown in ("wiring", "efoil", "bench notes", "pack_ah", "run-7", "Acme", "works at"):
            assert shown in detail, shown
        page.wait_for_selector("#detail-history li:has-text('create')")
        page.wait_for_selector("#detail-valid:has-text('Valid from')")
        page.reload()  # reload keeps the place
        page.wait_for_selector("#detail h2:has-text('Wiring lesson')")

        page.click("#detail .chips a:has-text('wiring')")  # a tag is a filter
        page.wait_for_selector("#page-info:has-text('1–1 of 1')")
        assert page.url.endswith("#/memories?tag=wiring")
        assert page.is_hidden("#detail")
        page.go_back()
        page.wait_for_selector("#detail h2:has-text('Wiring lesson')")
        page.go_forward()
        page.wait_for_selector("#detail", state="hidden")
        # Back showed the unfiltered list: wait for the filtered one to replace it.
        page.wait_for_selector("#page-info:has-text('1–1 of 1')")
        assert page.locator("#memory-list li.row").get_attribute("data-id") == wiring

        page.select_option("#filter-type", "decision")
        page.wait_for_selector("#page-info:has-text('No memories')")
        assert "type=decision" in page.url and "tag=wiring" in page.url
        page.click("#clear-filters")
        page.wait_for_selector(f"#page-info:has-text('of {ALICE + 3}')")

        page.fill("#search", "green tea")
        page.click("#search-form button[type=submit]")
        page.wait_for_selector("#page-info:has-text('for “green tea”')")
        assert "q=green+tea" in page.url
        page.click(f"#memory-list li[data-id='{site.ids['tea']}']")
        page.wait_for_selector("#detail .content:has-text('green tea')")
        page.keyboard.press("Escape")  # Escape closes the detail, keeping the search
        page.wait_for_selector("#detail", state="hidden")
        assert page.url.endswith("#/memories?q=green+tea")
        page.reload()
        page.wait_for_selector("#page-info:has-text('for “green tea”')")
        assert page.input_value("#search") == "green tea"

        page.click(".tabs a[data-tab=graph]")
        page.wait_for_selector("#graph circle.node")
        page.focus("#graph")  # the keyboard walks and selects nodes
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#tooltip:not([hidden])")
        page.keyboard.press(" ")
        page.wait_for_selector("#graph-selected:has-text('1 selected')")
        page.keyboard.press("Escape")
        page.wait_for_selector("#graph-selected:text-is('')", state="attached")
        page.go_back()
        page.wait_for_selector("#page-info:has-text('for “green tea”')")


#: Holds the unfiltered memory list back 1.5 s, as a loaded server would.
SLOW_UNFILTERED = """
const plain = window.fetch;
window.fetch = async (input, init) => {
  const url = String(input);
  if (url.includes("/v1/dashboard/memories") && !url.includes("tag=")) {
    await new Promise((done) => setTimeout(done, 1500));
  }
  return plain(input, init);
};
"""


def test_a_list_that_arrives_late_does_not_replace_the_one_asked_for_since(
    site: Site, browser: Browser
) -> None:
    """Back to the whole list, then forward to a filtered one before the whole list has
    arrived: the filtered list stays (the CI run under load showed the late one)."""
    with visit(browser) as page:
        page.add_init_script(SLOW_UNFILTERED)
        open_at(page, site, "#/memories?tag=wiring")
        page.wait_for_selector("#page-info:has-text('1–1 of 1')")
        page.evaluate("window.location.hash = '#/memories'")  # slow: 1.5 s
        page.wait_for_timeout(200)
        page.go_back()
        page.wait_for_selector("#page-info:has-text('1–1 of 1')")
        page.wait_for_timeout(2_500)  # the whole list has arrived by now, and is dropped
        assert page.inner_text("#page-info") == "1–1 of 1"
        assert page.url.endswith("#/memories?tag=wiring")


def test_the_runs_page_lists_runs_and_opens_one(site: Site, browser: Browser) -> None:
    with visit(browser) as page:
        open_at(page, site, "#/runs")
        rows = page.locator("#runs-list li.row")
        rows.first.wait_for()
        assert rows.count() == 2
        failed = page.locator("#runs-list li[data-id='run-7']")
        text = failed.inner_text()
        for shown in ("failed", "4.0", "Size the efoil wiring"):
            assert shown in text, shown
        failed.click()
        page.wait_for_selector("#run-view h2:has-text('Size the efoil wiring')")
        assert page.url.endswith("#/runs/run-7")
        assert page.locator("#run-issues li").all_inner_texts() == [
            "Missed the 10-AWG advice",
            "No fuse rating given",
        ]
        assert "Checked the pack." in page.inner_text("#run-view .output")
        assert page.locator("#run-observations li").get_attribute("data-id") == site.ids["wiring"]
        injected = page.locator("#run-injected li")
        assert [injected.nth(i).get_attribute("data-id") for i in range(2)] == [
            site.ids["battery"],
            site.ids["deploy"],
        ]
        assert injected.locator(".rank").all_inner_texts() == ["#1", "#2"]
        injected.first.locator("a").click()
        page.wait_for_selector("#detail .content:has-text('efoil battery')")
        page.go_back()
        page.wait_for_selector("#run-view h2")
        page.click("#run-view a:has-text('Every memory this run wrote')")  # the run filter
        page.wait_for_selector("#page-info:has-text('1–1 of 1')")
        assert page.input_value("#filter-run") == "run-7"
        assert page.locator("#memory-list li.row").get_attribute("data-id") == site.ids["wiring"]
        page.fill("#filter-since", "2999-01-01")  # a date range past every memory
        page.wait_for_selector("#memory-list .state.empty:has-text('No memory matches')")
        assert "since=2999-01-01" in page.url
        page.go_back()
        page.go_back()
        page.wait_for_selector("#run-view h2")
        page.click("#run-view a:has-text('All runs')")
        page.wait_for_selector("#runs-list li.row")


def test_the_review_queue_shows_the_old_claim_beside_the_new(site: Site, browser: Browser) -> None:
    with visit(browser) as page:
        open_at(page, site, "#/review")
        card = page.locator(f"#queue-list li.card[data-id='{site.ids['queued']}']")
        card.locator(".claim.old p").wait_for()
        assert card.locator(".claim.old p").inner_text() == "Alice likes green tea in the morning"
        assert card.locator(".claim.new p").inner_text() == "Alice likes black tea"
        assert "green vs black tea" in card.locator(".reason").inner_text()
        assert "would replace the stored memory" in card.locator(".reason").inner_text()
        links = card.locator(".claim a").evaluate_all("as => as.map(a => a.hash)")
        assert links == [f"#/memories/{site.ids['tea']}"] * 2  # stored, and its source

        page.check(f"#prune-list li[data-id='{site.ids['stale']}'] input[type=checkbox]")
        page.click("#prune-preview")
        page.wait_for_selector("#prune-result:has-text('Dry run: would delete 1')")
        result = page.locator("#prune-result").bounding_box()
        candidates = page.locator("#prune-list").bounding_box()
        assert result is not None and candidates is not None
        assert result["y"] < candidates["y"]  # the dry run comes first
        assert "The staging cluster lives in us-east-1" in page.inner_text("#prune-result")

        page.click("#queue-approve")  # nothing checked: the error shows at the action
        error = page.locator("#queue-tools + .action-error")
        error.wait_for()
        assert "Select review items first" in error.inner_text()
        page.click("#prune-all")  # the next action clears it
        error.wait_for(state="detached")


def test_a_revoked_key_returns_to_the_prompt_with_the_reason(site: Site, browser: Browser) -> None:
    record, key = site.memory.keys.create("alice", name="revoked mid-session")
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(site.url + "/#/runs")
        page.fill("#key", key)
        page.click("#login button[type=submit]")
        page.wait_for_selector("#runs-list li.row")
        site.memory.keys.revoke(record.id)
        page.click("#menu")
        page.click(".tabs a[data-tab=review]")
        page.wait_for_selector("#login-error:has-text('no longer opens this store')")
        assert "unknown or revoked" in page.inner_text("#login-error")
        assert not page.is_visible("#app") and not page.is_visible("#menu")
        assert page.url.endswith("#/review")  # a fresh key returns to the same place
        page.fill("#key", site.alice)
        page.click("#login button[type=submit]")
        page.wait_for_selector("#queue-list .card")
    finally:
        context.close()


#: Records what the graph's progress line said while it was shown (the layout of these
#: few nodes is too quick to catch with a selector).
WATCH_PROGRESS = """() => {
  window.progressSeen = [];
  const box = document.querySelector('#graph-progress');
  new MutationObserver(() => {
    if (!box.hidden) window.progressSeen.push(box.textContent.trim());
  }).observe(box, { attributes: true, childList: true, subtree: true, characterData: true });
}"""


def test_the_graph_shows_progress_and_says_when_a_brush_is_too_big(
    site: Site, browser: Browser
) -> None:
    with visit(browser) as page:
        # The page reads the prune limit at sign-in: make it 3, under the 10 nodes.
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("engram.review.prune.MAX_PRUNE_IDS", 3)
            open_at(page, site, "#/graph")
        page.wait_for_selector("#graph circle.node")
        page.evaluate(WATCH_PROGRESS)
        page.click("#graph-refresh")
        page.wait_for_selector("#graph-info:has-text('UMAP')")
        seen = page.evaluate("window.progressSeen")
        assert any(text.startswith("Laying out up to 600 memories") for text in seen), seen
        assert page.is_hidden("#graph-progress")

        page.check("input[name=graph-mode][value=brush]")
        box = page.locator("#graph").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 8, box["y"] + 8)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] - 8, box["y"] + box["height"] - 8, steps=8)
        page.mouse.up()
        page.wait_for_selector("#graph-selected:has-text('10 selected')")
        said = page.inner_text("#graph-selected")
        assert "at most 3 memories at once" in said and "brush a smaller region" in said
        assert page.is_disabled("#graph-review")

        page.focus("#graph")  # Enter opens the node in focus
        page.keyboard.press("ArrowLeft")
        focused = page.locator("#graph circle.node.cursor").get_attribute("data-id")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#detail[data-id='{focused}'] h2")
        assert page.url.endswith(f"#/memories/{focused}")

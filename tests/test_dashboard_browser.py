"""The dashboard in a real browser: headless Debian Chromium driven by Playwright, against
``create_app`` served by uvicorn on a loopback socket, checked against the store.

Chromium comes from Debian (``apt-get install -y chromium``), never from
``playwright install``; without it these tests fail and say what to run. Some tests also
save screenshots of the dashboard (every page at both widths, test_dashboard_pages.py,
through the ``shots`` fixture here): into a temporary folder, so a test run never
rewrites tracked files; ``make docs-screenshots`` sets ``ENGRAM_SCREENSHOTS_DIR=docs/img``
to refresh the ones docs/dashboard.md shows.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.errors import NotFoundError
from engram.store.protocols import VectorRow
from engram.store.protocols.transfer import MemoryBundle
from engram.validate import build_record

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Set by ``make docs-screenshots`` (to docs/img) to keep the screenshots.
SCREENSHOTS_ENV = "ENGRAM_SCREENSHOTS_DIR"
VIEWPORT = {"width": 1280, "height": 800}


def chromium_path() -> str:
    """Debian's chromium, or a failure that says how to install it (never a skip)."""
    if Path(CHROMIUM).is_file() or shutil.which("chromium") == CHROMIUM:
        return CHROMIUM
    pytest.fail(
        f"the dashboard browser tests need Debian's chromium at {CHROMIUM}: run "
        "`apt-get install -y chromium` (never `playwright install`)",
        pytrace=False,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=path, headless=True, args=ARGS)
        yield launched
        launched.close()


#: Alice's live memories after ``seed``: five added, two palace drawers mined.
ALICE = 7


@dataclass
class Site:
    """A served store: its URL, the library over it, and two users' keys."""

    url: str
    memory: Memory
    alice: str
    bob: str
    ids: dict[str, str]


def seed(memory: Memory) -> dict[str, str]:
    """Alice's and Bob's memories, a palace room, a review item and a prune candidate."""
    ids: dict[str, str] = {}
    for name, text, kind in [
        ("tea", "Alice likes green tea in the morning", "preference"),
        ("deploy", "Deploys go through ops/deploy.sh after the smoke tests", "decision"),
        ("battery", "The efoil battery is 12V 20Ah and overheats on 12-AWG wire", "fact"),
        ("stale", "The staging cluster lives in us-east-1", "fact"),
    ]:
        ids[name] = memory.add(text, user_id="alice", type=kind).id
    observed = memory.add(
        "Compared three vector stores; pgvector won on cost",
        user_id="alice",
        type="observation",
        title="Vector store comparison",
        narrative="pgvector won on cost and operations.",
        facts=["pgvector HNSW recall 0.97", "Chroma needs a separate service"],
        score=8.5,
        run_id="run-42",
    )
    ids["observed"] = observed.id
    memory.runs.record_run(
        "run-42",
        task="Which vector store should we use?",
        task_type="research",
        status="completed",
        score=8.5,
        user_id="alice",
    )
    memory.runs.log_memory_hits("run-42", [ids["deploy"]], user_id="alice")
    for _ in range(2):  # quality -2: seed 000's prune rule
        memory.feedback(ids["stale"], "down", "wrong region", user_id="alice")
    memory.palace.mine_conversation(
        [
            {"role": "user", "content": "I tried a 12-AWG silicone wire and it overheated"},
            {"role": "assistant", "content": "Use 10-AWG for a 20Ah pack"},
        ],
        wing="Efoil rebuild",
        session="evening session",
        user_id="alice",
    )
    bob = memory.add("Bob's vault code is in the blue folder", user_id="bob")
    ids["bob"] = bob.id
    memory.add("Bob prefers oolong tea", user_id="bob", type="preference")
    queued = memory.store.review.add(
        "user:alice",
        ids["tea"],
        target_id=ids["tea"],
        action="UPDATE",
        proposal={"action": "UPDATE", "content": "Alice likes black tea"},
        reason="green vs black tea",
        now=datetime.now(UTC),
    )
    ids["queued"] = str(queued.id)
    return ids


@pytest.fixture(scope="module")
def warm() -> None:
    """Import UMAP and compile it once, as ``engram serve`` does in the background at
    start, so the graph tab opens within the browser's wait."""
    with Memory(":memory:", config=Config.load(env={}), embedder=None) as memory:
        memory.review.warm_up()


@contextmanager
def served_for_alice(config: Config, fill: Callable[[Memory], object]) -> Iterator[tuple[str, str]]:
    """A store with alice's key and what ``fill`` puts in it, served with no pipeline or
    worker: (the dashboard's URL, alice's key), for a test with one store of its own."""
    quiet = config.with_overrides(pipeline={"enabled": False})
    with Memory(":memory:", config=quiet, embedder=HashEmbedder()) as memory:
        _, key = memory.keys.create("alice")
        fill(memory)
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            yield url, key


@pytest.fixture
def site(config: Config, warm: None) -> Iterator[Site]:
    quiet = config.with_overrides(pipeline={"enabled": False})
    with Memory(":memory:", config=quiet, embedder=HashEmbedder()) as memory:
        _, alice = memory.keys.create("alice")
        _, bob = memory.keys.create("bob")
        ids = seed(memory)
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            yield Site(url, memory, alice, bob, ids)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    opened = context.new_page()
    opened.set_default_timeout(10_000)
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    context.close()
    assert errors == [], errors


def sign_in(page: Page, url: str, key: str) -> None:
    page.goto(url + "/")
    page.fill("#key", key)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#memory-list li.row")


@contextmanager
def signed_in_at(browser: Browser, address: str, key: str, width: int) -> Iterator[Page]:
    """A page of a phone-shaped context (``width`` px wide) opened at ``address`` (a URL
    with its route) and signed in with ``key``; the context is closed after."""
    context = browser.new_context(viewport={"width": width, "height": 812})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(address)
        page.fill("#key", key)
        page.click("#login button[type=submit]")
        yield page
    finally:
        context.close()


def tab(page: Page, name: str) -> None:
    page.click(f".tabs [data-tab={name}]")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``$ENGRAM_SCREENSHOTS_DIR``, else a temporary folder."""
    chosen = os.environ.get(SCREENSHOTS_ENV)
    return Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")


def test_a_test_run_leaves_the_tracked_screenshots_alone(shots: Path) -> None:
    # issue 26 item 17: make test rewrote docs/img/dashboard-*.png
    repository = Path(__file__).resolve().parents[1]
    if os.environ.get(SCREENSHOTS_ENV):  # make docs-screenshots asked for them
        return
    assert not shots.resolve().is_relative_to(repository)


def test_a_bad_key_is_refused_and_a_good_one_opens_the_memories(site: Site, page: Page) -> None:
    page.goto(site.url + "/")
    assert page.is_visible("#login") and not page.is_visible("#app")
    page.fill("#key", "engram_not-a-real-key")
    page.click("#login button[type=submit]")
    page.wait_for_selector("#login-error:has-text('unknown or revoked')")
    assert not page.is_visible("#app")

    sign_in(page, site.url, site.alice)
    rows = page.locator("#memory-list li.row")
    assert rows.count() == ALICE
    assert page.locator("#page-info").inner_text() == f"1–{ALICE} of {ALICE}"
    assert page.evaluate("sessionStorage.getItem('engram.key')") == site.alice
    options = page.locator("#namespace option").all_inner_texts()
    assert options == [f"user:alice ({ALICE})"]
    page.reload()  # the key is kept for the session: no second prompt
    page.wait_for_selector("#memory-list li.row")
    assert not page.is_visible("#login")


def test_search_thumbs_up_and_delete_change_the_store(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    page.fill("#search", "green tea")
    page.click("#search-form button[type=submit]")
    page.wait_for_selector("#page-info:has-text('for “green tea”')")
    first = page.locator("#memory-list li.row").first
    assert first.get_attribute("data-id") == site.ids["tea"]
    first.click()
    page.wait_for_selector("#detail h2")
    assert "Alice likes green tea" in page.inner_text("#detail .content")
    page.click("#thumb-up")
    page.wait_for_selector("#detail-quality:has-text('+1')")
    assert site.memory.get(site.ids["tea"], user_id="alice").quality == 1

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete")
    page.wait_for_selector("#detail", state="hidden")
    with pytest.raises(NotFoundError):
        site.memory.get(site.ids["tea"], user_id="alice")
    page.click("#clear-search")
    page.wait_for_selector(f"#page-info:has-text('of {ALICE - 1}')")
    assert site.ids["tea"] not in page.locator("#memory-list li.row").evaluate_all(
        "rows => rows.map(r => r.dataset.id)"
    )


def test_the_detail_pane_shows_the_observation_and_its_run(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    page.click(f"#memory-list li[data-id='{site.ids['observed']}']")
    page.wait_for_selector("#detail h2:has-text('Vector store comparison')")
    assert page.locator("#detail .facts li").all_inner_texts() == [
        "pgvector HNSW recall 0.97",
        "Chroma needs a separate service",
    ]
    page.wait_for_selector("#run-link:has-text('Which vector store should we use?')")
    run = page.inner_text("#run-link")
    assert "run-42" in run and "score 8.5" in run and "produced 1, injected 1" in run
    page.click("#run-link .injected li a")  # the memory injected into the run
    page.wait_for_selector("#detail .content:has-text('Deploys go through')")


def test_filters_by_type_and_quality_page_on_the_server(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    page.select_option("#filter-quality", "negative")
    page.wait_for_selector("#page-info:has-text('1–1 of 1')")
    assert page.locator("#memory-list li.row").get_attribute("data-id") == site.ids["stale"]
    page.select_option("#filter-quality", "")
    # The page info still says "1–1 of 1" until the unfiltered page arrives: wait for
    # that page first, or the next wait passes on the stale text (issue 26 item 16's
    # pattern: reading what another task has not written yet).
    page.wait_for_selector(f"#page-info:has-text('of {ALICE}')")
    page.select_option("#filter-type", "decision")
    page.wait_for_selector("#page-info:has-text('1–1 of 1')")
    assert page.locator("#memory-list li.row").get_attribute("data-id") == site.ids["deploy"]

    page.select_option("#filter-type", "")
    tab(page, "settings")
    page.fill("#set-page-size", "2")
    page.click("#settings-form button[type=submit]")
    tab(page, "memories")
    page.wait_for_selector(f"#page-info:has-text('1–2 of {ALICE}')")
    for shown in ("3–4", "5–6", "7–7"):
        page.click("#next-page")
        page.wait_for_selector(f"#page-info:has-text('{shown} of {ALICE}')")
    assert page.is_disabled("#next-page")


def test_settings_show_the_server_and_top_k_goes_with_each_search(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    tab(page, "settings")
    # Until the settings arrive the table holds one "Loading…" row and is aria-busy.
    page.wait_for_selector("#server-settings:not([aria-busy]) tr")
    table = page.inner_text("#server-settings")
    assert "test-hash (64-dim)" in table and "Auto-mine" in table and "off" in table
    page.fill("#set-topk", "1")
    page.click("#settings-form button[type=submit]")
    tab(page, "memories")
    page.fill("#search", "tea deploy battery")
    page.click("#search-form button[type=submit]")
    page.wait_for_selector("#page-info:has-text('1 hit')")
    assert page.locator("#memory-list li.row").count() == 1


def test_the_graph_brushes_a_selection_into_a_dry_run_review(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    tab(page, "graph")
    page.wait_for_selector("#graph circle.node")
    assert page.locator("#graph circle.node").count() == ALICE
    fills = page.locator("#graph circle.node").evaluate_all(
        "cs => Object.fromEntries(cs.map(c => [c.dataset.id, c.getAttribute('fill')]))"
    )
    assert fills[site.ids["stale"]] == "#d73027"  # red: quality -2
    assert fills[site.ids["deploy"]] == "#848d97"  # grey: neutral
    assert page.locator("#legend li.cluster").count() >= 1

    page.click(f"#graph circle[data-id='{site.ids['deploy']}']")
    page.wait_for_selector("#tooltip:has-text('Deploys go through')")

    page.check("input[name=graph-mode][value=brush]")
    box = page.locator("#graph").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 8, box["y"] + 8)  # inside the border; nodes keep a margin
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 8, box["y"] + box["height"] - 8, steps=8)
    page.mouse.up()
    page.wait_for_selector(f"#graph-selected:has-text('{ALICE} selected')")
    page.click("#graph-review")
    page.wait_for_selector(f"#selection-count:has-text('{ALICE} memories selected')")
    page.click("#selection-preview")
    page.wait_for_selector("#prune-result:has-text('Dry run')")
    assert site.memory.get_all(user_id="alice").total == ALICE  # a dry run deletes nothing


def test_double_clicking_a_node_opens_its_detail(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    tab(page, "graph")
    page.wait_for_selector("#graph circle.node")
    page.dblclick(f"#graph circle[data-id='{site.ids['battery']}']")
    page.wait_for_selector("#detail .content:has-text('efoil battery')")
    assert page.is_visible("#tab-memories")


def test_review_prunes_candidates_and_resolves_the_queue(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    tab(page, "review")
    candidate = f"#prune-list li[data-id='{site.ids['stale']}']"
    page.wait_for_selector(candidate)
    page.wait_for_selector(f"#queue-list li[data-id='{site.ids['queued']}']")
    page.check(f"{candidate} input[type=checkbox]")
    page.click("#prune-preview")
    page.wait_for_selector("#prune-result:has-text('Dry run')")
    assert site.memory.get(site.ids["stale"], user_id="alice").quality == -2
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#prune-apply")
    page.wait_for_selector(candidate, state="detached")
    with pytest.raises(NotFoundError):
        site.memory.get(site.ids["stale"], user_id="alice")

    page.check(f"#queue-list li[data-id='{site.ids['queued']}'] input[type=checkbox]")
    page.click("#queue-reject")
    page.wait_for_selector("#queue-list:has-text('Nothing waits for review')")
    item = site.memory.review.get(int(site.ids["queued"]), user_id="alice")
    assert item.status == "rejected"


def test_the_palace_tree_opens_to_drawers_and_previews_a_pointer(site: Site, page: Page) -> None:
    sign_in(page, site.url, site.alice)
    tab(page, "palace")
    page.click("#palace-tree li.wing > details > summary")
    page.click("#palace-tree li.room > details > summary")
    pointers = page.locator("#palace-tree .drawer .pointer")
    pointers.first.wait_for()
    assert pointers.count() == 2
    assert re.match(r"§ W-\d{3}/R-\d{2}/D-\d{3}", pointers.first.inner_text())
    pointers.first.click()
    page.wait_for_selector("#palace-preview .content:has-text('12-AWG silicone wire')")
    page.click("#palace-preview button.open")
    page.wait_for_selector("#detail .content:has-text('12-AWG silicone wire')")


def test_a_users_key_never_shows_another_users_memories(site: Site, page: Page) -> None:
    bob_texts = ["vault code", "oolong"]
    sign_in(page, site.url, site.alice)
    seen: list[str] = [page.inner_text("body")]
    assert page.locator("#namespace option").all_inner_texts() == [f"user:alice ({ALICE})"]
    query = "vault code blue folder oolong"
    page.fill("#search", query)
    page.click("#search-form button[type=submit]")
    page.wait_for_selector(
        "#page-info:has-text('for “'), #page-info:has-text('No memory looked related')"
    )
    # The page echoes alice's own query (an unsure recall returns her nearest memories,
    # marked, instead of nothing); what must never show is bob's memory.
    seen.append(page.inner_text("body").replace(query, ""))
    for name, ready in [
        ("review", "#queue-list li"),
        ("graph", "#graph circle.node"),
        ("palace", "#palace-tree li.wing"),
    ]:
        tab(page, name)
        page.wait_for_selector(ready)
        seen.append(page.inner_text("body"))
    graph_ids = page.locator("#graph circle.node").evaluate_all("cs => cs.map(c => c.dataset.id)")
    assert site.ids["bob"] not in graph_ids and len(graph_ids) == ALICE
    # A namespace typed into the URL by hand is refused by the API, not shown.
    denied = page.evaluate(
        """async () => (await fetch('/v1/dashboard/memories?namespace=user:bob',
            {headers: {Authorization: 'Bearer ' + sessionStorage.getItem('engram.key')}})).status"""
    )
    assert denied == 403
    for text in seen:
        for secret in bob_texts:
            assert secret not in text

    page.click("#signout")
    page.fill("#key", site.bob)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#memory-list li.row")
    assert page.locator("#namespace option").all_inner_texts() == ["user:bob (2)"]
    assert "green tea" not in page.inner_text("#memory-list")


# -- a 100k-memory store ----------------------------------------------------------------
BIG = 100_000
BIG_CHUNK = 10_000  # memories per import transaction
GRAPH_NODES = 600  # seed 000: the 600 most recent observations


def build_big_store(path: Path, config: Config) -> None:
    """100k memories, each with a unit vector (random, as the hash embedder's model), so
    the server's backfill has nothing to do while the graph is timed.

    The paging and the graph need 100k rows, not the write pipeline: the records are
    validated as ``add`` validates them and go in through the store's bulk import (as a
    restored export does; the FTS triggers follow), with their vectors in the same
    transaction. ``add_many`` plus ``vectors.put`` took 203 s of this module's setup at
    load 4 (the safety scan, admission and per-row history of 100k writes);
    docs/testing.md, third round."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    rng = np.random.default_rng(42)
    vectors = rng.standard_normal((BIG, 64)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with Memory(str(path), config=config, embedder=None) as memory:
        for first in range(0, BIG, BIG_CHUNK):
            bundles = []
            for i in range(first, min(first + BIG_CHUNK, BIG)):
                record = build_record(
                    f"Observation {i}: run {i % 977} measured latency {i % 89} ms",
                    namespace="user:alice",
                    max_chars=config.max_content_chars,
                    user_id="alice",
                    type="observation" if i % 3 == 0 else "fact",
                    created_at=start + timedelta(minutes=i),
                ).with_changes(embedding_model=HashEmbedder.name)
                vector = VectorRow(record.id, HashEmbedder.name, vectors[i], record.content_hash)
                bundles.append(MemoryBundle(record=record, vector=vector))
            counts = memory.store.transfer.import_bundles(bundles)
            assert (counts.memories, counts.vectors) == (len(bundles), len(bundles))


@pytest.fixture(scope="module")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Config]:
    home = tmp_path_factory.mktemp("big")
    # No jobs and no inline entity linker: the linker is 40% of writing 100k memories.
    quiet = {"enabled": False, "linker": False}
    config = Config.load(env={}, home=str(home), pipeline=quiet)
    path = home / "big.db"
    build_big_store(path, config)
    return path, config


@pytest.mark.slow
# Hang guard: the module's 100k setup takes 32 s quiet (docs/testing.md, third round)
# and ran past pytest-timeout's 300 s at load 9; 900 s is 28x, and a hung build or
# page still fails.
@pytest.mark.timeout(900)
def test_a_100k_store_pages_on_the_server_and_graphs_600_nodes(
    big_store: tuple[Path, Config], warm: None, page: Page
) -> None:
    """The first pages and issue 15's 600-node graph of a 100k store. How fast the graph
    is (issue 15's 2 s) is `engram bench graph-view`'s figure, not a timed assertion
    here: this machine is shared and the check failed under load."""
    path, config = big_store
    with Memory(str(path), config=config, embedder=HashEmbedder()) as memory:
        _, key = memory.keys.create("alice")
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            sign_in(page, url, key)
            assert page.locator("#page-info").inner_text() == f"1–50 of {BIG}"
            assert page.locator("#memory-list li.row").count() == 50
            page.click("#next-page")
            page.wait_for_selector("#page-info:has-text('51–100 of')")

            tab(page, "graph")
            # (the page's CSP forbids eval, so wait on a selector, not a JS predicate)
            # Hang guard: about 1 s quiet; 60 s survives load 15, a graph never drawn fails.
            page.locator("#graph circle.node").nth(GRAPH_NODES - 1).wait_for(timeout=60_000)
            assert page.locator("#graph circle.node").count() == GRAPH_NODES
            assert f"{GRAPH_NODES} of {BIG} memories" in page.inner_text("#graph-info")
            page.check("input[name=graph-mode][value=brush]")
            box = page.locator("#graph").bounding_box()
            assert box is not None
            page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
            page.mouse.down()
            page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.6, steps=8)
            page.mouse.up()
            page.wait_for_selector("#graph-selected:has-text('selected')")
            brushed = int(page.inner_text("#graph-selected").split()[0])
            assert 0 < brushed < GRAPH_NODES
            assert page.locator("#graph circle.node.selected").count() == brushed

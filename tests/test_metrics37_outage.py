"""``/metrics`` and ``/ready`` while PostgreSQL is down (helper metrics37).

Before: the scrape's admin key was checked in the store, so with the database stopped
``/metrics`` waited ``pool_timeout`` and answered 503, and Prometheus never read
``engram_store_up 0``; ``/ready`` took as long. Now both wait at most
``OUTAGE_WAIT`` for a connection while the pool knows the database is unreachable, and
an admin key the store accepted in the last ``REMEMBERED_FOR`` seconds still reads the
scrape (docs/operations.md, "When the database goes away").

These tests stop and start a PostgreSQL server of their own (the suite's is shared).
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engram import Config, Memory
from engram import keys as keys_module
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.config import PostgresConfig
from hashembed import HashEmbedder
from pgserver import PgServer

#: Short enough to keep the tests fast, long enough that a wait for it is seen.
POOL_TIMEOUT = 6.0
#: What the scrape and ``/ready`` must answer within during the outage.
FAST = 3.0


class OwnServer:
    """A PostgreSQL server these tests may stop and start."""

    def __init__(self) -> None:
        self.server = PgServer.start()
        if self.server.workdir is None:  # ENGRAM_TEST_POSTGRES_URL: not ours to stop
            pytest.skip("needs a PostgreSQL server of its own to stop")

    def pg_ctl(self, verb: str) -> None:
        if verb == "stop":
            self.server.pause()
        else:
            self.server.resume()


@pytest.fixture(scope="module")
def own() -> Iterator[OwnServer]:
    own = OwnServer()
    yield own
    own.server.stop()


@pytest.fixture
def served(own: OwnServer, tmp_path: Path) -> Iterator[tuple[str, Memory]]:
    name = own.server.create_database()
    config = Config.load(env={}, home=str(tmp_path))
    config = dataclasses.replace(
        config, postgres=PostgresConfig(pool_timeout=POOL_TIMEOUT, connect_timeout=2)
    )
    mem = Memory(own.server.database_url(name), config=config, embedder=HashEmbedder())
    try:
        with serve_in_thread(create_app(mem, mcp=False, worker=False)) as url:
            yield url, mem
    finally:
        mem.close()
        if not _running(own):
            own.pg_ctl("start")
        own.server.drop_database(name)


def _running(own: OwnServer) -> bool:
    return own.server.running()


def _get(url: str, key: str | None = None) -> tuple[httpx.Response, float]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    start = time.monotonic()
    r = httpx.get(url, headers=headers, timeout=60)
    return r, time.monotonic() - start


def _store_up(text: str) -> int:
    found = re.search(r"^engram_store_up (\d)$", text, re.M)
    assert found, text
    return int(found.group(1))


@pytest.mark.postgres
def test_the_scrape_reports_the_outage_within_seconds(
    own: OwnServer, served: tuple[str, Memory]
) -> None:
    url, mem = served
    _, admin = mem.keys.create("prometheus", admin=True)
    _, user = mem.keys.create("mira")
    _, unseen = mem.keys.create("ops", admin=True)  # never shown to the server before
    r, _ = _get(f"{url}/metrics", admin)
    assert r.status_code == 200 and _store_up(r.text) == 1
    assert _get(f"{url}/metrics", user)[0].status_code == 403

    own.pg_ctl("stop")
    for _ in range(2):  # the first scrape finds the pool's connections dead; the next too
        r, took = _get(f"{url}/metrics", admin)
        assert r.status_code == 200, r.text
        assert _store_up(r.text) == 0
        assert 'engram_http_requests_total{method="GET",route="/metrics",status="200"}' in r.text
        assert took < FAST, f"the scrape took {took:.1f} s"
    ready, took = _get(f"{url}/ready")
    assert ready.status_code == 503 and took < FAST, (ready.status_code, took)
    assert ready.json()["checks"]["store"].startswith("unavailable")
    assert _get(f"{url}/health")[0].status_code == 200
    # Keys the store never accepted in this process, and user keys, cannot be checked.
    for key in (unseen, user, "engram_" + "x" * 43):
        r, took = _get(f"{url}/metrics", key)
        assert r.status_code == 503 and r.json()["error"] == "store_disconnected", r.text
        assert took < FAST
    assert _get(f"{url}/metrics")[0].status_code == 401  # no key: refused, as ever
    # Every other route keeps its documented 503 after pool_timeout.
    headers = {"Authorization": f"Bearer {admin}"}
    write = httpx.post(f"{url}/v1/memories", headers=headers, json={"content": "x"}, timeout=60)
    assert write.status_code == 503 and write.json()["error"] == "store_disconnected"

    own.pg_ctl("start")
    back = time.monotonic()
    while True:
        r, _ = _get(f"{url}/metrics", admin)
        if r.status_code == 200 and _store_up(r.text) == 1:
            break
        assert time.monotonic() - back < 10, "the store never came back"
        time.sleep(0.2)
    assert _get(f"{url}/ready")[0].status_code == 200


@pytest.mark.postgres
def test_a_revoked_admin_key_is_refused_during_the_outage(
    own: OwnServer, served: tuple[str, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, mem = served
    _, admin = mem.keys.create("prometheus", admin=True)
    elsewhere_key, elsewhere = mem.keys.create("old-scraper", admin=True)
    here_key, here = mem.keys.create("older-scraper", admin=True)
    for key in (admin, elsewhere, here):
        assert _get(f"{url}/metrics", key)[0].status_code == 200
    # Revoked by another process on the same database (`engram keys revoke`): the
    # server forgets it at its next key check against the store.
    monkeypatch.setattr(keys_module, "RECHECK_EVERY", 0.0)
    other = Memory(mem.store.location, config=mem.config, embedder=None)
    try:
        other.keys.revoke(elsewhere_key.id)
    finally:
        other.close()
    assert _get(f"{url}/metrics", elsewhere)[0].status_code == 401  # the store says so
    assert _get(f"{url}/metrics", admin)[0].status_code == 200
    # Revoked in this process: forgotten at once.
    mem.keys.revoke(here_key.id)

    own.pg_ctl("stop")
    for key in (elsewhere, here):
        r, took = _get(f"{url}/metrics", key)
        assert r.status_code == 503 and r.json()["error"] == "store_disconnected", r.text
        assert took < FAST
    r, took = _get(f"{url}/metrics", admin)
    assert r.status_code == 200 and _store_up(r.text) == 0 and took < FAST


def test_an_admin_key_is_remembered_for_a_while_and_only_by_its_hash(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    admin_key, admin = mem.keys.create("root", admin=True)
    _, user = mem.keys.create("mira")
    assert mem.keys.remembered(admin) is None  # never verified here
    mem.keys.verify(admin)
    mem.keys.verify(user)
    found = mem.keys.remembered(admin)
    assert found is not None and found.id == admin_key.id and found.admin
    assert mem.keys.remembered(user) is None  # only admin keys
    assert mem.keys.remembered(admin + "x") is None
    assert mem.keys.remembered(None) is None and mem.keys.remembered("\ud800") is None
    assert admin not in repr(vars(mem.keys))  # the hash, never the key
    monkeypatch.setattr(keys_module, "REMEMBERED_FOR", 0.0)
    time.sleep(0.01)
    assert mem.keys.remembered(admin) is None  # expired
    monkeypatch.undo()
    mem.keys.verify(admin)
    other_key, other = mem.keys.create("ops", admin=True)
    mem.keys.verify(other)
    assert mem.keys.remembered(admin) is not None
    mem.keys.revoke(admin_key.id)
    assert mem.keys.remembered(admin) is None
    assert mem.keys.remembered(other) is not None  # another key's revocation: kept

"""URL ingest's address guard through every surface (engram issue 26, item 1): the
library, the HTTP route (the issue's attack: a user key makes the server fetch
127.0.0.1, a redirect to it, or the server's own ``/openapi.json``), the MCP tool and
``engram ingest``. Refused at submit time without the opt-in (nothing stored), fetched
with it, a redirect to loopback refused by the worker at its hop, and the worker checks
again at fetch time. The fetcher itself is tested in tests/test_documents_ssrf.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from click.testing import CliRunner
from mcp import Client

from conftest import HashEmbedder
from engram import Config, Memory, UrlRefusedError
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.mcp.server import create_mcp_server
from test_documents_fetch import serve_documents
from test_documents_surfaces import settled

ALICE = "user:alice"


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, list[str]]]:
    with serve_documents() as served:
        yield served


@pytest.fixture(scope="module")
def inner() -> Iterator[tuple[str, list[str]]]:
    """A second server on 127.0.0.2, the target of redirects to loopback."""
    with serve_documents("127.0.0.2") as served:
        yield served


def _opt(config: Config, **documents: Any) -> Config:
    return config.with_overrides(documents=documents)


# -- the library -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "form", ["127.0.0.1", "localhost", "2130706433", "0x7f.1", "127.1", "[::ffff:127.0.0.1]"]
)
def test_the_library_refuses_loopback_at_submit_time(
    mem: Memory, site: tuple[str, list[str]], form: str
) -> None:
    url, hits = site
    port = url.rsplit(":", 1)[1]
    before = len(hits)
    with pytest.raises(UrlRefusedError, match="a loopback address"):
        mem.documents.ingest(url=f"http://{form}:{port}/page.html", namespace=ALICE)
    assert mem.documents.count(namespace=ALICE) == 0  # nothing stored, nothing queued
    assert not mem.jobs.list(kind="document_ingest").items
    assert len(hits) == before


@pytest.mark.parametrize(
    "url",
    ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[fd00::1]/",
     "http://0.0.0.0/", "http://224.0.0.1/", "http://[::1]/"],
)  # fmt: skip
def test_the_library_refuses_every_private_class(mem: Memory, url: str) -> None:
    with pytest.raises(UrlRefusedError, match="address. URL ingest fetches only public"):
        mem.documents.ingest(url=url, namespace=ALICE)


def test_with_the_opt_in_the_library_fetches_loopback(
    config: Config, store_location: str, site: tuple[str, list[str]]
) -> None:
    url, _ = site
    cfg = _opt(config, allow_private_urls=True)
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        doc = mem.documents.ingest(url=f"{url}/page.html", namespace=ALICE)
        done = mem.documents.process(doc.id, namespace=ALICE, timeout_s=20)
        assert (done.status, done.title) == ("done", "The Falcon Runbook")


def test_a_redirect_to_loopback_fails_the_document_at_its_hop(
    config: Config,
    store_location: str,
    site: tuple[str, list[str]],
    inner: tuple[str, list[str]],
) -> None:
    url, _ = site
    inner_url, inner_hits = inner
    cfg = _opt(config, allowed_private_hosts="127.0.0.1")  # only the first server
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        doc = mem.documents.ingest(
            url=f"{url}/goto?to={quote(inner_url + '/page.html')}", namespace=ALICE
        )
        done = mem.documents.process(doc.id, namespace=ALICE, timeout_s=20)
    assert done.status == "failed" and done.chunk_count == 0
    assert "127.0.0.2, a loopback address" in (done.error or "")
    assert inner_hits == []


def test_the_worker_checks_again_at_fetch_time(
    config: Config, reopenable: str, site: tuple[str, list[str]]
) -> None:
    """Queued while the opt-in was on, fetched after it was turned off: refused."""
    url, hits = site
    opened = _opt(config, allow_private_urls=True)
    with Memory(reopenable, config=opened, embedder=HashEmbedder()) as mem:
        doc = mem.documents.ingest(url=f"{url}/data.json", namespace=ALICE)
    before = len(hits)
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        done = mem.documents.process(doc.id, namespace=ALICE, timeout_s=20)
    assert done.status == "failed" and "a loopback address" in (done.error or "")
    assert len(hits) == before


# -- HTTP --------------------------------------------------------------------------------------
class Api:
    def __init__(self, url: str, memory: Memory, key: str) -> None:
        self.url, self.memory, self.key = url, memory, key

    def client(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.key}"}
        return httpx.Client(base_url=self.url, timeout=10, headers=headers)


@contextmanager
def served(config: Config, **documents: Any) -> Iterator[Api]:
    cfg = config.with_overrides(worker={"poll_ms": 100}, documents=documents)
    with Memory(":memory:", config=cfg, embedder=HashEmbedder()) as memory:
        key = memory.keys.create("alice")[1]
        with serve_in_thread(create_app(memory)) as url:
            yield Api(url, memory, key)


def test_http_refuses_loopback_and_the_servers_own_openapi_with_422(
    config: Config, site: tuple[str, list[str]], inner: tuple[str, list[str]]
) -> None:
    url, hits = site
    before = len(hits)
    with served(config) as api, api.client() as alice:
        for target in (f"{url}/page.html", f"{api.url}/openapi.json", "http://[::1]:9/"):
            response = alice.post("/v1/documents", json={"url": target})
            assert response.status_code == 422, response.text
            body = response.json()
            assert body["error"] == "url_refused" and "a loopback address" in body["detail"]
            assert "allow_private_urls" in body["detail"]
        # A redirect from a public-looking URL is checked by the worker, hop by hop.
        assert alice.get("/v1/documents").json()["total"] == 0
    assert len(hits) == before


def test_http_with_the_opt_in_fetches_and_still_checks_redirects(
    config: Config, site: tuple[str, list[str]], inner: tuple[str, list[str]]
) -> None:
    url, _ = site
    inner_url, inner_hits = inner
    with served(config, allowed_private_hosts="127.0.0.1") as api, api.client() as alice:
        made = alice.post("/v1/documents", json={"url": f"{url}/page.html"})
        assert made.status_code == 202, made.text
        assert settled(alice, made.json()["id"])["status"] == "done"
        redirected = alice.post(
            "/v1/documents", json={"url": f"{url}/goto?to={quote(inner_url + '/page.html')}"}
        )
        assert redirected.status_code == 202, redirected.text
        failed = settled(alice, redirected.json()["id"])
        assert failed["status"] == "failed" and "127.0.0.2, a loopback" in failed["error"]
    assert inner_hits == []


# -- MCP ---------------------------------------------------------------------------------------
@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_refuses_loopback(mem: Memory, site: tuple[str, list[str]]) -> None:
    url, _ = site
    async with Client(create_mcp_server(mem, namespace=ALICE)) as client:
        result = await client.call_tool("ingest_document", {"url": f"{url}/page.html"})
    assert result.is_error
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert "a loopback address" in text and "allow_private_urls" in text
    assert mem.documents.count(namespace=ALICE) == 0


@pytest.mark.anyio
async def test_mcp_with_the_opt_in_queues_the_url(
    config: Config, site: tuple[str, list[str]]
) -> None:
    url, _ = site
    cfg = _opt(config, allow_private_urls=True)
    with Memory(":memory:", config=cfg, embedder=HashEmbedder()) as mem:
        async with Client(create_mcp_server(mem, namespace=ALICE)) as client:
            result = await client.call_tool("ingest_document", {"url": f"{url}/page.html"})
        assert not result.is_error and result.structured_content is not None
        mem.jobs.process_pending()
        document = mem.documents.get(result.structured_content["document_id"], namespace=ALICE)
        assert document.status == "done"


# -- the CLI -----------------------------------------------------------------------------------
CLI_ENV = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


def test_cli_refuses_loopback_with_exit_code_2_and_honours_the_opt_in(
    tmp_path: Path, site: tuple[str, list[str]]
) -> None:
    url, _ = site
    home = str(tmp_path / "home")
    args = ["--home", home, "ingest", f"{url}/page.html", "--json"]
    refused = CliRunner().invoke(cli, args, env=CLI_ENV)
    assert refused.exit_code == 2, refused.output
    error = json.loads(refused.stderr.strip().splitlines()[-1])
    assert error["error"] == "url_refused" and "a loopback address" in error["detail"]
    allowed = CliRunner().invoke(
        cli, args, env={**CLI_ENV, "ENGRAM_DOCUMENTS_ALLOWED_PRIVATE_HOSTS": "127.0.0.1"}
    )
    assert allowed.exit_code == 0, allowed.output
    assert json.loads(allowed.stdout)["status"] == "done"

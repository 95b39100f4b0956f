"""URL spellings new-user pass seventeen found the guard let through to a lookup failure
or to httpx's own error, where they should be refused in its words (docs/documents.md,
"The URL fetcher"): an address or ``localhost`` with the trailing dot of a fully
qualified name, a percent-escaped host, and a redirect whose ``Location`` writes an
address in a form httpx cannot parse (octal). None of them reached a server before
either; now each is refused at once, naming the address and its class, and a redirect
fails its document without retries."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory, UrlRefusedError, netguard
from engram.netguard import STRICT, UrlPolicy, check_target, parse_ip
from engram.pipeline.documents import fetch_url
from engram.pipeline.pinned import Hop
from test_documents_fetch import serve_documents

ALICE = "user:alice"


def _unknown(host: str, port: int) -> list[ipaddress.IPv4Address]:
    """A resolver that knows no name (as this machine's does not know ``localhost.``)."""
    raise OSError(f"[Errno -2] Name or service not known: {host}")


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, list[str]]]:
    with serve_documents() as served:
        yield served


@pytest.mark.parametrize("host", ["127.0.0.1.", "2130706433.", "0177.0.0.1.", "127.1."])
def test_an_address_with_a_trailing_dot_is_that_address(host: str) -> None:
    assert parse_ip(host) == ipaddress.IPv4Address("127.0.0.1")
    with pytest.raises(UrlRefusedError, match=r"is 127\.0\.0\.1, a loopback address"):
        check_target(f"http://{host}/", host, 80, STRICT, _unknown)


@pytest.mark.parametrize("host", ["127.0.0.1..", ".127.0.0.1", "1.2.3.4.5."])
def test_more_than_one_trailing_dot_is_still_a_name(host: str) -> None:
    assert parse_ip(host) is None


@pytest.mark.parametrize("host", ["localhost.", "LOCALHOST.", "api.localhost", "a.b.localhost."])
def test_a_localhost_name_is_loopback_whatever_the_resolver_says(host: str) -> None:
    assert netguard.is_localhost_name(host)
    with pytest.raises(UrlRefusedError, match=r"is 127\.0\.0\.1, a loopback address"):
        check_target(f"http://{host}/", host, 80, STRICT, _unknown)


def test_an_allowed_localhost_name_is_resolved_as_before() -> None:
    policy = UrlPolicy.parse(False, "localhost")
    seen: list[str] = []

    def resolve(host: str, port: int) -> list[ipaddress.IPv4Address]:
        seen.append(host)
        return [ipaddress.IPv4Address("127.0.0.1")]

    assert check_target("http://localhost./", "localhost.", 80, policy, resolve) == [
        ipaddress.IPv4Address("127.0.0.1")
    ]
    assert seen == ["localhost."]
    assert not netguard.is_localhost_name("localhost.example.com")


@pytest.mark.parametrize(
    ("url", "host"),
    [("http://%31%32%37.0.0.1/", "127.0.0.1"), ("http://127.0.0.1%2e/", "127.0.0.1."),
     ("http://%6c%6fcalhost/", "localhost"), ("http://%65xample.com/x", "example.com")],
)  # fmt: skip
def test_a_percent_escaped_host_is_the_host_it_spells(url: str, host: str) -> None:
    assert Hop.of(url).host == host


@pytest.mark.parametrize("url", ["http://a%2fb.example/", "http://a%00b/", "http://a%20b/"])
def test_an_escaped_host_that_is_no_host_name_is_refused(url: str) -> None:
    with pytest.raises(InvalidInputError, match="percent-escaped host that is not a host name"):
        Hop.of(url)


@pytest.mark.parametrize(
    ("form", "shown"),
    [("127.0.0.1.", "127.0.0.1. is 127.0.0.1"), ("localhost.", "localhost. is 127.0.0.1"),
     ("%31%32%37.0.0.1", "127.0.0.1"), ("127.0.0.1%2e", "127.0.0.1. is 127.0.0.1")],
)  # fmt: skip
def test_the_library_refuses_each_at_submit_time(
    mem: Memory, site: tuple[str, list[str]], form: str, shown: str
) -> None:
    url, hits = site
    port = url.rsplit(":", 1)[1]
    before = len(hits)
    with pytest.raises(UrlRefusedError, match=f"{shown}, a loopback address"):
        mem.documents.ingest(url=f"http://{form}:{port}/page.html", namespace=ALICE)
    assert mem.documents.count(namespace=ALICE) == 0  # nothing stored, nothing queued
    assert not mem.jobs.list(kind="document_ingest").items
    assert len(hits) == before


def test_a_redirect_to_an_octal_address_is_refused_at_its_hop(site: tuple[str, list[str]]) -> None:
    url, hits = site
    port = url.rsplit(":", 1)[1]
    policy = UrlPolicy.parse(False, "127.0.0.2")
    with serve_documents("127.0.0.2") as (first, first_hits):
        target = quote(f"http://0177.0.0.1:{port}/page.html")
        with pytest.raises(UrlRefusedError, match=r"0177\.0\.0\.1 is 127\.0\.0\.1, a loopback"):
            fetch_url(f"{first}/goto?to={target}", timeout_s=5, max_bytes=65536, policy=policy)
        assert first_hits == [f"/goto?to={target}"] and hits == []


def test_the_redirected_document_fails_at_once(
    config: Config, store_location: str, site: tuple[str, list[str]]
) -> None:
    url, hits = site
    port = url.rsplit(":", 1)[1]
    cfg = config.with_overrides(documents={"allowed_private_hosts": "127.0.0.2"})
    with (
        serve_documents("127.0.0.2") as (first, _),
        Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem,
    ):
        target = quote(f"http://0177.0.0.1:{port}/page.html")
        doc = mem.documents.ingest(url=f"{first}/goto?to={target}", namespace=ALICE)
        done = mem.documents.process(doc.id, namespace=ALICE, timeout_s=20)
        assert done.status == "failed", done
        assert "0177.0.0.1 is 127.0.0.1, a loopback address" in (done.error or "")
        assert hits == []

"""URL ingest fetches no loopback or private address unless the operator allows it
(engram issue 26, item 1: server-side request forgery).

The address classifier over every spelling of an address, the operator's allowlist, and
the fetcher against real servers on 127.0.0.1 (and 127.0.0.2, also loopback): refused
without the opt-in, fetched with it, every redirect hop checked, the connection made to
the address that was checked (a resolver injected here maps test names to loopback
addresses), TLS verified against the name with the connection made by address. The
surfaces (library, HTTP, MCP, CLI) are in tests/test_documents_ssrf_surfaces.py.
"""

from __future__ import annotations

import ipaddress
import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from engram import Config, ConfigError, InvalidInputError, UrlRefusedError, netguard
from engram.netguard import (
    STRICT,
    IPAddress,
    UrlPolicy,
    address_class,
    check_target,
    parse_ip,
    parse_ipv4,
)
from engram.pipeline.documents import FetchError, FetchResult, fetch_url
from engram.pipeline.pinned import MAX_REDIRECTS, Hop, open_url
from test_documents_fetch import _Handler, serve_documents

LOOPBACK = "127.0.0.1"


# -- the classifier ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("host", "address", "kind"),
    [
        ("127.0.0.1", "127.0.0.1", "loopback"),
        ("127.0.0.2", "127.0.0.2", "loopback"),
        ("2130706433", "127.0.0.1", "loopback"),  # decimal
        ("0177.0.0.1", "127.0.0.1", "loopback"),  # octal
        ("0x7f.1", "127.0.0.1", "loopback"),  # hex, short
        ("0x7f000001", "127.0.0.1", "loopback"),
        ("017700000001", "127.0.0.1", "loopback"),
        ("127.1", "127.0.0.1", "loopback"),  # short
        ("127.0.1", "127.0.0.1", "loopback"),
        ("[::1]", "::1", "loopback"),
        ("::1", "::1", "loopback"),
        ("::ffff:127.0.0.1", "::ffff:7f00:1", "loopback"),  # mapped
        ("[::ffff:7f00:1]", "::ffff:7f00:1", "loopback"),
        ("::127.0.0.1", "::7f00:1", "loopback"),  # IPv4-compatible
        ("2002:7f00:1::", "2002:7f00:1::", "loopback"),  # 6to4
        ("64:ff9b::a00:1", "64:ff9b::a00:1", "private"),  # NAT64
        ("0.0.0.0", "0.0.0.0", "unspecified"),
        ("0", "0.0.0.0", "unspecified"),
        ("0.1.2.3", "0.1.2.3", "unspecified"),  # 0/8: Linux connects it locally
        ("::", "::", "unspecified"),
        ("10.1.2.3", "10.1.2.3", "private"),
        ("172.16.0.1", "172.16.0.1", "private"),
        ("172.31.255.254", "172.31.255.254", "private"),
        ("192.168.1.1", "192.168.1.1", "private"),
        ("0xc0a80101", "192.168.1.1", "private"),
        ("100.64.0.1", "100.64.0.1", "private"),  # carrier-grade NAT
        ("fd12:3456::1", "fd12:3456::1", "private"),  # fc00::/7
        ("fc00::1", "fc00::1", "private"),
        ("169.254.169.254", "169.254.169.254", "link-local"),  # cloud metadata
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254", "link-local"),
        ("fe80::1", "fe80::1", "link-local"),
        ("fe80::1%eth0", "fe80::1%eth0", "link-local"),
        ("224.0.0.1", "224.0.0.1", "multicast"),
        ("239.255.255.250", "239.255.255.250", "multicast"),
        ("ff02::1", "ff02::1", "multicast"),
        ("255.255.255.255", "255.255.255.255", "reserved"),  # broadcast
        ("240.0.0.1", "240.0.0.1", "reserved"),
        ("192.0.2.1", "192.0.2.1", "reserved"),  # documentation
        ("8.8.8.8", "8.8.8.8", None),
        ("134744072", "8.8.8.8", None),
        ("172.32.0.1", "172.32.0.1", None),  # just past 172.16/12
        ("::ffff:8.8.8.8", "::ffff:808:808", None),
        ("2606:4700:4700::1111", "2606:4700:4700::1111", None),
    ],
)
def test_every_spelling_of_an_address_is_classified(
    host: str, address: str, kind: str | None
) -> None:
    ip = parse_ip(host)
    assert ip is not None and str(ip) == address
    assert address_class(ip) == kind


@pytest.mark.parametrize(
    "host",
    ["example.org", "localhost", "1.2.3.4.5", "256.1", "1.16777216", "08.1", "0x7g.1",
     "7_f.1", "+1.2.3.4", " 1.2.3.4", "1..2", "١٢٧.0.0.1", "[::1", "::g"],
)  # fmt: skip
def test_names_and_malformed_numbers_are_not_literals(host: str) -> None:
    assert parse_ip(host) is None


def test_each_inet_aton_part_fills_the_bytes_left() -> None:
    assert parse_ipv4("1.2.3") == ipaddress.IPv4Address("1.2.0.3")
    assert parse_ipv4("1.65535") == ipaddress.IPv4Address("1.0.255.255")
    assert parse_ipv4("4294967295") == ipaddress.IPv4Address("255.255.255.255")
    assert parse_ipv4("4294967296") is None


# -- the operator's allowlist -------------------------------------------------------------------
def test_the_allowlist_reads_names_patterns_addresses_and_networks() -> None:
    policy = UrlPolicy.parse(False, "Wiki.Internal., *.corp.example 10.1.2.0/24,fd00::/8 127.0.0.2")
    assert policy.hosts == {"wiki.internal"} and policy.suffixes == (".corp.example",)
    private = ipaddress.ip_address("10.9.9.9")
    assert policy.permits("WIKI.internal", private)
    assert policy.permits("git.corp.example", private) and not policy.permits(
        "corp.example", private
    )
    assert policy.permits("anything", ipaddress.ip_address("10.1.2.200"))
    assert policy.permits("anything", ipaddress.ip_address("fd00::5"))
    assert policy.permits("anything", ipaddress.ip_address("127.0.0.2"))
    assert not policy.permits("anything", ipaddress.ip_address("127.0.0.1"))
    assert not policy.permits("anything", ipaddress.ip_address("10.1.3.1"))
    assert UrlPolicy.parse(True, "").permits("x", ipaddress.ip_address("169.254.169.254"))


@pytest.mark.parametrize("entry", ["wiki internal!", "10.0.0.0/33", "*.", "http://wiki/"])
def test_a_malformed_allowlist_fails_when_the_config_loads(tmp_path: Path, entry: str) -> None:
    with pytest.raises(ConfigError, match="allowed_private_hosts"):
        Config.load(env={"ENGRAM_DOCUMENTS_ALLOWED_PRIVATE_HOSTS": entry}, home=str(tmp_path))


def test_the_opt_in_is_off_by_default_and_read_from_the_environment(tmp_path: Path) -> None:
    assert Config.load(env={}, home=str(tmp_path)).documents.url_policy() == UrlPolicy()
    env = {
        "ENGRAM_DOCUMENTS_ALLOW_PRIVATE_URLS": "true",
        "ENGRAM_DOCUMENTS_ALLOWED_PRIVATE_HOSTS": "wiki.internal",
    }
    policy = Config.load(env=env, home=str(tmp_path)).documents.url_policy()
    assert policy.allow_private and policy.hosts == {"wiki.internal"}


# -- resolution -----------------------------------------------------------------------------------
class Resolver:
    """Test names to addresses, counting lookups; any other name does not resolve."""

    def __init__(self, names: dict[str, Sequence[str]]) -> None:
        self.names = names
        self.calls: list[str] = []

    def __call__(self, host: str, port: int) -> list[IPAddress]:
        self.calls.append(host)
        if host not in self.names:
            raise OSError(f"[Errno -2] Name or service not known: {host}")
        return [ipaddress.ip_address(a) for a in self.names[host]]


def test_one_refused_address_refuses_the_name_and_is_named() -> None:
    resolve = Resolver({"mixed.test": ["93.184.216.34", "10.0.0.7"]})
    with pytest.raises(UrlRefusedError, match=r"mixed\.test is 10\.0\.0\.7, a private address"):
        check_target("http://mixed.test/", "mixed.test", 80, UrlPolicy(), resolve)
    assert check_target(
        "http://mixed.test/", "mixed.test", 80, UrlPolicy.parse(False, "10.0.0.0/8"), resolve
    ) == [ipaddress.ip_address("93.184.216.34"), ipaddress.ip_address("10.0.0.7")]


def test_a_refusal_names_the_ipv4_address_an_ipv6_one_carries() -> None:
    with pytest.raises(UrlRefusedError, match=r"::ffff:7f00:1 \(127\.0\.0\.1\), a loopback"):
        check_target("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", 80, UrlPolicy())


def test_a_refusal_names_the_class_and_the_settings() -> None:
    with pytest.raises(UrlRefusedError) as caught:
        check_target("http://0x7f.1/", "0x7f.1", 80, UrlPolicy())
    message = str(caught.value)
    assert "0x7f.1 is 127.0.0.1, a loopback address" in message
    assert 'allowed_private_hosts = "0x7f.1"' in message and "allow_private_urls = true" in message
    assert caught.value.code == "url_refused" and isinstance(caught.value, InvalidInputError)


def test_a_refusal_reads_as_english() -> None:
    with pytest.raises(UrlRefusedError, match=r"0\.0\.0\.0, an unspecified address\."):
        check_target("http://0.0.0.0/", "0.0.0.0", 80, UrlPolicy())


# -- the fetcher against 127.0.0.1 ---------------------------------------------------------------
OPEN = UrlPolicy(allow_private=True)


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, list[str]]]:
    with serve_documents() as served:
        yield served


def fetch(url: str, policy: UrlPolicy = STRICT, resolve: Resolver | None = None) -> FetchResult:
    if resolve is None:
        return fetch_url(url, timeout_s=5, max_bytes=65536, policy=policy)
    return fetch_url(url, timeout_s=5, max_bytes=65536, policy=policy, resolve=resolve)


def _port(site: str) -> int:
    return int(site.rsplit(":", 1)[1])


#: Every way of writing the loopback address the issue found fetched.
LOOPBACK_FORMS = [
    "127.0.0.1", "localhost", "2130706433", "0177.0.0.1", "0x7f.1", "127.1",
    "[::ffff:127.0.0.1]", "0.0.0.0", "127.0.0.2", "[::1]",
]  # fmt: skip


@pytest.mark.parametrize("form", LOOPBACK_FORMS)
def test_every_loopback_form_is_refused_before_a_connection(
    site: tuple[str, list[str]], form: str
) -> None:
    url, hits = site
    before = len(hits)
    with pytest.raises(UrlRefusedError, match="loopback|unspecified"):
        fetch(f"http://{form}:{_port(url)}/page.html")
    assert len(hits) == before  # the server never heard of it


@pytest.mark.parametrize("form", LOOPBACK_FORMS[:8])  # those that reach 127.0.0.1
def test_with_the_opt_in_each_form_reaches_the_server(
    site: tuple[str, list[str]], form: str
) -> None:
    url, _ = site
    assert fetch(f"http://{form}:{_port(url)}/page.html", OPEN).title == "The Falcon Runbook"


def test_a_redirect_to_loopback_is_refused_at_its_hop(site: tuple[str, list[str]]) -> None:
    url, hits = site
    port = _port(url)
    # docs.test is an allowed intranet name that resolves to 127.0.0.1 ...
    resolve = Resolver({"docs.test": [LOOPBACK]})
    policy = UrlPolicy.parse(False, "docs.test")
    assert fetch(f"http://docs.test:{port}/page.html", policy, resolve).title == (
        "The Falcon Runbook"
    )
    # ... and its redirect to 127.0.0.1 by address (or to an unlisted name) is not.
    with serve_documents("127.0.0.2") as (inner, inner_hits):
        for target in (f"{inner}/page.html", f"http://127.0.0.1:{port}/page.html"):
            before = len(hits)
            with pytest.raises(UrlRefusedError, match="a loopback address"):
                fetch(f"http://docs.test:{port}/goto?to={quote(target)}", policy, resolve)
            assert hits[before:] == [f"/goto?to={quote(target)}"]  # the first hop only
        assert inner_hits == []


def test_redirects_are_checked_and_followed_with_the_opt_in(site: tuple[str, list[str]]) -> None:
    url, _ = site
    with serve_documents("127.0.0.2") as (inner, inner_hits):
        target = quote(f"{inner}/page.html")
        assert fetch(f"{url}/goto?to={target}", OPEN).title == "The Falcon Runbook"
        assert inner_hits == ["/page.html"]


def test_the_connection_goes_to_the_checked_address(site: tuple[str, list[str]]) -> None:
    """DNS rebinding: the name is resolved once, by the check, and the request goes to
    that address with the name in the Host header. rebind.test exists only in this
    resolver, so a second lookup by httpx would fail."""
    url, _ = site
    port = _port(url)
    resolve = Resolver({"rebind.test": [LOOPBACK]})
    result = fetch(f"http://rebind.test:{port}/host", UrlPolicy.parse(False, "127.0.0.1"), resolve)
    assert result.content == f"rebind.test:{port}"
    assert resolve.calls == ["rebind.test"]


def test_each_checked_address_is_tried_in_turn(site: tuple[str, list[str]]) -> None:
    url, _ = site
    resolve = Resolver({"two.test": ["127.0.0.3", LOOPBACK]})  # nothing listens on .3
    assert fetch(f"http://two.test:{_port(url)}/page.html", OPEN, resolve).title == (
        "The Falcon Runbook"
    )


def test_a_name_that_does_not_resolve_is_a_retryable_failure() -> None:
    with pytest.raises(FetchError, match="Name or service not known") as caught:
        fetch("http://nowhere.test/", OPEN, Resolver({}))
    assert caught.value.retryable is True


def test_a_lookup_that_never_answers_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # getaddrinfo has no timeout of its own: a silent resolver would hold the ingest
    # worker for the system's whole retry cycle. netguard.lookup gives up, retryably.
    release = threading.Event()

    def hangs(*_: object, **__: object) -> list[object]:
        release.wait(30)
        raise OSError("released")

    monkeypatch.setattr(netguard.socket, "getaddrinfo", hangs)
    try:
        with pytest.raises(OSError, match=r"looking up slow\.test took longer than 0\.2 s"):
            netguard.lookup("slow.test", 80, timeout=0.2)
        with pytest.raises(FetchError, match="took longer than") as caught:
            fetch("http://slow.test/", OPEN, lambda host, port: netguard.lookup(host, port, 0.2))
        assert caught.value.retryable is True
    finally:
        release.set()


def test_lookup_answers_and_its_errors_come_through() -> None:
    assert netguard.lookup("127.0.0.1", 80) == [ipaddress.ip_address("127.0.0.1")]
    with pytest.raises(OSError):
        netguard.lookup("no-such-host.invalid", 80, timeout=5)


def test_a_redirect_loop_stops_after_the_hop_limit(site: tuple[str, list[str]]) -> None:
    url, hits = site
    before = len(hits)
    with pytest.raises(FetchError, match=f"after {MAX_REDIRECTS} redirects") as caught:
        fetch(f"{url}/loop", OPEN)
    assert caught.value.retryable is False
    assert len(hits) - before == MAX_REDIRECTS + 1


def test_a_redirect_to_another_scheme_is_refused(site: tuple[str, list[str]]) -> None:
    url, _ = site
    with pytest.raises(InvalidInputError, match="only http and https"):
        fetch(f"{url}/goto?to={quote('file:///etc/passwd')}", OPEN)


# -- TLS, connected by address ------------------------------------------------------------------
@contextmanager
def serve_tls(tmp: Path, name: str) -> Iterator[tuple[int, ssl.SSLContext]]:
    """An https server on 127.0.0.1 with a self-signed certificate for ``name``, and a
    client context that trusts it."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}"],
        check=True, capture_output=True,
    )  # fmt: skip
    server = ThreadingHTTPServer((LOOPBACK, 0), _Handler)
    server.hits = []  # type: ignore[attr-defined]
    server.daemon_threads = True
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], ssl.create_default_context(cafile=str(cert))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_tls_is_verified_against_the_name_while_connecting_by_address(tmp_path: Path) -> None:
    resolve = Resolver({"docs.test": [LOOPBACK], "other.test": [LOOPBACK]})
    with (
        serve_tls(tmp_path, "docs.test") as (port, trusted),
        httpx.Client(verify=trusted) as client,
    ):
        with open_url(client, f"https://docs.test:{port}/host", OPEN, resolve=resolve) as (
            _,
            response,
        ):
            assert response.status_code == 200 and response.read() == f"docs.test:{port}".encode()
        # The same address under a name the certificate does not carry: refused by TLS.
        with (
            pytest.raises(httpx.ConnectError, match="certificate verify failed"),
            open_url(client, f"https://other.test:{port}/host", OPEN, resolve=resolve),
        ):
            pass


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://127.0.0.1\\@example.com/", "example.com"),
        ("http://a@127.0.0.1@example.com/", "example.com"),
        ("http://example.com#@127.0.0.1/", "example.com"),
        ("http://example.com?@127.0.0.1/", "example.com"),
        ("http://[::1]@example.com/", "example.com"),
        ("http://example.com\\@127.0.0.1/", "127.0.0.1"),
        ("http://Example.COM:8080/x", "example.com"),
        ("https://b\u00fccher.example/", "xn--bcher-kva.example"),
    ],
)
def test_the_host_checked_is_the_host_connected_to(url: str, host: str) -> None:
    """Userinfo, fragments and backslashes cannot make the request go elsewhere than
    the checked address: the request URL is built from it."""
    hop = Hop.of(url)
    public = ipaddress.ip_address("93.184.216.34")
    assert hop.host == host and hop.request_url(public).host == str(public)

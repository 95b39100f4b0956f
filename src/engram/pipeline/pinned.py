"""GET a URL connecting only to addresses ``engram.netguard`` checked, and
follow its redirects one hop at a time, checking each (engram issue 26, item 1).

httpx would resolve the host name again when it connects, and an attacker's DNS server
may answer differently the second time (DNS rebinding). So each hop's host is resolved
and checked once, and the request goes to the checked address itself: the URL's host is
replaced by that IP, the original name travels in the ``Host`` header, and for https in
the TLS server name (``sni_hostname``), which is also the name the certificate is
verified against. Redirects are not left to httpx (it would follow them without the
check): a 3xx with a ``Location`` is checked as a new URL, up to ``MAX_REDIRECTS``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from engram.errors import EngramError, InvalidInputError
from engram.netguard import IPAddress, Resolver, UrlPolicy, check_target, lookup
from engram.validate import no_nul

if TYPE_CHECKING:  # imported where a fetch runs: see engram.llm.http
    import httpx

#: What a host name may hold once its percent escapes are decoded (letters of any
#: script for IDNA; no separators, spaces, ``%`` or control characters).
_HOST_CHARS = re.compile(r"[^\x00-\x2c/:;<=>?@\[\\\]^`{|}~\x7f\s%]+")
#: A URL longer than this is refused before anything is stored.
MAX_URL_CHARS = 8192
#: Redirects followed before a fetch gives up (httpx's own limit is 20; a document URL
#: that needs more than a few is broken or a trap).
MAX_REDIRECTS = 10
#: The statuses whose ``Location`` is followed; every request is a GET, so 303 and the
#: others all mean "GET that URL instead".
REDIRECTS = frozenset({301, 302, 303, 307, 308})


class FetchError(EngramError):
    """Fetching a URL failed. ``retryable`` is False when retrying cannot help (an
    unsupported content type, a body over the size limit, a 404, a redirect loop)."""

    code = "fetch_failed"

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


def check_url(url: object) -> str:
    """The URL, if it is one the fetcher may fetch: http or https with a host. Any other
    scheme (``file://`` included) is refused, so a URL cannot read the server's files.
    Where it points is ``check_target``'s question."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidInputError("url must be a non-empty http or https URL")
    url = no_nul("url", url.strip())
    if len(url) > MAX_URL_CHARS:
        raise InvalidInputError(f"url is {len(url)} characters, over {MAX_URL_CHARS}")
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises for a port that is not a number in range
    except ValueError as exc:
        raise InvalidInputError(f"url {url!r} is malformed: {exc}") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise InvalidInputError(
            f"only http and https URLs can be ingested, got {parts.scheme or 'no'} scheme in "
            f"{url!r}; pass a local file as a path instead"
        )
    if not host:
        raise InvalidInputError(f"url {url!r} has no host")
    return url


@dataclass(frozen=True, slots=True)
class Hop:
    """One URL to GET, split into what the connection and the request need."""

    url: str
    """The URL as given (what messages and the next redirect's base use)."""
    host: str
    """The host: a name in ASCII (IDNA) or an IP literal without brackets."""
    port: int
    https: bool
    host_header: str
    """The ``Host`` header: the host as the URL spells it, with its port if it has one."""

    @classmethod
    def of(cls, url: str) -> Hop:
        url = check_url(url)
        parts = urlsplit(url)
        name = parts.hostname or ""
        if ":" not in name and "%" in name:
            # A percent-escaped host (``%31%32%37.0.0.1``) is the host it spells, as
            # browsers read it, so it is checked and fetched as that; one that spells
            # no host name (``%2f``, ``%00``) is refused.
            name = unquote(name)
            if not _HOST_CHARS.fullmatch(name):
                raise InvalidInputError(
                    f"url {url!r} has a percent-escaped host that is not a host name "
                    f"({name!r}); write the host without escapes"
                )
        try:
            host = name if name.isascii() else name.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise InvalidInputError(
                f"url {url!r} has a host name that is not valid: {exc}"
            ) from None
        https = parts.scheme.lower() == "https"
        port = parts.port or (443 if https else 80)
        shown = f"[{host}]" if ":" in host else host
        return cls(url, host, port, https, shown if parts.port is None else f"{shown}:{port}")

    def request_url(self, ip: IPAddress) -> httpx.URL:
        """The URL with its host replaced by ``ip`` (userinfo, path and query kept)."""
        import httpx

        parts = urlsplit(self.url)
        userinfo = parts.netloc.rpartition("@")[0]
        literal = f"[{ip}]" if ip.version == 6 else str(ip)
        netloc = f"{userinfo}@{literal}:{self.port}" if userinfo else f"{literal}:{self.port}"
        return httpx.URL(urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")))


def check_submitted(url: str, policy: UrlPolicy, resolve: Resolver = lookup) -> str:
    """The URL, checked as a fetch's first hop would be, when it is submitted: so the
    caller hears of a refused address at once (``UrlRefusedError``) rather than from a
    failed document later. A name that does not resolve now is left to the worker,
    which checks again at fetch time in any case (DNS answers change)."""
    hop = Hop.of(url)
    with suppress(OSError):
        check_target(hop.url, hop.host, hop.port, policy, resolve)
    return hop.url


@contextmanager
def open_url(
    client: httpx.Client,
    url: str,
    policy: UrlPolicy,
    *,
    headers: Mapping[str, str] | None = None,
    resolve: Resolver = lookup,
) -> Iterator[tuple[str, httpx.Response]]:
    """GET ``url`` through ``client`` (which must not follow redirects itself) and
    yield the URL that finally answered with its streamed response.

    ``UrlRefusedError`` when a hop's host is or resolves to an address the policy
    refuses, a lasting ``FetchError`` past ``MAX_REDIRECTS``, ``InvalidInputError`` for
    a redirect to a URL that is not http(s); ``OSError`` when a name does not resolve
    and httpx's errors when a connection fails."""
    _hold_locations(client)
    for _ in range(MAX_REDIRECTS + 1):
        with _get(client, Hop.of(url), policy, headers or {}, resolve) as response:
            location = response.headers.get(HELD_LOCATION)
            if response.status_code not in REDIRECTS or not location:
                yield url, response
                return
        url = urljoin(url, location)
    raise FetchError(
        f"{url} was reached after {MAX_REDIRECTS} redirects; engram follows no more",
        retryable=False,
    )


#: Where a response's ``Location`` is kept for ``open_url`` to read.
HELD_LOCATION = "x-engram-location"


def _hold_location(response: httpx.Response) -> None:
    """Move ``Location`` out of httpx's sight: httpx parses it even when it follows no
    redirects, and one it cannot read (``http://0177.0.0.1/``, an address written in
    octal) raised its own error, retried as a network failure, before engram's check
    could refuse it."""
    location = response.headers.pop("location", None)
    if location is not None:
        response.headers[HELD_LOCATION] = location


def _hold_locations(client: httpx.Client) -> None:
    """Give ``client`` the response hook above, once."""
    hooks = client.event_hooks
    if _hold_location not in hooks["response"]:
        client.event_hooks = {**hooks, "response": [*hooks["response"], _hold_location]}


@contextmanager
def _get(
    client: httpx.Client,
    hop: Hop,
    policy: UrlPolicy,
    headers: Mapping[str, str],
    resolve: Resolver,
) -> Iterator[httpx.Response]:
    """The streamed response of one hop, from the first checked address that accepts
    the connection (a name may have several; each was checked)."""
    import httpx

    addresses = check_target(hop.url, hop.host, hop.port, policy, resolve)
    extensions = {"sni_hostname": hop.host} if hop.https else {}
    failure: httpx.ConnectError | None = None
    for ip in addresses:
        request = client.build_request(
            "GET",
            hop.request_url(ip),
            headers={**headers, "Host": hop.host_header},
            extensions=extensions,
        )
        try:
            response = client.send(request, stream=True)
        except httpx.ConnectError as exc:
            failure = exc
            continue
        try:
            yield response
        finally:
            response.close()
        return
    assert failure is not None  # check_target returns at least one address
    raise failure

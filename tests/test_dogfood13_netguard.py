"""URL ingest refused addresses by Python's ``is_global``, whose table on 3.11 calls
some special-purpose ranges global (new-user pass, round thirteen): ``192.0.0.8`` was
fetched (this machine's network answered it), and the IPv4-translated
``[::ffff:0:7f00:1]`` (127.0.0.1 in RFC 2765's form) and NAT64's local-use
``[64:ff9b:1::7f00:1]`` were queued for the worker to fetch."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from engram import Config, Memory, UrlRefusedError
from engram.netguard import address_class, parse_ip


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("192.0.0.8", "reserved"),  # IETF protocol assignments, beyond 192.0.0.0/29
        ("192.0.0.170", "reserved"),
        ("192.88.99.1", "reserved"),  # the deprecated 6to4 relay anycast
        ("[::ffff:0:7f00:1]", "loopback"),  # IPv4-translated 127.0.0.1
        ("[::ffff:0:a00:5]", "private"),  # IPv4-translated 10.0.0.5
        ("[64:ff9b:1::7f00:1]", "reserved"),  # NAT64 local use: a site's own translator
        ("[3fff::1]", "reserved"),  # IPv6 documentation (RFC 9637)
        ("[5f00::1]", "reserved"),  # SRv6 SIDs
    ],
)
def test_special_purpose_ranges_are_refused_whatever_the_python(host: str, kind: str) -> None:
    ip = parse_ip(host)
    assert ip is not None
    assert address_class(ip) == kind


@pytest.mark.parametrize("host", ["8.8.8.8", "[2606:4700::1111]", "[::ffff:0:808:808]"])
def test_public_addresses_still_pass(host: str) -> None:
    ip = parse_ip(host)
    assert ip is not None and address_class(ip) is None


@pytest.mark.parametrize(
    "url", ["http://192.0.0.8/", "http://[::ffff:0:7f00:1]/", "http://[64:ff9b:1::7f00:1]/"]
)
def test_ingest_refuses_them_before_anything_is_stored(
    config: Config, store_location: str, url: str
) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        with pytest.raises(UrlRefusedError, match="URL ingest fetches only public addresses"):
            mem.documents.ingest(url=url, user_id="ann")
        assert mem.documents.list(user_id="ann") == []

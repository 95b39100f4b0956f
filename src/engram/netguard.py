"""Which addresses document ingest may fetch (FEATURES P11; engram issue 26,
item 1: server-side request forgery through URL ingest).

The server fetches an ingested URL itself, and what it answers becomes memories the
caller reads back through recall. Without a guard any API key could read the server's
loopback services (its own ``/openapi.json``, a database admin page), the private
network it sits in, or the cloud metadata service at 169.254.169.254. So by default the
fetcher refuses every address that is not public unicast: loopback, private (RFC 1918,
carrier-grade NAT, ``fc00::/7``), link-local, multicast, unspecified and the other
reserved ranges (``address_class``).

A host is resolved once, to every address ``getaddrinfo`` gives; one refused address
refuses the URL (a name that points at both a public and a private address is not
trusted), and the message names it. The caller then connects to an address this module
checked (``engram.pipeline.pinned``), never to the name, so a DNS answer that changes
between the check and the connection (DNS rebinding) cannot reach a refused address.

IP literals are read the way the C library's ``inet_aton`` reads them (``2130706433``,
``0177.0.0.1``, ``0x7f.1``, ``127.1`` are all 127.0.0.1), IPv6 in brackets included, and
an IPv6 address that carries an IPv4 one (IPv4-mapped ``::ffff:127.0.0.1``,
IPv4-compatible, 6to4, NAT64, Teredo) is judged by the IPv4 address it carries.

``[documents] allow_private_urls`` lifts the refusal for a trusted intranet;
``[documents] allowed_private_hosts`` lifts it only for the host names and networks it
lists (docs/safety.md, "URL ingest").
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engram.errors import ConfigError, UrlRefusedError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: ``(host, port) -> addresses``: how a host name becomes addresses (tests inject one).
Resolver = Callable[[str, int], Sequence[IPAddress]]


def _nets(*cidrs: str) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(c) for c in cidrs)


#: Address classes the fetcher refuses; the first that contains an address names it.
#: 0.0.0.0/8 counts as unspecified: Linux connects 0.0.0.0 (and 0.x) to the local host.
CLASSES: tuple[tuple[str, tuple[Network, ...]], ...] = (
    ("unspecified", _nets("0.0.0.0/8", "::/128")),
    ("loopback", _nets("127.0.0.0/8", "::1/128")),
    ("link-local", _nets("169.254.0.0/16", "fe80::/10")),
    (
        "private",
        _nets(
            "10.0.0.0/8",
            "172.16.0.0/12",
            "192.168.0.0/16",
            "100.64.0.0/10",
            "fc00::/7",
            "fec0::/10",
        ),
    ),  # fmt: skip
    ("multicast", _nets("224.0.0.0/4", "ff00::/8")),
    # Special-purpose ranges that Python 3.11's ``is_global`` still calls global (its
    # table predates them; 3.13 fixed some): the IETF protocol block beyond 192.0.0.0/29,
    # the deprecated 6to4 relay anycast, NAT64's local-use prefix (RFC 8215: a site's own
    # translator, so 64:ff9b:1::7f00:1 can be its loopback), the IPv6 documentation
    # range of 2024 (RFC 9637) and SRv6 SIDs (RFC 9602). Named here so what is refused
    # does not depend on the interpreter's version.
    (
        "reserved",
        _nets("192.0.0.0/24", "192.88.99.0/24", "64:ff9b:1::/48", "3fff::/20", "5f00::/16"),
    ),
)
#: The spellings of one part of an ``inet_aton`` address, with their bases.
_ATON_PARTS = (
    (re.compile(r"0[xX]([0-9a-fA-F]*)", re.ASCII), 16),
    (re.compile(r"0([0-7]*)", re.ASCII), 8),
    (re.compile(r"([1-9][0-9]*)", re.ASCII), 10),
)
#: IPv6 ranges whose low 32 bits are an IPv4 address: IPv4-compatible (``::a.b.c.d``,
#: deprecated but still parsed), IPv4-translated (RFC 2765's SIIT form
#: ``::ffff:0:a.b.c.d``, which ``ipv4_mapped`` does not read) and NAT64's well-known
#: prefix.
_V4_IN_LOW_BITS = _nets("::/96", "::ffff:0:0:0/96", "64:ff9b::/96")


# -- IP literals -----------------------------------------------------------------------------
def _aton_part(part: str) -> int:
    """One dotted part as ``inet_aton`` reads it: ``0x`` hex, a leading 0 octal, else
    decimal. ``ValueError`` for anything else (``int`` alone would take ``_``, signs and
    spaces, which the C library does not)."""
    for pattern, base in _ATON_PARTS:
        found = pattern.fullmatch(part)
        if found:
            return int(found.group(1) or "0", base)
    raise ValueError(part)


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address ``host`` spells in any form ``inet_aton`` accepts (one to four
    parts, each decimal, octal or hex; the last part fills the remaining bytes), or None
    when it is not one."""
    if host.endswith(".") and not host.endswith(".."):
        # One trailing dot ends a fully qualified name; URL parsers (WHATWG's, so every
        # browser, and curl) drop it from an address too: ``127.0.0.1.`` is 127.0.0.1.
        host = host[:-1]
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(parts):
        return None
    try:
        values = [_aton_part(p) for p in parts]
    except ValueError:
        return None
    *head, last = values
    if any(v > 0xFF for v in head) or last >= 1 << (8 * (5 - len(parts))):
        return None
    number = last
    for index, value in enumerate(head):
        number |= value << (8 * (3 - index))
    return ipaddress.IPv4Address(number)


def parse_ip(host: str) -> IPAddress | None:
    """The address ``host`` names literally (``[::1]`` and every ``inet_aton`` form
    included), or None when it is a name."""
    bare = host
    if bare.startswith("[") and bare.endswith("]"):
        bare = bare[1:-1]
    if ":" in bare:
        try:
            return ipaddress.IPv6Address(bare)
        except ValueError:
            return None
    return parse_ipv4(bare)


# -- classification --------------------------------------------------------------------------
def carried_v4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (IPv4-mapped, IPv4-compatible, 6to4,
    NAT64, Teredo), or None."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]  # the client's address; the server's is public by design
    if int(ip) > 1 and any(ip in net for net in _V4_IN_LOW_BITS):
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return None


def address_class(ip: IPAddress) -> str | None:
    """Why the fetcher refuses ``ip`` (``loopback``, ``private``, ``link-local``,
    ``multicast``, ``unspecified``, ``reserved``), or None for a public address. An IPv6
    address that carries an IPv4 one is judged by that."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id:
        ip = ipaddress.IPv6Address(str(ip).split("%", 1)[0])
    carried = carried_v4(ip)
    if carried is not None:
        return address_class(carried)
    for name, networks in CLASSES:
        if any(ip in net for net in networks):
            return name
    # Documentation, benchmarking, 240/4, broadcast and the other special-purpose ranges.
    return None if ip.is_global else "reserved"


# -- the operator's opt-in -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class UrlPolicy:
    """What the fetcher may reach beyond public addresses."""

    allow_private: bool = False
    """Every address may be fetched (``[documents] allow_private_urls``)."""
    hosts: frozenset[str] = frozenset()
    """Host names (lower case) whose addresses may be private."""
    suffixes: tuple[str, ...] = ()
    """``.corp.example`` from ``*.corp.example``: its subdomains may be private."""
    networks: tuple[Network, ...] = ()
    """Addresses in these networks may be fetched whatever name led to them."""

    @classmethod
    def parse(cls, allow_private: bool, allowlist: str) -> UrlPolicy:
        """The policy of ``allow_private_urls`` and ``allowed_private_hosts`` (comma- or
        space-separated names, ``*.suffix`` patterns, addresses and CIDR networks);
        ``ConfigError`` for an entry that is none of them."""
        hosts: set[str] = set()
        suffixes: list[str] = []
        networks: list[Network] = []
        for entry in allowlist.replace(",", " ").split():
            name = entry.lower().rstrip(".")
            literal = parse_ip(name)
            if literal is not None:
                networks.append(ipaddress.ip_network(literal))
            elif "/" in name:
                try:
                    networks.append(ipaddress.ip_network(name.strip("[]"), strict=False))
                except ValueError:
                    raise ConfigError(
                        f"[documents] allowed_private_hosts: {entry!r} is not a network; "
                        "write one like 10.1.2.0/24 or fd00::/8"
                    ) from None
            elif name.startswith("*.") and _is_name(name[2:]):
                suffixes.append(name[1:])
            elif _is_name(name):
                hosts.add(name)
            else:
                raise ConfigError(
                    f"[documents] allowed_private_hosts: {entry!r} is not a host name, "
                    "*.suffix, address or network"
                )
        return cls(allow_private, frozenset(hosts), tuple(suffixes), tuple(networks))

    def permits(self, host: str, ip: IPAddress) -> bool:
        """May ``host``, resolved to the refused address ``ip``, be fetched anyway?"""
        name = host.lower().rstrip(".")
        return (
            self.allow_private
            or name in self.hosts
            or any(name.endswith(s) for s in self.suffixes)
            or any(ip.version == n.version and ip in n for n in self.networks)
        )


#: The default: public addresses only.
STRICT = UrlPolicy()


def _is_name(name: str) -> bool:
    labels = name.split(".")
    return all(
        0 < len(label) <= 63 and label.replace("-", "").replace("_", "").isalnum()
        for label in labels
    )


# -- resolution ------------------------------------------------------------------------------
#: How long one name lookup may take. ``getaddrinfo`` has no timeout of its own and a
#: resolver that never answers would hold a worker for the system's full retry cycle
#: (minutes with several nameservers); a third of seed 004's 30 s fetch timeout leaves
#: the rest for the transfer.
LOOKUP_TIMEOUT_S = 10.0


def lookup(host: str, port: int, timeout: float = LOOKUP_TIMEOUT_S) -> list[IPAddress]:
    """Every address ``getaddrinfo`` gives for ``host``, in its order, each once.
    ``OSError`` (``socket.gaierror``) when the name does not resolve, and ``OSError``
    too when no answer came within ``timeout`` seconds (a retryable failure: the
    lookup goes on in a daemon thread and its late answer is dropped)."""
    answer: list[list[IPAddress] | BaseException] = []

    def resolve() -> None:
        try:
            found: list[IPAddress] = []
            for *_, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
                ip = ipaddress.ip_address(sockaddr[0])
                if ip not in found:
                    found.append(ip)
            answer.append(found)
        except BaseException as exc:  # handed to the caller's thread below
            answer.append(exc)

    worker = threading.Thread(target=resolve, name=f"lookup {host}", daemon=True)
    worker.start()
    worker.join(timeout)
    if not answer:
        raise OSError(f"looking up {host} took longer than {timeout:g} s")
    [result] = answer
    if isinstance(result, BaseException):
        raise result
    return result


def check_target(
    url: str, host: str, port: int, policy: UrlPolicy, resolve: Resolver = lookup
) -> list[IPAddress]:
    """The addresses ``host`` stands for, each one the policy lets the fetcher reach:
    the literal itself, or every address the name resolves to. ``UrlRefusedError``
    naming the first refused address and its class; ``OSError`` when the name does
    not resolve."""
    literal = parse_ip(host)
    if literal is None and is_localhost_name(host) and not policy.permits(host, _LOOPBACK):
        # Refused by name, whatever this machine's resolver says of it (one that does
        # not know ``localhost.`` would make it a retried lookup failure instead).
        raise _refusal(url, host, _LOOPBACK, "loopback", literal)
    addresses = [literal] if literal is not None else list(resolve(host, port))
    if not addresses:
        raise OSError(f"{host} resolves to no address")
    for ip in addresses:
        kind = address_class(ip)
        if kind is not None and not policy.permits(host, ip):
            raise _refusal(url, host, ip, kind, literal)
    return addresses


#: What RFC 6761 makes every ``localhost`` name resolve to.
_LOOPBACK = ipaddress.IPv4Address("127.0.0.1")


def is_localhost_name(host: str) -> bool:
    """Whether ``host`` is ``localhost`` or a name under it (``api.localhost``), with or
    without the trailing dot: RFC 6761 (section 6.3) makes them all loopback names."""
    name = host.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


def _refusal(
    url: str, host: str, ip: IPAddress, kind: str, literal: IPAddress | None
) -> UrlRefusedError:
    """The refusal of ``url``, whose ``host`` is (or resolves to) ``ip``, of class ``kind``."""
    via = "" if literal is not None and str(ip) == host else f"{host} is "
    inner = carried_v4(ip)
    shown = f"{ip} ({inner})" if inner is not None else str(ip)
    article = "an" if kind[0] in "aeiou" else "a"
    return UrlRefusedError(
        f"refused to fetch {url}: {via}{shown}, {article} {kind} address. URL ingest "
        "fetches only public addresses; the server's operator can allow this host with "
        f'[documents] allowed_private_hosts = "{host}", or every private address '
        "with [documents] allow_private_urls = true"
    )

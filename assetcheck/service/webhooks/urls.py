"""The address guard for webhook URLs (``docs/security.md``, Webhooks).

A webhook URL is checked when it is submitted and again before every attempt. The host is
resolved once per check and every address it resolves to must be public: one internal address
among several refuses the URL, since a connection may use any of them. A host name that does not
resolve, resolves to nothing or resolves to an internal address gets one and the same refusal,
so the guard never tells a caller which internal names exist nor what they stand for
(``docs/security.md``, Webhooks). The check returns the
vetted addresses so that the attempt connects to exactly those, never to a second DNS answer
(DNS rebinding).

``allowed_cidrs`` (config ``[webhooks] allowed_cidrs``) opens exactly the networks it names,
e.g. ``127.0.0.1/32`` for receivers in tests. Cloud metadata endpoints stay closed regardless.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from assetcheck.config.webhooks import IPNetwork, parse_allowed_cidrs

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
HostResolver = Callable[[str, int], Sequence[str]]
"""``(host, port) -> IP address strings``; raises ``OSError`` when the host does not resolve."""

DEFAULT_PORTS = {"http": 80, "https": 443}

# AWS, GCP, Azure and others serve instance credentials here; the IPv6 one is AWS's (Nitro).
NEVER_ALLOWED = (
    ipaddress.ip_network("169.254.169.254/32"),
    ipaddress.ip_network("fd00:ec2::254/128"),
)
SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")  # RFC 6598, carrier-grade NAT
UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
NAT64_PREFIX = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052 well-known prefix


#: Said after the refusal of an internal address or a host that resolves to none allowed: the
#: setting that opens such networks (the person refused may be the one who runs the server).
ALLOWED_CIDRS_HINT = (
    "an internal receiver (a loopback or private address) is allowed only once the server's "
    'operator lists its network in [webhooks] allowed_cidrs, e.g. ["127.0.0.1/32"]'
)


class WebhookUrlError(ValueError):
    """A webhook URL that may not be used; ``str()`` says why, for the person who set it."""

    code = "INVALID_WEBHOOK_URL"


@dataclass(frozen=True)
class WebhookTarget:
    """A checked webhook URL and the addresses its host resolved to, in resolver order."""

    url: str
    scheme: str
    host: str
    port: int
    addresses: tuple[str, ...]


def resolve_host(host: str, port: int) -> list[str]:
    """The system resolver's TCP addresses for ``host``, without duplicates."""
    answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(sockaddr[0]) for *_, sockaddr in answers))


def check_webhook_url(
    url: str, allowed_cidrs: Iterable[str] = (), resolver: HostResolver | None = None
) -> WebhookTarget:
    """Validate ``url`` and resolve its host once with ``resolver`` (default :func:`resolve_host`).

    Raises :class:`WebhookUrlError` unless the URL is an absolute ``http``/``https`` URL in
    ASCII, with a host, without credentials, on a valid port, and every address the host
    resolves to is public or inside ``allowed_cidrs``. An IP literal host is used as is, with no
    resolver call. A malformed ``allowed_cidrs`` entry is a ``ValueError`` (a configuration error).
    """
    allowed = parse_allowed_cidrs(allowed_cidrs)
    scheme, host, port = _split(url)
    addresses = _resolve(host, port, resolver or resolve_host)
    for address in addresses:
        reason = address_refusal(address, allowed)
        if reason is not None:
            hint = None if _is_metadata(address) else ALLOWED_CIDRS_HINT
            raise WebhookUrlError(_refusal_message(host, address, reason, hint))
    return WebhookTarget(url=url, scheme=scheme, host=host, port=port, addresses=addresses)


def address_refusal(address: str, allowed: Sequence[IPNetwork] = ()) -> str | None:
    """Why a webhook may not be sent to ``address``, or ``None`` when it may.

    An IPv6 address that embeds an IPv4 one (IPv4-mapped, NAT64, 6to4) is judged by the IPv4
    address, where its packets end up.
    """
    given, target = _addresses(address)
    if any(target in network for network in NEVER_ALLOWED):
        return "is a cloud metadata address, which is never allowed"
    if any(ip in network for ip in (given, target) for network in allowed):
        return None
    kind = _internal_kind(target)
    return None if kind is None else f"is {kind}"


def _addresses(address: str) -> tuple[IPAddress, IPAddress]:
    """``address`` parsed, and the address its packets end up at (an embedded IPv4 one)."""
    given = ipaddress.ip_address(address.partition("%")[0])  # drop an IPv6 zone (fe80::1%eth0)
    return given, _embedded_ipv4(given) or given


def _is_metadata(address: str) -> bool:
    _, target = _addresses(address)
    return any(target in network for network in NEVER_ALLOWED)


def _refusal_message(host: str, address: str, reason: str, hint: str | None) -> str:
    """Why the URL is refused, for the person who set it, with ``hint`` when one helps. An
    address the URL names itself is described; a host name gets :func:`_host_refusal`,
    whatever it resolved to."""
    if host == address:
        return f"webhook URL refused: {host} {reason}" + (f"; {hint}" if hint else "")
    return _host_refusal(host)


def _host_refusal(host: str) -> str:
    """The one refusal of a host name, whether it did not resolve, resolved to nothing or to an
    internal address: a caller cannot tell an internal name from one that does not exist. Its
    hint is the same in every case, so it tells nothing of what the name resolved to."""
    return (
        f"webhook URL refused: {host} does not resolve to an address that is allowed; "
        f"{ALLOWED_CIDRS_HINT}"
    )


def _split(url: str) -> tuple[str, str, int]:
    if not url.isascii() or any(char.isspace() or not char.isprintable() for char in url):
        raise WebhookUrlError(
            "webhook URL refused: it must be ASCII without spaces or control "
            "characters (percent-encode the rest, use punycode for the host)"
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise WebhookUrlError(f"webhook URL refused: {error}") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise WebhookUrlError("webhook URL refused: the scheme must be http or https")
    if "@" in parts.netloc:
        raise WebhookUrlError("webhook URL refused: it must not contain credentials")
    if not parts.hostname:
        raise WebhookUrlError("webhook URL refused: it has no host")
    if port == 0:
        raise WebhookUrlError("webhook URL refused: port 0 cannot be connected to")
    return scheme, parts.hostname, port or DEFAULT_PORTS[scheme]


def _resolve(host: str, port: int, resolver: HostResolver) -> tuple[str, ...]:
    try:
        ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        pass
    else:
        return (host,)
    try:
        addresses = tuple(resolver(host, port))
    except (OSError, UnicodeError):
        raise WebhookUrlError(_host_refusal(host)) from None
    if not addresses:
        raise WebhookUrlError(_host_refusal(host))
    return addresses


def _embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip in NAT64_PREFIX:
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return ip.ipv4_mapped or ip.sixtofour


def _internal_kind(ip: IPAddress) -> str | None:
    # Specific kinds first for a helpful message: is_private also covers most of them.
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_unspecified:
        return "the unspecified address"
    if ip.is_multicast:
        return "a multicast address"
    if ip in SHARED_ADDRESS_SPACE:
        return "a shared (carrier-grade NAT) address"
    if ip in UNIQUE_LOCAL:
        return "a unique-local address"
    if ip.is_reserved or getattr(ip, "is_site_local", False):
        return "a reserved address"
    if ip.is_private:
        return "a private address"
    if not ip.is_global:
        return "not a public address"
    return None

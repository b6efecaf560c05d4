"""Which addresses a fetch may reach: public ones, unless the settings say otherwise.

A URL given by a user, a feed or a search result must not turn the reader into a probe of
the machine's own network (a cloud metadata service at 169.254.169.254, an admin page on
localhost, a database on 10.x). So every address a host resolves to is checked, IPv4 and
IPv6 alike, including IPv4 addresses carried inside IPv6 ones (``::ffff:127.0.0.1``,
6to4 ``2002::/16``, NAT64 ``64:ff9b::/96``), which would otherwise slip through.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

from websources.errors import FetchFailed, RefusedAddress
from websources.settings import WebSettings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[IPAddress]]

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def why_not_public(ip: IPAddress) -> str | None:
    """The reason ``ip`` is not a public unicast address ("loopback", "private", …), or
    None when it is one."""
    if isinstance(ip, ipaddress.IPv6Address):
        # An IPv4 address carried inside IPv6 reaches that IPv4 host: judge it by that.
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            inner = why_not_public(embedded)
            return f"{inner} (IPv4 {embedded} inside IPv6)" if inner else None
        if ip.is_site_local:
            return "site-local"
    for reason, flag in (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
    ):
        if flag:
            return reason
    if not ip.is_global:
        return "not globally routable"
    return None


def is_allowed(ip: IPAddress, settings: WebSettings) -> bool:
    """Whether a fetch may connect to ``ip`` under ``settings``."""
    if why_not_public(ip) is None or settings.allow_private:
        return True
    return any(ip.version == net.version and ip in net for net in settings.allowed_networks)


def system_resolver(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (IP literals resolve to themselves)."""
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchFailed(f"cannot resolve host {host!r}: {exc}") from None
    found: list[IPAddress] = []
    for *_, sockaddr in infos:
        ip = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if ip not in found:
            found.append(ip)
    return found


def checked_addresses(
    host: str, port: int, settings: WebSettings, resolver: Resolver = system_resolver
) -> list[IPAddress]:
    """The addresses of ``host`` a fetch may connect to; :class:`RefusedAddress` if any of
    them is not allowed (one bad address among good ones is refused as well: which one a
    connection would use is not ours to choose)."""
    addresses = resolver(host, port)
    if not addresses:
        raise FetchFailed(f"host {host!r} has no address")
    for ip in addresses:
        if not is_allowed(ip, settings):
            raise RefusedAddress(
                f"refused {host}: it resolves to {ip}, a {why_not_public(ip)} address "
                "(set WISSEN_WEB_ALLOW_PRIVATE to allow it)"
            )
    return addresses

"""Which receiver URLs a hook may post to: `http(s)` only, and a host that resolves to public addresses only —
loopback, private, link-local, reserved, multicast and unspecified addresses are refused unless the setting
`WEBHOOK_ALLOW_PRIVATE_HOSTS` (env `WEBHOOK_ALLOW_PRIVATE_HOSTS=1`, default off) allows them. Checked when a
hook is made and again before every delivery, and the delivery connects to the very address checked
(`delivery_address`), so a name that resolves elsewhere a moment later (DNS rebinding) cannot aim it inside."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings

from campaigns.errors import RuleViolation

Resolver = Callable[..., list]


def _refused(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
        or not address.is_global
    )


def url_check(url: object, *, resolver: Resolver | None = None, allow_private: bool | None = None) -> str:
    """The URL when a hook may post to it; else RuleViolation (field `url`) saying why."""
    return _checked(url, resolver, allow_private)[0]


def delivery_address(url: object, *, resolver: Resolver | None = None, allow_private: bool | None = None):
    """(the URL, the checked address to connect to) — the address None where private hosts are allowed (the
    system's resolver then connects as usual); RuleViolation as `url_check`."""
    url, addresses = _checked(url, resolver, allow_private)
    return url, (min(addresses, key=lambda a: (a.version, int(a))).compressed if addresses else None)


def _checked(url: object, resolver: Resolver | None, allow_private: bool | None):
    if not isinstance(url, str) or not url.strip():
        raise RuleViolation("Give the receiver's URL.", field="url")
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise RuleViolation("That is not a URL.", field="url") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RuleViolation("A webhook URL starts with http:// or https:// and names a host.", field="url")
    if parts.username or parts.password:
        raise RuleViolation("A webhook URL carries no user name or password.", field="url")
    if allow_private is None:
        allow_private = settings.WEBHOOK_ALLOW_PRIVATE_HOSTS
    if allow_private:
        return url, set()
    try:
        found = (resolver or socket.getaddrinfo)(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise RuleViolation("The receiver's host name does not resolve.", field="url") from None
    addresses = {ipaddress.ip_address(info[4][0].split("%")[0]) for info in found}
    if not addresses or any(_refused(a) for a in addresses):
        raise RuleViolation("Webhooks go to public hosts only (not loopback or private addresses).", field="url")
    return url, addresses

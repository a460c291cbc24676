"""Target URL safety: http(s) only; link-local, multicast, reserved and cloud-metadata never; every other
non-global address (private, loopback, shared, unique-local) only by setting. An IPv4 address embedded in an IPv6
form (IPv4-mapped or -compatible, 6to4, Teredo, NAT64) is judged by the embedded address's rules."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"}


class UnsafeTargetError(ValueError):
    """A URL stepforge refuses to drive a browser to."""


def check_target_url(url: str, *, allow_private: bool) -> str:
    """Return the URL unchanged if it may be visited, else raise UnsafeTargetError naming why."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise UnsafeTargetError(f"{url!r}: only http and https URLs are allowed")
    host = parts.hostname
    if not host:
        raise UnsafeTargetError(f"{url!r}: has no host")
    if host.lower() in METADATA_HOSTS:
        raise UnsafeTargetError(f"{url!r}: cloud metadata addresses are refused")
    try:
        infos = socket.getaddrinfo(host, parts.port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise UnsafeTargetError(f"{url!r}: host {host!r} does not resolve") from None
    except ValueError:
        raise UnsafeTargetError(f"{url!r}: invalid port") from None
    for info in infos:
        found = ipaddress.ip_address(info[4][0].split("%")[0])
        address = embedded_ipv4(found) or found
        shown = str(found) if address == found else f"{found} (that is {address})"
        if address.is_loopback:
            pass  # judged with the private addresses below; ::1 is in IPv6's reserved ::/8 but is loopback
        elif address.is_link_local or address.is_multicast or address.is_unspecified or address.is_reserved:
            raise UnsafeTargetError(f"{url!r}: {shown} is a link-local or reserved address (refused)")
        if not allow_private and not address.is_global:
            raise UnsafeTargetError(
                f"{url!r}: {shown} is a private or loopback address (not a global one); set "
                "STEPFORGE_ALLOW_PRIVATE_TARGETS=true to allow it"
            )
    return url


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def embedded_ipv4(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (IPv4-mapped, 6to4, Teredo client, NAT64, IPv4-compatible), which
    is the host a connection to it reaches; None for any other address."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64 or (address in _IPV4_COMPATIBLE and int(address) > 1):  # not :: nor ::1
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def application_hosts(base_url: str) -> frozenset[str]:
    """The host names that are the application under test: the base URL's host on any port (a front end and its
    API on another port are one application). localhost, 127.0.0.1 and ::1 name one machine and count as one."""
    host = (urlsplit(base_url).hostname or "").lower()
    return LOOPBACK_NAMES if host in LOOPBACK_NAMES else frozenset({host})


def is_third_party(url: str, app_hosts: frozenset[str]) -> bool:
    """A request to another host than the application's (a CDN, web fonts, analytics); world.js has its twin."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and (parts.hostname or "").lower() not in app_hosts

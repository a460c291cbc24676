"""Target URL safety: http(s) only; link-local and cloud-metadata never; private and loopback by setting."""

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
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if address.is_link_local or address.is_multicast or address.is_unspecified or address.is_reserved:
            raise UnsafeTargetError(f"{url!r}: {address} is a link-local or reserved address (refused)")
        if not allow_private and (address.is_private or address.is_loopback):
            raise UnsafeTargetError(
                f"{url!r}: {address} is a private or loopback address; set STEPFORGE_ALLOW_PRIVATE_TARGETS=true to allow it"
            )
    return url


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

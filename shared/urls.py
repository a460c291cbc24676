"""Which URLs stepforge may send a browser or an HTTP client to, read as browsers read them.

One reading of a URL: the WHATWG URL standard's (the ada parser, as in browsers), and a URL that another common
parser (Python's urllib, which HTTP clients follow) reads with another host or port is refused, as are the forms
where parsers are known to disagree (user-info, backslashes, control characters, port 0).

One policy for the addresses a host name resolves to (TargetPolicy): http(s) only; cloud metadata endpoints and
link-local, multicast and reserved addresses never; the operator's refused networks never; every other
non-global address (private, loopback, shared, unique-local) only when private targets are allowed. An IPv4
address embedded in an IPv6 form (IPv4-mapped or -compatible, 6to4, Teredo, NAT64) is judged as the IPv4
address it reaches. The egress guard (shared/egress.py) applies the same policy to every connection a browser
or HTTP client opens, redirects included, and connects to the very addresses it judged.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import ada_url

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# Host names of cloud metadata services, refused before any resolution.
METADATA_HOSTS = frozenset({"metadata.google.internal", "metadata.goog", "metadata", "instance-data",
                            "instance-data.ec2.internal"})

# Cloud metadata endpoints: always refused, whatever the private-target setting (the README lists them).
CLOUD_METADATA: tuple[tuple[IPNetwork, str], ...] = tuple(
    (ipaddress.ip_network(network), what) for network, what in (
        ("169.254.0.0/16", ("link-local: the metadata endpoint of AWS, GCP, Azure, Oracle Cloud, DigitalOcean and "
                            "OpenStack at 169.254.169.254, AWS ECS's at 169.254.170.2")),
        ("fe80::/10", "IPv6 link-local"),
        ("fd00:ec2::254/128", "AWS's IPv6 instance metadata endpoint"),
        ("168.63.129.16/32", "Azure's WireServer"),
        ("100.100.100.200/32", "Alibaba Cloud's metadata endpoint"),
        ("192.0.0.192/32", "Oracle Cloud's legacy metadata endpoint"),
    )
)

DEFAULT_PORTS = {"http": 80, "https": 443}


class UnsafeTargetError(ValueError):
    """A URL stepforge refuses to send a browser or an HTTP client to."""


class UnresolvableHostError(UnsafeTargetError):
    """A host name that does not resolve (now: DNS may answer later); nothing the policy decided."""


@dataclass(frozen=True)
class TargetURL:
    """A URL as the WHATWG parser reads it: scheme, host (no IPv6 brackets), port, and path with its query."""

    url: str
    scheme: str
    host: str
    port: int
    path: str = "/"


# Characters parsers treat differently (the WHATWG parser drops tabs and newlines and reads a backslash as a
# slash; others keep them): a URL holding one is refused rather than guessed at.
_AMBIGUOUS = frozenset("\\\t\r\n") | {chr(c) for c in range(0x20)} | {"\x7f"}


def parse_target_url(url: Any) -> TargetURL:
    """The URL's scheme, host, port and path, or UnsafeTargetError naming what is wrong with it (without the URL
    itself, whose query may hold a token: the caller names the URL as it may be shown)."""
    if not isinstance(url, str) or not url:
        raise UnsafeTargetError("not a URL")
    if url != url.strip() or any(c in _AMBIGUOUS for c in url):
        raise UnsafeTargetError("holds a backslash, whitespace or control character, which URL parsers read "
                                "differently")
    try:
        parts = ada_url.parse_url(url)
    except ValueError:
        raise UnsafeTargetError("not a valid URL") from None
    scheme = parts["protocol"].rstrip(":")
    if scheme not in DEFAULT_PORTS:
        raise UnsafeTargetError("only http and https URLs are allowed")
    if parts["username"] or parts["password"] or "@" in re.split(r"[/?#]", url.split("//", 1)[-1], maxsplit=1)[0]:
        raise UnsafeTargetError("a user name or password in a URL is refused (parsers and people read the host of "
                                "such a URL differently); send credentials another way")
    host = parts["hostname"]
    if not host:
        raise UnsafeTargetError("has no host")
    if parts["port"] == "0":
        raise UnsafeTargetError("port 0 is not a port a server listens on")
    port = int(parts["port"]) if parts["port"] else DEFAULT_PORTS[scheme]
    host = host.strip("[]")
    if not _same_host_elsewhere(url, host, port):
        raise UnsafeTargetError(f"URL parsers disagree on its host or port (a browser reads host {host!r}, port "
                                f"{port}); write the host plainly")
    return TargetURL(url, scheme, host, port, (parts["pathname"] or "/") + parts["search"])


def _same_host_elsewhere(url: str, host: str, port: int) -> bool:
    """Whether urllib, which HTTP clients follow, reads the host and port the WHATWG parser read."""
    try:
        parts = urlsplit(url)
        other, other_port = parts.hostname or "", parts.port
    except ValueError:
        return False
    if (other_port if other_port is not None else DEFAULT_PORTS[parts.scheme.lower()]) != port:
        return False
    try:
        return ipaddress.ip_address(other) == ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        other = other.encode("idna").decode("ascii") if not other.isascii() else other
    except UnicodeError:
        return False
    return other.lower() == host


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
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


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


@dataclass(frozen=True)
class TargetPolicy:
    """The addresses a customer's URL may reach (see the module's docstring)."""

    allow_private: bool = False
    refused_networks: tuple[IPNetwork, ...] = ()
    refuse_all: bool = False  # nothing may be reached (a browser's own traffic, outside any page)

    @classmethod
    def of(cls, settings: Any) -> TargetPolicy:
        return cls(settings.allow_private_targets, tuple(settings.refused_networks))

    def check_url(self, url: str) -> str:
        """Return the URL unchanged if it may be visited, else raise UnsafeTargetError (UnresolvableHostError for
        a name that does not resolve) naming the URL and why."""
        try:
            target = parse_target_url(url)
            self.addresses(target.host, target.port)
        except UnsafeTargetError as exc:
            raise type(exc)(f"{url!r}: {exc}") from None
        return url

    def addresses(self, host: str, port: int) -> list[str]:
        """The addresses host resolves to, each one allowed, in the resolver's order: a connection goes to one of
        these (never to a second resolution's answer). UnsafeTargetError says why not."""
        if self.refuse_all:
            raise UnsafeTargetError("a request outside any page (the browser's own background traffic) never leaves")
        if host.lower().rstrip(".") in METADATA_HOSTS:
            raise UnsafeTargetError(f"cloud metadata host {host} (always refused)")
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror:
            raise UnresolvableHostError(f"host {host!r} does not resolve") from None
        except (ValueError, UnicodeError):
            raise UnsafeTargetError(f"host {host!r} or port {port!r} is invalid") from None
        found: list[str] = []
        for info in infos:
            address = info[4][0].split("%")[0]
            refusal = self.refusal(ipaddress.ip_address(address))
            if refusal is not None:
                raise UnsafeTargetError(refusal)
            if address not in found:
                found.append(address)
        return found

    def refusal(self, found: IPAddress) -> str | None:
        """Why a connection to this address is refused; None when it is allowed."""
        address = embedded_ipv4(found) or found
        shown = str(found) if address == found else f"{found} (that is {address})"
        for network, what in CLOUD_METADATA:
            if address in network:
                return f"{shown} is a cloud metadata or link-local address ({what}); always refused"
        for network in self.refused_networks:
            if address in network or found in network:
                return f"{shown} is in a refused network ({network}, STEPFORGE_REFUSED_NETWORKS)"
        if address.is_loopback:
            pass  # judged with the private addresses below; ::1 is in IPv6's reserved ::/8 but is loopback
        elif address.is_multicast or address.is_unspecified or address.is_reserved:
            return f"{shown} is a multicast or reserved address (refused)"
        if not self.allow_private and not address.is_global:
            return (f"{shown} is a private or loopback address (not a global one); set "
                    "STEPFORGE_ALLOW_PRIVATE_TARGETS=true to allow it")
        return None


NO_EGRESS = TargetPolicy(refuse_all=True)

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def url_host(url: str) -> str:
    """The host of a URL as the WHATWG parser reads it (no IPv6 brackets, lower case); "" when it has none."""
    try:
        return ada_url.parse_url(url)["hostname"].strip("[]").lower()
    except ValueError:
        return ""


def application_hosts(base_url: str) -> frozenset[str]:
    """The host names that are the application under test: the base URL's host on any port (a front end and its
    API on another port are one application). localhost, 127.0.0.1 and ::1 name one machine and count as one."""
    host = url_host(base_url)
    return LOOPBACK_NAMES if host in LOOPBACK_NAMES else frozenset({host})


def is_third_party(url: str, app_hosts: frozenset[str]) -> bool:
    """A request to another host than the application's (a CDN, web fonts, analytics); world.js has its twin."""
    return url.startswith(("http://", "https://")) and url_host(url) not in app_hosts

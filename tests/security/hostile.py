"""A hostile application for the egress guard's tests: its page reaches for an address the target policy refuses
in every way a page can, and its redirects lead there after 1 to 3 hops.

The refused address is a loopback one made refused by the policy (STEPFORGE_REFUSED_NETWORKS=127.0.0.2/32),
never a real metadata address; a listener there counts every TCP connection that reaches it, whatever it
carries (HTTP, a WebSocket, a tunnel), and a UDP socket on the same port every datagram (WebRTC)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from tests.http_site import SiteHandler, serve

REFUSED_HOST = "127.0.0.2"
REFUSED_NETWORK = f"{REFUSED_HOST}/32"

# What the page asks of the refused address, one path each (the test finds each in the guard's refusals).
PAGE_ATTEMPTS = ("img", "mapped", "redirected", "fetch", "frame", "ws", "events", "form", "refresh", "webrtc", "popup")


@dataclass
class Listener:
    """A TCP and a UDP socket on one port of the refused address, which nothing answers: what reached them
    waits there (a TCP handshake completes in the kernel's backlog) until `accepted` and `datagrams` look."""

    tcp: socket.socket
    udp: socket.socket
    port: int
    _accepted: list[tuple[str, int]] = field(default_factory=list)
    _datagrams: list[bytes] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://{REFUSED_HOST}:{self.port}"

    @property
    def accepted(self) -> list[tuple[str, int]]:
        """Every TCP connection that reached the listener so far."""
        while True:
            try:
                connection, peer = self.tcp.accept()
            except BlockingIOError:
                return list(self._accepted)
            connection.close()
            self._accepted.append(peer)

    @property
    def datagrams(self) -> list[bytes]:
        """Every UDP datagram (a WebRTC STUN request, say) that reached the listener so far."""
        while True:
            try:
                self._datagrams.append(self.udp.recv(65536))
            except BlockingIOError:
                return list(self._datagrams)


@contextmanager
def refused_listener() -> Iterator[Listener]:
    tcp = socket.socket()
    tcp.bind((REFUSED_HOST, 0))
    tcp.listen(128)
    port = tcp.getsockname()[1]
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((REFUSED_HOST, port))
    for sock in (tcp, udp):
        sock.setblocking(False)
    try:
        yield Listener(tcp, udp, port)
    finally:
        tcp.close()
        udp.close()


def hostile_page(refused: str) -> str:
    """A page that tries every kind of request to `refused` at once and counts the attempts that ended in
    window.__ended (the popup and the form's frame end as pages of their own; the frame once the document has
    loaded)."""
    ws = refused.replace("http://", "ws://")
    mapped = refused.replace(REFUSED_HOST, f"[::ffff:{REFUSED_HOST}]")  # the same address in an IPv6 form
    return f"""<!doctype html><html><head><title>Welcome</title>
<script>window.__ended = new Set(); function ended(what) {{ window.__ended.add(what); }}</script></head><body>
<h1>Welcome</h1>
<p id="status">Loaded</p>
<img src="{refused}/img" onerror="ended('img')" onload="ended('img')">
<img src="{mapped}/mapped" onerror="ended('mapped')" onload="ended('mapped')">
<img src="/hops/3" onerror="ended('redirected')" onload="ended('redirected')">
<iframe src="{refused}/frame"></iframe>
<iframe name="sink" onload="if (this.dataset.posted) ended('form')"></iframe>
<form id="post" method="post" action="{refused}/form" target="sink"><input name="q" value="1"></form>
<iframe srcdoc="<meta http-equiv='refresh' content='0; url={refused}/refresh'>"
        onload="this.dataset.loads = (Number(this.dataset.loads || 0) + 1); if (this.dataset.loads == 2) ended('refresh')">
</iframe>
<script>
  fetch("{refused}/fetch").then(() => ended("fetch"), () => ended("fetch"));
  const ws = new WebSocket("{ws}/ws"); ws.onerror = ws.onclose = () => ended("ws");
  const events = new EventSource("{refused}/events"); events.onerror = () => {{ events.close(); ended("events"); }};
  document.querySelector("iframe[name=sink]").dataset.posted = "1";
  document.getElementById("post").submit();
  const rtc = new RTCPeerConnection({{ iceServers: [{{ urls: "stun:{refused.removeprefix('http://')}" }}] }});
  rtc.createDataChannel("x");
  rtc.onicegatheringstatechange = () => {{ if (rtc.iceGatheringState === "complete") ended("webrtc"); }};
  rtc.createOffer().then((offer) => rtc.setLocalDescription(offer));
  window.open("{refused}/popup");
  // The document's load waits for every frame to end, its error page included (the headless shell fires no load
  // on an iframe showing an error page).
  window.addEventListener("load", () => ended("frame"));
</script>
</body></html>"""


@contextmanager
def hostile_site(listener: Listener) -> Iterator[str]:
    """The hostile application on 127.0.0.1: / is the page; /hops/N redirects N times, the last time to the
    refused address; /plain is a page with no request of its own."""
    refused = listener.origin

    class Site(SiteHandler):
        def do_GET(self) -> None:  # noqa: N802
            if self.path.startswith("/hops/"):
                left = int(self.path.rsplit("/", 1)[1])
                where = f"/hops/{left - 1}" if left > 1 else f"{refused}/hop"
                self.send(b"", status=302, headers={"Location": where})
            elif self.path == "/plain":
                self.send("<h1>Plain</h1>")
            elif self.path == "/secret":  # its text comes from the refused address, so it never shows
                self.send(f"<h1>Secret</h1><p id=out>loading</p><script>fetch('{refused}/secret').then(r => r.text())"
                          ".then(t => { out.textContent = t; }, () => { out.textContent = 'unavailable'; })</script>")
            else:
                self.send(hostile_page(refused))

    url, stop = serve(Site)
    try:
        yield url
    finally:
        stop()

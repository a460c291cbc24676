"""A hostile application for the egress guard's tests: its page reaches for an address the target policy refuses
in every way a page can, and its redirects lead there after 1 to 3 hops.

The refused address is a loopback one made refused by the policy (STEPFORGE_REFUSED_NETWORKS=127.0.0.2/32),
never a real metadata address; a listener there counts every TCP connection that reaches it, whatever it
carries (HTTP, a WebSocket, a tunnel)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from tests.http_site import SiteHandler, serve

REFUSED_HOST = "127.0.0.2"
REFUSED_NETWORK = f"{REFUSED_HOST}/32"

# What the page asks of the refused address, one path each (the test finds each in the guard's refusals).
PAGE_ATTEMPTS = ("img", "fetch", "frame", "ws", "events", "form", "refresh", "popup")


@dataclass
class Listener:
    """A TCP listener on the refused address that counts the connections it accepts."""

    port: int
    accepted: list[tuple[str, int]] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://{REFUSED_HOST}:{self.port}"


@contextmanager
def refused_listener() -> Iterator[Listener]:
    sock = socket.socket()
    sock.bind((REFUSED_HOST, 0))
    sock.listen(64)
    listener = Listener(sock.getsockname()[1])

    def accept() -> None:
        while True:
            try:
                connection, peer = sock.accept()
            except OSError:
                return
            listener.accepted.append(peer)
            connection.close()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener
    finally:
        sock.close()


def hostile_page(refused: str) -> str:
    """A page that tries every kind of request to `refused` at once and counts the attempts that ended in
    window.__ended (the popup and the form's frame end as pages of their own)."""
    ws = refused.replace("http://", "ws://")
    return f"""<!doctype html><html><head><title>Welcome</title>
<script>window.__ended = new Set(); function ended(what) {{ window.__ended.add(what); }}</script></head><body>
<h1>Welcome</h1>
<p id="status">Loaded</p>
<img src="{refused}/img" onerror="ended('img')" onload="ended('img')">
<iframe src="{refused}/frame" onload="ended('frame')"></iframe>
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
  window.open("{refused}/popup");
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
